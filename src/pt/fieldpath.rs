//! crossplane-runtime v2's `pkg/fieldpath` as function-patch-and-transform uses it: field
//! paths (`spec.forProvider.tags[0]`, `metadata.labels[app.kubernetes.io/name]`, wildcards
//! `spec.items[*].name`), and a paved object over a JSON value that reads, writes (creating
//! intermediate objects and growing arrays) and merges at a path, with Go's error texts.
//!
//! Numbers: Kubernetes' unstructured JSON holds integers as `int64` and other numbers as
//! `float64`. Writing goes through a JSON round trip in Go, so a float64 that is integral
//! comes back an int64; [`normalize_numbers`] does the same here, and reads compare numbers by
//! that distinction ([`go_equal`]).

use std::fmt;

use serde_json::{Map, Number, Value};

use crate::gostd::strconv::quote;

/// One step of a field path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Segment {
    /// An object member (`Field`): `*` is the wildcard.
    Field(String),
    /// An array element (`Index`).
    Index(u64),
}

/// A parsed field path (Go's `Segments`); `Display` is Go's `Segments.String`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Segments(pub Vec<Segment>);

const WILDCARD: &str = "*";

impl fmt::Display for Segments {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = String::new();
        for s in &self.0 {
            match s {
                Segment::Field(name) if name == WILDCARD || name.contains('.') => {
                    out.push('[');
                    out.push_str(name);
                    out.push(']');
                }
                Segment::Field(name) => {
                    out.push('.');
                    out.push_str(name);
                }
                Segment::Index(i) => out.push_str(&format!("[{i}]")),
            }
        }
        f.write_str(out.strip_prefix('.').unwrap_or(&out))
    }
}

impl Segments {
    /// The first `n` segments.
    fn prefix(&self, n: usize) -> Segments {
        Segments(self.0[..n].to_vec())
    }

    /// `%q` of the segments: Go quotes their `String()`.
    fn quoted(&self) -> String {
        quote(&self.to_string())
    }
}

/// Go's `Field`: a member name, stripped of surrounding quote characters.
pub fn field(s: &str) -> Segment {
    Segment::Field(s.trim_matches(|c| c == '\'' || c == '"').to_string())
}

/// Go's `FieldOrIndex`: an index when `s` is an unsigned 32-bit decimal, else a field.
pub fn field_or_index(s: &str) -> Segment {
    // strconv.ParseUint(s, 10, 32): ASCII digits only, no sign.
    if !s.is_empty()
        && s.bytes().all(|b| b.is_ascii_digit())
        && let Ok(i) = s.parse::<u32>()
    {
        return Segment::Index(u64::from(i));
    }
    field(s)
}

/// Go's `fieldpath.Parse`: a path's segments, or the lexer's error (`unexpected '.' at
/// position 0`; positions are byte offsets).
pub fn parse(path: &str) -> Result<Segments, String> {
    let b = path.as_bytes();
    let mut segments = Vec::new();
    let err = |what: &str, c: char, pos: usize| Err(format!("{what} '{c}' at position {pos}"));
    // The lexer's states: a field, then '.', '[' or the end.
    let mut pos = 0;
    let mut start = 0;
    loop {
        // lexField
        let mut next = None;
        for (i, c) in path[pos..].char_indices() {
            match c {
                ']' => return err("unexpected", ']', pos + i),
                '[' | '.' => {
                    next = Some((c, pos + i));
                    break;
                }
                _ => {}
            }
        }
        let Some((c, at)) = next else {
            if path.len() > start {
                segments.push(field(&path[start..]));
            }
            return Ok(Segments(segments));
        };
        pos = at;
        if pos > start {
            segments.push(field(&path[start..pos]));
        }
        if c == '.' {
            // lexPeriod
            if pos == 0 || pos == b.len() - 1 {
                return err("unexpected", '.', pos);
            }
            pos += 1;
            start = pos;
            match b.get(pos) {
                Some(b'.') => return err("unexpected", '.', pos),
                Some(b'[') => return err("unexpected", '[', pos),
                _ => {}
            }
            continue;
        }
        // lexLeftBracket
        if !path[pos..].contains(']') {
            return err("unterminated", '[', pos);
        }
        pos += 1;
        start = pos;
        // lexFieldOrIndex
        let rbi = path[pos..].find(']').unwrap_or(0);
        if rbi == 0 {
            return err("unexpected", ']', pos);
        }
        if let Some(lbi) = path[pos..pos + rbi].find('[') {
            return err("unexpected", '[', pos + lbi);
        }
        pos += rbi;
        segments.push(field_or_index(&path[start..pos]));
        // lexRightBracket
        pos += 1;
        start = pos;
    }
}

/// An error of a field-path operation. `not_found` is Go's `fieldpath.IsNotFound`, kept
/// through wrapping.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    /// The message, as Go's `err.Error()`.
    pub message: String,
    /// Whether the cause is a missing field or element (Go's `IsNotFound`).
    pub not_found: bool,
}

impl Error {
    fn new(message: String) -> Error {
        Error {
            message,
            not_found: false,
        }
    }

    fn not_found(message: String) -> Error {
        Error {
            message,
            not_found: true,
        }
    }

    /// Go's `errors.Wrap(err, prefix)`: `prefix: message`, keeping `not_found`.
    pub fn wrap(self, prefix: &str) -> Error {
        Error {
            message: format!("{prefix}: {}", self.message),
            not_found: self.not_found,
        }
    }

    /// Go's `fieldpath.IsNotFound`.
    pub fn is_not_found(&self) -> bool {
        self.not_found
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

fn parse_path(path: &str) -> Result<Segments, Error> {
    parse(path).map_err(|e| Error::new(format!("cannot parse path {}: {e}", quote(path))))
}

static NULL: Value = Value::Null;

/// Go's `getValueFromInterface`: the value at `s` below `it`.
fn get_segments<'a>(mut it: &'a Value, s: &Segments) -> Result<&'a Value, Error> {
    for (i, current) in s.0.iter().enumerate() {
        match current {
            Segment::Index(idx) => {
                let Value::Array(array) = it else {
                    return Err(Error::new(format!("{}: not an array", s.prefix(i))));
                };
                let Some(v) = usize::try_from(*idx).ok().and_then(|i| array.get(i)) else {
                    return Err(Error::not_found(format!(
                        "{}: no such element",
                        s.prefix(i + 1)
                    )));
                };
                it = v;
            }
            Segment::Field(name) => match it {
                Value::Object(object) => {
                    let Some(v) = object.get(name) else {
                        return Err(Error::not_found(format!(
                            "{}: no such field",
                            s.prefix(i + 1)
                        )));
                    };
                    it = v;
                }
                Value::Null => {
                    return Err(Error::not_found(format!(
                        "{}: expected map, got nil",
                        s.prefix(i)
                    )));
                }
                _ => return Err(Error::new(format!("{}: not an object", s.prefix(i)))),
            },
        }
    }
    Ok(if s.0.is_empty() { &NULL } else { it })
}

/// Go's `Paved.GetValue` over a borrowed object: the value at `path` (JSON `null` for an empty
/// path, as Go returns nil).
pub fn get_value<'a>(object: &'a Value, path: &str) -> Result<&'a Value, Error> {
    let segments = parse_path(path)?;
    // A nil object in Go is a nil map: every field is missing.
    if object.is_null() && !segments.0.is_empty() {
        static EMPTY: std::sync::OnceLock<Value> = std::sync::OnceLock::new();
        return get_segments(EMPTY.get_or_init(|| Value::Object(Map::new())), &segments);
    }
    get_segments(object, &segments)
}

/// Go's `Paved.GetString`.
pub fn get_string(object: &Value, path: &str) -> Result<String, Error> {
    match get_value(object, path)? {
        Value::String(s) => Ok(s.clone()),
        _ => Err(Error::new(format!("{path}: not a string"))),
    }
}

/// Go's `Paved.GetBool`.
pub fn get_bool(object: &Value, path: &str) -> Result<bool, Error> {
    match get_value(object, path)? {
        Value::Bool(b) => Ok(*b),
        _ => Err(Error::new(format!("{path}: not a bool"))),
    }
}

/// Go's `Paved.GetInteger`: only an int64 (an integral JSON number) is one.
pub fn get_integer(object: &Value, path: &str) -> Result<i64, Error> {
    match get_value(object, path)? {
        Value::Number(n) if n.as_i64().is_some() && is_int64(n) => {
            Ok(n.as_i64().unwrap_or_default())
        }
        _ => Err(Error::new(format!("{path}: not a (int64) number"))),
    }
}

/// Whether a number is an int64 in Kubernetes' unstructured JSON: written without fraction or
/// exponent and in range.
pub fn is_int64(n: &Number) -> bool {
    let text = n.to_string();
    n.as_i64().is_some() && !text.contains(['.', 'e', 'E'])
}

/// Go's `Paved.ExpandWildcards` over a borrowed object: each path the wildcards of `path`
/// stand for, in the object's key order; none when a field before a wildcard is missing.
pub fn expand_wildcards(object: &Value, path: &str) -> Result<Vec<String>, Error> {
    let segments = parse_path(path)?;
    let expanded = expand(object, &segments).map_err(|e| {
        e.wrap(&format!(
            "cannot expand wildcards for segments: {}",
            segments.quoted()
        ))
    })?;
    Ok(expanded.iter().map(Segments::to_string).collect())
}

fn expand(data: &Value, segments: &Segments) -> Result<Vec<Segments>, Error> {
    let mut it = data;
    for (i, current) in segments.0.iter().enumerate() {
        if matches!(current, Segment::Field(f) if f == WILDCARD) {
            let replaced = |with: Segment| {
                let mut e = segments.clone();
                e.0[i] = with;
                e
            };
            let subs: Vec<Segments> = match it {
                Value::Array(a) => (0..a.len())
                    .map(|ix| replaced(field_or_index(&ix.to_string())))
                    .collect(),
                Value::Object(o) => o.keys().map(|k| replaced(field(k))).collect(),
                Value::Null => {
                    return Err(Error::not_found(format!(
                        "wildcard field {} is not found in the path",
                        segments.prefix(i).quoted()
                    )));
                }
                _ => {
                    return Err(Error::new(format!(
                        "{}: unexpected wildcard usage",
                        segments.prefix(i).quoted()
                    )));
                }
            };
            let mut res = Vec::new();
            for e in subs {
                let r = expand(data, &e)
                    .map_err(|err| err.wrap(&format!("{}: cannot expand wildcards", e.quoted())))?;
                res.extend(r);
            }
            return Ok(res);
        }
        match get_segments(data, &segments.prefix(i + 1)) {
            Ok(v) => it = v,
            Err(e) if e.not_found => return Ok(Vec::new()),
            Err(e) => return Err(e),
        }
    }
    Ok(vec![segments.clone()])
}

/// The largest index a write may use (Go's `DefaultMaxFieldPathIndex`).
pub const MAX_FIELD_PATH_INDEX: u64 = 1024;

/// Go's JSON round trip of a value written at a path (`toValidJSON`): an integral float64 in
/// int64 range becomes an int64, every other number a float64.
pub fn normalize_numbers(v: &mut Value) {
    match v {
        Value::Number(n) => {
            if is_int64(n) {
                if let Some(i) = n.as_i64() {
                    *n = Number::from(i);
                }
                return;
            }
            let Some(f) = n.as_f64() else { return };
            // Go prints an integral float64 below 1e21 without a fraction; sigs.k8s.io/json
            // reads back what parses as an int64 as one.
            if f.fract() == 0.0
                && (-9.223_372_036_854_776e18..9.223_372_036_854_776e18).contains(&f)
            {
                *n = Number::from(f as i64);
            } else if let Some(g) = Number::from_f64(f) {
                *n = g;
            }
        }
        Value::Array(items) => items.iter_mut().for_each(normalize_numbers),
        Value::Object(members) => members.values_mut().for_each(normalize_numbers),
        _ => {}
    }
}

/// Go's `reflect.DeepEqual` on unstructured JSON: an int64 never equals a float64.
pub fn go_equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => match (is_int64(x), is_int64(y)) {
            (true, true) => x.as_i64() == y.as_i64(),
            (false, false) => x.as_f64() == y.as_f64(),
            _ => false,
        },
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| go_equal(a, b))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| go_equal(v, w)))
        }
        _ => a == b,
    }
}

/// A new array or object for what the next segment needs (Go's `prepareElement` and
/// `prepareField`): created when missing, an array grown to hold the next index.
fn prepare(slot: Option<&mut Value>, next: &Segment, missing: bool) -> Option<Value> {
    let created = || match next {
        Segment::Index(i) => Value::Array(vec![Value::Null; *i as usize + 1]),
        Segment::Field(_) => Value::Object(Map::new()),
    };
    match slot {
        None => Some(created()),
        Some(v) if missing => {
            *v = created();
            None
        }
        Some(Value::Array(a)) => {
            if let Segment::Index(i) = next
                && *i as usize >= a.len()
            {
                a.resize(*i as usize + 1, Value::Null);
            }
            None
        }
        Some(_) => None,
    }
}

fn set_segments(root: &mut Value, s: &Segments, v: Value) -> Result<(), Error> {
    for seg in &s.0 {
        if let Segment::Index(i) = seg
            && *i > MAX_FIELD_PATH_INDEX
        {
            return Err(Error::new(format!(
                "index {i} is greater than max allowed index {MAX_FIELD_PATH_INDEX}"
            )));
        }
    }
    let mut v = Some(v);
    let mut input = root;
    for (i, current) in s.0.iter().enumerate() {
        let next = s.0.get(i + 1);
        match current {
            Segment::Index(idx) => {
                let Value::Array(array) = input else {
                    return Err(Error::new(format!("{} is not an array", s.prefix(i))));
                };
                let idx = *idx as usize;
                if idx >= array.len() {
                    // Go would panic; grow instead, as the write clearly means to.
                    array.resize(idx + 1, Value::Null);
                }
                let Some(next) = next else {
                    array[idx] = v.take().unwrap_or_default();
                    return Ok(());
                };
                let slot = &mut array[idx];
                // Go's prepareElement: a nil element is created.
                let missing = slot.is_null();
                prepare(Some(slot), next, missing);
                input = slot;
            }
            Segment::Field(name) => {
                let Value::Object(object) = input else {
                    return Err(Error::new(format!("{} is not an object", s.prefix(i))));
                };
                let Some(next) = next else {
                    object.insert(name.clone(), v.take().unwrap_or_default());
                    return Ok(());
                };
                // Go's prepareField: only an absent field is created (a null one is kept).
                if !object.contains_key(name) {
                    let created = prepare(None, next, true).unwrap_or_default();
                    object.insert(name.clone(), created);
                } else {
                    prepare(object.get_mut(name), next, false);
                }
                input = object.get_mut(name).expect("just ensured");
            }
        }
    }
    Ok(())
}

/// Go's `MergeOptions` (`keepMapValues`, `appendSlice`) as the toFieldPath policies set them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct MergeOptions {
    /// `keepMapValues`: existing values win over the patch's (mergo without `WithOverride`).
    pub keep_map_values: Option<bool>,
    /// `appendSlice`: arrays are appended to (mergo's `WithAppendSlice`), the source's elements
    /// already in the destination left out.
    pub append_slice: Option<bool>,
}

impl MergeOptions {
    fn overwrite(&self) -> bool {
        self.keep_map_values != Some(true)
    }

    fn append(&self) -> bool {
        self.append_slice == Some(true)
    }
}

/// Go's type name of an unstructured value, as mergo prints slice types in its errors.
fn go_type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "<nil>",
        Value::Bool(_) => "bool",
        Value::Number(n) if is_int64(n) => "int64",
        Value::Number(_) => "float64",
        Value::String(_) => "string",
        Value::Array(_) => "[]interface {}",
        Value::Object(_) => "map[string]interface {}",
    }
}

/// mergo's emptiness (`isEmptyValue`, dereferencing): null, false, zero, "" and empty
/// collections.
fn mergo_empty(v: &Value) -> bool {
    match v {
        Value::Null => true,
        Value::Bool(b) => !b,
        Value::Number(n) => n.as_f64() == Some(0.0),
        Value::String(s) => s.is_empty(),
        Value::Array(a) => a.is_empty(),
        Value::Object(o) => o.is_empty(),
    }
}

/// mergo's `deepMerge` of one `map[string]interface{}` into another, in place.
fn mergo_maps(
    dst: &mut Map<String, Value>,
    src: &Map<String, Value>,
    mo: &MergeOptions,
) -> Result<(), String> {
    let overwrite = mo.overwrite();
    for (key, s) in src {
        if s.is_null() {
            if overwrite {
                dst.insert(key.clone(), Value::Null);
            }
            continue;
        }
        let d = dst.get(key).cloned();
        match s {
            Value::Object(sm) => {
                if let Some(Value::Object(dm)) = dst.get_mut(key) {
                    mergo_maps(dm, sm, mo)?;
                }
            }
            Value::Array(sa) => {
                let dslice = match &d {
                    None | Some(Value::Null) => Value::Array(Vec::new()),
                    Some(other) => other.clone(),
                };
                let merged = if overwrite && !mo.append() {
                    s.clone()
                } else if mo.append() {
                    match dslice {
                        Value::Array(mut da) => {
                            da.extend(sa.iter().cloned());
                            Value::Array(da)
                        }
                        other => {
                            return Err(format!(
                                "cannot append two slices with different type ([]interface {{}}, {})",
                                go_type_name(&other)
                            ));
                        }
                    }
                } else {
                    dslice
                };
                dst.insert(key.clone(), merged);
            }
            _ => {}
        }
        if let Some(d) = &d
            && !mergo_empty(d)
            && (s.is_array() || (s.is_object() && d.is_object()))
        {
            continue;
        }
        if overwrite || d.as_ref().is_none_or(mergo_empty) {
            dst.insert(key.clone(), s.clone());
        }
    }
    Ok(())
}

/// crossplane-runtime's `merge`: `src` merged into `dst` by the options, or `src` itself when
/// either is null.
fn merge(dst: Value, src: Value, mo: &MergeOptions) -> Result<Value, Error> {
    if dst.is_null() || src.is_null() {
        return Ok(src);
    }
    let src = if mo.append() {
        match (&dst, src) {
            (Value::Array(d), Value::Array(s)) => Value::Array(
                s.into_iter()
                    .filter(|item| !d.iter().any(|x| go_equal(item, x)))
                    .collect(),
            ),
            (_, s) => s,
        }
    } else {
        src
    };
    let mut wrapped = Map::new();
    wrapped.insert("arg".into(), dst);
    let mut source = Map::new();
    source.insert("arg".into(), src);
    mergo_maps(&mut wrapped, &source, mo)
        .map_err(|e| Error::new(format!("failed to merge values: {e}")))?;
    Ok(wrapped.remove("arg").unwrap_or_default())
}

/// A paved object (Go's `fieldpath.Paved`): a JSON object read and written by field paths.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Paved {
    object: Value,
}

impl Paved {
    /// Go's `Pave`: a JSON object (null stands for Go's nil map).
    pub fn new(object: Value) -> Paved {
        Paved { object }
    }

    /// The object (Go's `UnstructuredContent`: an empty object for a nil one).
    pub fn value(&self) -> &Value {
        &self.object
    }

    /// The object, taken out.
    pub fn into_value(self) -> Value {
        if self.object.is_null() {
            Value::Object(Map::new())
        } else {
            self.object
        }
    }

    /// Go's `GetValue`.
    pub fn get_value(&self, path: &str) -> Result<&Value, Error> {
        get_value(&self.object, path)
    }

    /// Go's `GetString`.
    pub fn get_string(&self, path: &str) -> Result<String, Error> {
        get_string(&self.object, path)
    }

    /// Go's `GetBool`.
    pub fn get_bool(&self, path: &str) -> Result<bool, Error> {
        get_bool(&self.object, path)
    }

    /// Go's `GetInteger`.
    pub fn get_integer(&self, path: &str) -> Result<i64, Error> {
        get_integer(&self.object, path)
    }

    /// Go's `ExpandWildcards`.
    pub fn expand_wildcards(&self, path: &str) -> Result<Vec<String>, Error> {
        expand_wildcards(&self.object, path)
    }

    /// Go's `SetValue`: writes `value` (numbers normalized as Go's JSON round trip leaves
    /// them) at `path`, creating missing objects and arrays and growing arrays; an empty path
    /// writes nothing.
    pub fn set_value(&mut self, path: &str, mut value: Value) -> Result<(), Error> {
        let segments = parse_path(path)?;
        normalize_numbers(&mut value);
        if self.object.is_null() {
            self.object = Value::Object(Map::new());
        }
        set_segments(&mut self.object, &segments, value)
    }

    /// Go's `MergeValue`: the value at `path` merged with `value` by the options (replaced
    /// without them), then written back.
    pub fn merge_value(
        &mut self,
        path: &str,
        value: Value,
        mo: Option<&MergeOptions>,
    ) -> Result<(), Error> {
        let dst = match (self.get_value(path), mo) {
            (Err(e), Some(_)) if !e.is_not_found() => return Err(e),
            (Ok(v), Some(_)) => v.clone(),
            _ => Value::Null,
        };
        let merged = match mo {
            Some(mo) => merge(dst, value, mo)?,
            None => value,
        };
        self.set_value(path, merged)
    }
}

#[cfg(test)]
mod tests;

//! A resource body (or a status object) as P&T builds it: a base document and, in patch
//! order, writes that happen only when their source exists. Rendered as HCL that keeps P&T's
//! semantics exactly: a write whose source is absent leaves the base as it is, the field
//! absent when the base has none. Each conditional write becomes `COND ? { key = VALUE } : null`
//! in a `merge(...)` at the deepest object the base has (`merge` skips null arguments, and a
//! conditional with a `null` arm keeps the other arm's type, so no value is converted); an
//! object no base holds exists only when one of its writes happens.

use super::hcl::{Seg, key, literal};
use serde_json::Value as Json;

/// When a write happens: always, or when the HCL condition holds.
pub type Cond = Option<String>;

/// A node of the document being built.
#[derive(Clone, Debug)]
enum Node {
    Obj(Obj),
    Arr(Arr),
    Lit(Json),
}

/// An array of the base: its elements, the writes of whole elements, and the writes that
/// append one (at the index just past the base's end, as P&T extends an array).
#[derive(Clone, Debug)]
struct Arr {
    base: Json,
    items: Vec<Node>,
    writes: Vec<(usize, Cond, String)>,
    appends: Vec<(Cond, String)>,
    /// Writes below the element just past the base's end: P&T creates it as an object.
    appended: Option<Obj>,
}

/// An object: its base fields (and objects the writes create), and the writes made at it.
#[derive(Clone, Debug, Default)]
pub struct Obj {
    fields: Vec<Field>,
    ops: Vec<Op>,
}

#[derive(Clone, Debug)]
struct Field {
    key: String,
    node: Node,
    /// Created by a write, not in the base.
    created: bool,
    /// Created by a write below a base field that is `null` (P&T makes it an object).
    null_base: bool,
}

#[derive(Clone, Debug)]
enum Op {
    /// `key` takes `value` when `cond` holds.
    Set {
        key: String,
        cond: Cond,
        value: String,
    },
    /// The created object `key` gets its first write here.
    Into { key: String },
}

impl Obj {
    /// The tree of a base document (`None` when it is not an object).
    pub fn from_json(value: &Json) -> Option<Obj> {
        match node(value) {
            Node::Obj(obj) => Some(obj),
            Node::Arr(_) | Node::Lit(_) => None,
        }
    }

    /// Records a write of `value` at `path` when `cond` holds. `Err` says why P&T's write
    /// cannot be expressed here (the caller turns it into a TODO).
    pub fn write(&mut self, path: &[Seg], cond: Cond, value: String) -> Result<(), String> {
        let Some((first, rest)) = path.split_first() else {
            return Err("an empty field path".into());
        };
        let name = match first {
            Seg::Field(name) => name.clone(),
            Seg::Index(i) => {
                return Err(format!(
                    "a write to element {i} of an array the document does not have"
                ));
            }
            Seg::Wildcard => return Err("a `[*]` wildcard in `toFieldPath`".into()),
        };
        if rest.is_empty() {
            self.ops.push(Op::Set {
                key: name,
                cond,
                value,
            });
            return Ok(());
        }
        if self
            .ops
            .iter()
            .any(|op| matches!(op, Op::Set { key, .. } if *key == name))
        {
            // P&T merges the field into the value an earlier patch set (a label into the
            // labels copied from the XR): one level deep, `merge` says the same.
            let [Seg::Field(field)] = rest else {
                return Err(format!(
                    "a write below `{name}`, which an earlier patch replaced as a whole"
                ));
            };
            let merged = format!(
                "merge({}, {{\n{} = {value}\n}})",
                self.value_of(&name),
                key(field)
            );
            self.ops.push(Op::Set {
                key: name,
                cond,
                value: merged,
            });
            return Ok(());
        }
        match self.fields.iter().position(|f| f.key == name) {
            Some(i) => match &mut self.fields[i].node {
                Node::Obj(child) => child.write(rest, cond, value),
                Node::Arr(arr) => arr.write(rest, cond, value),
                Node::Lit(Json::Null) => {
                    let mut child = Obj::default();
                    child.write(rest, cond, value)?;
                    let field = &mut self.fields[i];
                    field.node = Node::Obj(child);
                    field.created = true;
                    field.null_base = true;
                    self.ops.push(Op::Into { key: name });
                    Ok(())
                }
                Node::Lit(_) => Err(format!(
                    "a write below `{name}`, which the base holds as a value, not an object"
                )),
            },
            None if matches!(rest.first(), Some(Seg::Index(_) | Seg::Wildcard)) => {
                // P&T creates the array; its first element is all it can hold without nulls.
                let mut arr = Arr {
                    base: Json::Array(Vec::new()),
                    items: Vec::new(),
                    writes: Vec::new(),
                    appends: Vec::new(),
                    appended: None,
                };
                arr.write(rest, cond, value).map_err(|_| {
                    format!(
                        "a write into an array `{name}` the base does not have, past its first element (P&T pads it with nulls)"
                    )
                })?;
                self.fields.push(Field {
                    key: name.clone(),
                    node: Node::Arr(arr),
                    created: true,
                    null_base: false,
                });
                self.ops.push(Op::Into { key: name });
                Ok(())
            }
            None => {
                let mut child = Obj::default();
                child.write(rest, cond, value)?;
                self.fields.push(Field {
                    key: name.clone(),
                    node: Node::Obj(child),
                    created: true,
                    null_base: false,
                });
                self.ops.push(Op::Into { key: name });
                Ok(())
            }
        }
    }

    /// The value of `name` after the writes so far (`{}` where it has none): the base, then
    /// each write in order, a conditional one only when its condition holds.
    fn value_of(&self, name: &str) -> String {
        let mut expr = match self.fields.iter().find(|f| f.key == name) {
            Some(f) if !f.created => render_node(&f.node, &[]),
            _ => "{}".to_string(),
        };
        for op in &self.ops {
            let (cond, value) = match op {
                Op::Set { key, cond, value } if key == name => (cond.clone(), value.clone()),
                Op::Into { key } if key == name => match self.field(name) {
                    Some(Node::Obj(child)) => (child.presence(), child.render()),
                    Some(Node::Arr(arr)) => (arr.presence(), arr.render(&[])),
                    _ => continue,
                },
                Op::Set { .. } | Op::Into { .. } => continue,
            };
            expr = match cond {
                None => value,
                Some(c) => format!("{c} ? {value} : {expr}"),
            };
        }
        expr
    }

    /// Whether any write was recorded.
    pub fn has_writes(&self) -> bool {
        !self.ops.is_empty()
    }

    /// When this object holds anything: `None` when always (a base object always exists).
    fn presence(&self) -> Cond {
        let mut any = Vec::new();
        for op in &self.ops {
            let cond = match op {
                Op::Set { cond, .. } => cond.clone(),
                Op::Into { key } => match self.field(key) {
                    Some(Node::Obj(child)) => child.presence(),
                    Some(Node::Arr(arr)) => arr.presence(),
                    _ => None,
                },
            };
            match cond {
                None => return None,
                Some(c) => any.push(c),
            }
        }
        Some(or(&any))
    }

    fn field(&self, name: &str) -> Option<&Node> {
        self.fields.iter().find(|f| f.key == name).map(|f| &f.node)
    }

    /// The HCL expression of this object as the writes leave it.
    pub fn render(&self) -> String {
        self.render_within(&[])
    }

    /// [`Obj::render`] inside guards that hold the conditions `known`: a write under one of
    /// them is unconditional here.
    fn render_within(&self, known: &[String]) -> String {
        let settle = |cond: &Cond| cond.clone().filter(|c| !known.contains(c));
        // Per key, the layers in order: the base value, then each write. The last
        // unconditional layer is the literal's entry; the conditional ones after it overlay
        // it, in patch order (writes to different keys commute).
        let mut literal_entries: Vec<(String, String)> = Vec::new();
        let mut overlays: Vec<(usize, String)> = Vec::new();
        let mut keys: Vec<&str> = Vec::new();
        for f in &self.fields {
            keys.push(&f.key);
        }
        for op in &self.ops {
            if let Op::Set { key, .. } = op
                && !keys.contains(&key.as_str())
            {
                keys.push(key);
            }
        }
        for name in keys {
            let mut layers: Vec<(usize, Cond, String)> = Vec::new();
            if let Some(f) = self.fields.iter().find(|f| f.key == name) {
                if f.null_base {
                    layers.push((0, None, "null".into()));
                } else if !f.created {
                    layers.push((0, None, render_node(&f.node, known)));
                }
            }
            for (i, op) in self.ops.iter().enumerate() {
                match op {
                    Op::Set { key, cond, value } if key == name => {
                        layers.push((i + 1, settle(cond), value.clone()));
                    }
                    Op::Into { key } if key == name => match self.field(name) {
                        Some(Node::Obj(child)) => {
                            let presence = settle(&child.presence());
                            let mut inner = known.to_vec();
                            inner.extend(presence.clone());
                            layers.push((i + 1, presence, child.render_within(&inner)));
                        }
                        Some(Node::Arr(arr)) => {
                            let presence = settle(&arr.presence());
                            let mut inner = known.to_vec();
                            inner.extend(presence.clone());
                            layers.push((i + 1, presence, arr.render(&inner)));
                        }
                        _ => {}
                    },
                    Op::Set { .. } | Op::Into { .. } => {}
                }
            }
            let start = layers.iter().rposition(|(_, c, _)| c.is_none());
            if let Some(s) = start {
                literal_entries.push((name.to_string(), layers[s].2.clone()));
            }
            for (order, cond, value) in layers.into_iter().skip(start.map_or(0, |s| s + 1)) {
                let cond = cond.unwrap_or_default();
                overlays.push((
                    order,
                    format!("{cond} ? {{\n{} = {value}\n}} : null", key(name)),
                ));
            }
        }
        overlays.sort_by_key(|(order, _)| *order);
        let literal = object_text(&literal_entries);
        if overlays.is_empty() {
            return literal;
        }
        let mut args = Vec::new();
        if !literal_entries.is_empty() {
            args.push(literal);
        }
        args.extend(overlays.into_iter().map(|(_, o)| o));
        format!("merge(\n{},\n)", args.join(",\n"))
    }
}

impl Arr {
    fn write(&mut self, path: &[Seg], cond: Cond, value: String) -> Result<(), String> {
        let (i, rest) = match path.split_first() {
            Some((Seg::Index(i), rest)) => (*i, rest),
            Some((Seg::Wildcard, _)) => return Err("a `[*]` wildcard in `toFieldPath`".into()),
            _ => return Err("a field name where the base has an array".into()),
        };
        let len = self.items.len();
        if rest.is_empty() {
            if i < len {
                self.writes.push((i, cond, value));
            } else if i == len && self.appended.is_none() {
                self.appends.push((cond, value));
            } else {
                return Err(format!(
                    "a write of element {i} of an array of {len} (P&T pads it with nulls)"
                ));
            }
            return Ok(());
        }
        if self.writes.iter().any(|(w, _, _)| *w == i) {
            return Err(format!(
                "a write below element {i}, which an earlier patch replaced as a whole"
            ));
        }
        if i == len && self.appends.is_empty() && matches!(rest.first(), Some(Seg::Field(_))) {
            return self
                .appended
                .get_or_insert_with(Obj::default)
                .write(rest, cond, value);
        }
        match self.items.get_mut(i) {
            Some(Node::Obj(child)) => child.write(rest, cond, value),
            Some(Node::Arr(inner)) => inner.write(rest, cond, value),
            _ => Err(format!(
                "a write below element {i} of an array, which the base does not hold as an object"
            )),
        }
    }

    fn changed(&self) -> bool {
        !self.writes.is_empty()
            || !self.appends.is_empty()
            || self.appended.is_some()
            || self.items.iter().any(changed)
    }

    /// When a created array holds anything (`None`: always).
    fn presence(&self) -> Cond {
        let mut any = Vec::new();
        let conds = self
            .writes
            .iter()
            .map(|(_, c, _)| c.clone())
            .chain(self.appends.iter().map(|(c, _)| c.clone()))
            .chain(self.appended.iter().map(Obj::presence));
        for c in conds {
            match c {
                None => return None,
                Some(c) => any.push(c),
            }
        }
        Some(or(&any))
    }

    /// The array: each element with its writes (`COND ? NEW : OLD`: both are of the
    /// element's type in every Composition seen, so the conditional's type unification changes
    /// nothing), then the appended element when its write happens.
    fn render(&self, known: &[String]) -> String {
        if !self.changed() {
            return literal(&self.base);
        }
        let mut parts = Vec::new();
        for (i, item) in self.items.iter().enumerate() {
            let mut expr = render_node(item, known);
            for (_, cond, value) in self.writes.iter().filter(|(w, _, _)| *w == i) {
                expr = match cond.clone().filter(|c| !known.contains(c)) {
                    None => value.clone(),
                    Some(c) => format!("{c} ? {value} : {expr}"),
                };
            }
            parts.push(expr);
        }
        let list = if parts.is_empty() {
            "[]".to_string()
        } else {
            format!("[\n{},\n]", parts.join(",\n"))
        };
        if let Some(obj) = &self.appended {
            let presence = obj.presence().filter(|c| !known.contains(c));
            let mut inner = known.to_vec();
            inner.extend(presence.clone());
            let element = obj.render_within(&inner);
            let extra = match presence {
                None => format!("[{element}]"),
                Some(c) => format!("{c} ? [{element}] : []"),
            };
            return if parts.is_empty() {
                extra
            } else {
                format!("concat({list}, {extra})")
            };
        }
        if self.appends.is_empty() {
            return list;
        }
        let mut extra = "[]".to_string();
        for (cond, value) in &self.appends {
            extra = match cond.clone().filter(|c| !known.contains(c)) {
                None => format!("[{value}]"),
                Some(c) => format!("{c} ? [{value}] : {extra}"),
            };
        }
        if parts.is_empty() {
            return extra;
        }
        format!("concat({list}, {extra})")
    }
}

fn node(value: &Json) -> Node {
    match value {
        Json::Object(fields) => Node::Obj(Obj {
            fields: fields
                .iter()
                .map(|(k, v)| Field {
                    key: k.clone(),
                    node: node(v),
                    created: false,
                    null_base: false,
                })
                .collect(),
            ops: Vec::new(),
        }),
        Json::Array(items) => Node::Arr(Arr {
            base: value.clone(),
            items: items.iter().map(node).collect(),
            writes: Vec::new(),
            appends: Vec::new(),
            appended: None,
        }),
        other => Node::Lit(other.clone()),
    }
}

/// Whether a write reached `node` or anything below it.
fn changed(node: &Node) -> bool {
    match node {
        Node::Obj(o) => o.has_writes() || o.fields.iter().any(|f| changed(&f.node)),
        Node::Arr(a) => a.changed(),
        Node::Lit(_) => false,
    }
}

fn render_node(node: &Node, known: &[String]) -> String {
    match node {
        Node::Obj(obj) => obj.render_within(known),
        Node::Arr(arr) => arr.render(known),
        Node::Lit(value) => literal(value),
    }
}

fn object_text(entries: &[(String, String)]) -> String {
    if entries.is_empty() {
        return "{}".into();
    }
    let lines: Vec<String> = entries
        .iter()
        .map(|(k, v)| format!("{} = {v}", key(k)))
        .collect();
    format!("{{\n{}\n}}", lines.join("\n"))
}

/// `a || b || …`, each operand parenthesised when it has operators of its own.
pub fn or(conds: &[String]) -> String {
    join_conds(conds, " || ")
}

/// `a && b && …`.
pub fn and(conds: &[String]) -> String {
    join_conds(conds, " && ")
}

fn join_conds(conds: &[String], op: &str) -> String {
    let mut seen: Vec<&String> = Vec::new();
    for c in conds {
        if !seen.contains(&c) {
            seen.push(c);
        }
    }
    if seen.len() == 1 {
        return seen[0].clone();
    }
    seen.iter()
        .map(|c| {
            if c.contains(" ? ") || (op == " && " && c.contains(" || ")) {
                format!("({c})")
            } else {
                c.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join(op)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::convert::hcl::parse_path;
    use serde_json::json;

    fn flat(s: &str) -> String {
        s.split_whitespace().collect::<Vec<_>>().join(" ")
    }

    #[test]
    fn a_conditional_write_merges_at_the_deepest_base_object() {
        let mut obj =
            Obj::from_json(&json!({"spec": {"forProvider": {"acl": "private"}}})).unwrap();
        let path = parse_path("spec.forProvider.tags.env").unwrap();
        obj.write(&path, Some("can(xr.a)".into()), "xr.a".into())
            .unwrap();
        let path = parse_path("spec.forProvider.tags.team").unwrap();
        obj.write(&path, Some("can(xr.b)".into()), "xr.b".into())
            .unwrap();
        assert_eq!(
            flat(&obj.render()),
            "{ spec = { forProvider = merge( { acl = \"private\" }, (can(xr.a) || can(xr.b)) ? \
             { tags = merge( can(xr.a) ? { env = xr.a } : null, can(xr.b) ? { team = xr.b } : null, ) } \
             : null, ) } }"
                .replace("(can(xr.a) || can(xr.b))", "can(xr.a) || can(xr.b)")
        );
    }

    #[test]
    fn the_last_unconditional_write_is_the_literal() {
        let mut obj = Obj::from_json(&json!({"a": 1})).unwrap();
        obj.write(&[Seg::Field("a".into())], Some("c1".into()), "2".into())
            .unwrap();
        obj.write(&[Seg::Field("a".into())], None, "3".into())
            .unwrap();
        obj.write(&[Seg::Field("a".into())], Some("c2".into()), "4".into())
            .unwrap();
        assert_eq!(
            flat(&obj.render()),
            "merge( { a = 3 }, c2 ? { a = 4 } : null, )"
        );
    }
}

#[cfg(test)]
mod array_tests {
    use super::*;
    use crate::convert::hcl::parse_path;
    use serde_json::json;

    fn flat(s: &str) -> String {
        s.split_whitespace().collect::<Vec<_>>().join(" ")
    }

    #[test]
    fn an_array_the_base_lacks_gets_its_first_element() {
        let mut obj = Obj::from_json(&json!({"git": {"repoURL": "x"}})).unwrap();
        let path = parse_path("git.files[0].path").unwrap();
        obj.write(&path, Some("can(xr.p)".into()), "xr.p".into())
            .unwrap();
        assert_eq!(
            flat(&obj.render()),
            "{ git = merge( { repoURL = \"x\" }, can(xr.p) ? { files = [{ path = xr.p }] } : null, ) }"
        );
        let past = parse_path("git.files[1].path").unwrap();
        assert!(obj.write(&past, None, "1".into()).is_err());
    }

    #[test]
    fn an_element_of_a_base_array_is_replaced_or_appended() {
        let mut obj = Obj::from_json(&json!({"a": ["x"]})).unwrap();
        obj.write(&parse_path("a[0]").unwrap(), Some("c".into()), "v".into())
            .unwrap();
        obj.write(&parse_path("a[1]").unwrap(), Some("d".into()), "w".into())
            .unwrap();
        assert_eq!(
            flat(&obj.render()),
            "{ a = concat([ c ? v : \"x\", ], d ? [w] : []) }"
        );
    }
}

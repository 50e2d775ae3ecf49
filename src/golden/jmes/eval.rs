//! Evaluates an expression's tree over a JSON value. Values are borrowed from the input where
//! they can be; every step and every copied node is paid for from a [`Budget`], so an
//! expression that multiplies its data (`[@, @] | [@, @] | …`) ends with an error instead of
//! exhausting memory or time.

use super::functions::{self, arity, bad_type, sortable};
use super::parse::{Arith, Ast, Cmp};
use super::value::{equal, from_f64, number, order, truthy, type_name, weight};
use serde_json::{Map, Value as Json};
use std::borrow::Cow;
use std::cmp::Ordering;

/// The work an evaluation may do: one unit per step, one per node copied.
#[derive(Clone, Debug)]
pub struct Budget {
    left: u64,
}

impl Budget {
    /// A budget of `units`.
    pub fn new(units: u64) -> Budget {
        Budget { left: units }
    }

    fn pay(&mut self, units: u64) -> Result<(), String> {
        if units > self.left {
            self.left = 0;
            return Err("the evaluation budget of assertion expressions is exhausted".into());
        }
        self.left -= units;
        Ok(())
    }
}

static NULL: Json = Json::Null;

/// One evaluation: the root value, the bindings and the budget.
pub struct Run<'d, 'b> {
    /// What `$` is.
    pub root: &'d Json,
    /// `$name` bindings, the last of a name winning.
    pub bindings: &'d [(String, Json)],
    /// What is left to spend.
    pub budget: &'b mut Budget,
}

type Out<'a> = Result<Cow<'a, Json>, String>;

impl<'d> Run<'d, '_> {
    /// A value owned, paying for the copy when it was borrowed.
    fn own(&mut self, value: Cow<'_, Json>) -> Result<Json, String> {
        match value {
            Cow::Owned(value) => Ok(value),
            Cow::Borrowed(value) => {
                self.budget.pay(weight(value, self.budget.left))?;
                Ok(value.clone())
            }
        }
    }

    /// `ast` over `current`.
    pub fn eval<'a>(&mut self, ast: &'a Ast, current: &'a Json) -> Out<'a>
    where
        'd: 'a,
    {
        self.budget.pay(1)?;
        match ast {
            Ast::Current => Ok(Cow::Borrowed(current)),
            Ast::Root => Ok(Cow::Borrowed(self.root)),
            Ast::Variable(name) => self
                .bindings
                .iter()
                .rev()
                .find(|(n, _)| n == name)
                .map(|(_, value)| Cow::Borrowed(value))
                .ok_or_else(|| format!("variable not defined: ${name}")),
            Ast::Field(name) => Ok(Cow::Borrowed(
                current
                    .as_object()
                    .and_then(|fields| fields.get(name))
                    .unwrap_or(&NULL),
            )),
            Ast::Sub(left, right) | Ast::Pipe(left, right) => match self.eval(left, current)? {
                Cow::Borrowed(value) => self.eval(right, value),
                Cow::Owned(value) => {
                    let result = self.eval(right, &value)?;
                    Ok(Cow::Owned(self.own(result)?))
                }
            },
            Ast::Index(index) => {
                let Json::Array(items) = current else {
                    return Ok(Cow::Borrowed(&NULL));
                };
                let len = items.len() as i64;
                let at = if *index < 0 { len + index } else { *index };
                Ok(Cow::Borrowed(
                    usize::try_from(at)
                        .ok()
                        .and_then(|i| items.get(i))
                        .unwrap_or(&NULL),
                ))
            }
            Ast::Slice(start, stop, step) => {
                let Json::Array(items) = current else {
                    return Ok(Cow::Borrowed(&NULL));
                };
                let picked: Vec<&Json> = slice(items, *start, *stop, *step)?;
                let mut out = Vec::with_capacity(picked.len());
                for item in picked {
                    out.push(self.own(Cow::Borrowed(item))?);
                }
                Ok(Cow::Owned(Json::Array(out)))
            }
            Ast::Project(left, right) => {
                let base = self.eval(left, current)?;
                let Json::Array(items) = &*base else {
                    return Ok(Cow::Borrowed(&NULL));
                };
                let mut out = Vec::new();
                for item in items {
                    let value = self.eval(right, item)?;
                    if !value.is_null() {
                        out.push(self.own(value)?);
                    }
                }
                Ok(Cow::Owned(Json::Array(out)))
            }
            Ast::ValueProject(left, right) => {
                let base = self.eval(left, current)?;
                let Json::Object(fields) = &*base else {
                    return Ok(Cow::Borrowed(&NULL));
                };
                let mut out = Vec::new();
                for item in fields.values() {
                    let value = self.eval(right, item)?;
                    if !value.is_null() {
                        out.push(self.own(value)?);
                    }
                }
                Ok(Cow::Owned(Json::Array(out)))
            }
            Ast::Filter(left, right, condition) => {
                let base = self.eval(left, current)?;
                let Json::Array(items) = &*base else {
                    return Ok(Cow::Borrowed(&NULL));
                };
                let mut out = Vec::new();
                for item in items {
                    if !truthy(&*self.eval(condition, item)?) {
                        continue;
                    }
                    let value = self.eval(right, item)?;
                    if !value.is_null() {
                        out.push(self.own(value)?);
                    }
                }
                Ok(Cow::Owned(Json::Array(out)))
            }
            Ast::Flatten(inner) => {
                let base = self.eval(inner, current)?;
                let Json::Array(items) = &*base else {
                    return Ok(Cow::Borrowed(&NULL));
                };
                let mut out = Vec::new();
                for item in items {
                    match item {
                        Json::Array(inner) => {
                            for item in inner {
                                out.push(self.own(Cow::Borrowed(item))?);
                            }
                        }
                        item => out.push(self.own(Cow::Borrowed(item))?),
                    }
                }
                Ok(Cow::Owned(Json::Array(out)))
            }
            Ast::Compare(op, left, right) => {
                let (a, b) = (self.eval(left, current)?, self.eval(right, current)?);
                Ok(Cow::Owned(compare(*op, &a, &b)))
            }
            Ast::Arith(op, left, right) => {
                let (a, b) = (self.eval(left, current)?, self.eval(right, current)?);
                arithmetic(*op, &a, &b).map(Cow::Owned)
            }
            Ast::Negate(inner) => {
                let value = self.eval(inner, current)?;
                let n = number(&value).ok_or_else(|| {
                    format!(
                        "invalid type: `-` needs a number, got {}",
                        type_name(&value)
                    )
                })?;
                Ok(Cow::Owned(from_f64(-n)))
            }
            Ast::Or(left, right) => {
                let a = self.eval(left, current)?;
                if truthy(&a) {
                    return Ok(a);
                }
                self.eval(right, current)
            }
            Ast::And(left, right) => {
                let a = self.eval(left, current)?;
                if !truthy(&a) {
                    return Ok(a);
                }
                self.eval(right, current)
            }
            Ast::Not(inner) => {
                let value = self.eval(inner, current)?;
                Ok(Cow::Owned(Json::Bool(!truthy(&value))))
            }
            Ast::Literal(value) => Ok(Cow::Borrowed(value)),
            Ast::List(items) => {
                if current.is_null() {
                    return Ok(Cow::Borrowed(&NULL));
                }
                let mut out = Vec::with_capacity(items.len());
                for item in items {
                    let value = self.eval(item, current)?;
                    out.push(self.own(value)?);
                }
                Ok(Cow::Owned(Json::Array(out)))
            }
            Ast::Hash(fields) => {
                if current.is_null() {
                    return Ok(Cow::Borrowed(&NULL));
                }
                let mut out = Map::new();
                for (key, item) in fields {
                    let value = self.eval(item, current)?;
                    out.insert(key.clone(), self.own(value)?);
                }
                Ok(Cow::Owned(Json::Object(out)))
            }
            Ast::Call(name, args) => self.call(name, args, current).map(Cow::Owned),
            Ast::Ref(_) => Err("an `&expression` is only an argument of a function".into()),
        }
    }

    fn call(&mut self, name: &str, args: &[Ast], current: &Json) -> Result<Json, String> {
        match name {
            "sort_by" | "max_by" | "min_by" => {
                arity(name, args.len(), 2, false)?;
                let list = self.eval(&args[0], current)?;
                let Json::Array(items) = &*list else {
                    return Err(bad_type(name, 0, "an array", &list));
                };
                let key = reference(name, &args[1], 1)?;
                let mut keyed = Vec::with_capacity(items.len());
                for item in items {
                    let value = self.eval(key, item)?;
                    if !(value.is_number() || value.is_string()) {
                        return Err(format!(
                            "invalid type: the expression of {name}() must give a number or a string, got {}",
                            type_name(&value)
                        ));
                    }
                    keyed.push((self.own(value)?, item));
                }
                let keys: Vec<Json> = keyed.iter().map(|(k, _)| k.clone()).collect();
                if !sortable(&keys) {
                    return Err(format!(
                        "invalid type: the expression of {name}() must give only numbers or only strings"
                    ));
                }
                let by = |a: &(Json, &Json), b: &(Json, &Json)| {
                    order(&a.0, &b.0).unwrap_or(Ordering::Equal)
                };
                let picked = match name {
                    "sort_by" => {
                        keyed.sort_by(by);
                        let mut out = Vec::with_capacity(keyed.len());
                        for (_, item) in keyed {
                            out.push(self.own(Cow::Borrowed(item))?);
                        }
                        return Ok(Json::Array(out));
                    }
                    "max_by" => keyed
                        .iter()
                        .fold(None::<&(Json, &Json)>, |best, k| match best {
                            Some(b) if by(k, b) != Ordering::Greater => Some(b),
                            _ => Some(k),
                        }),
                    _ => keyed
                        .iter()
                        .fold(None::<&(Json, &Json)>, |best, k| match best {
                            Some(b) if by(k, b) != Ordering::Less => Some(b),
                            _ => Some(k),
                        }),
                };
                match picked {
                    Some((_, item)) => self.own(Cow::Borrowed(*item)),
                    None => Ok(Json::Null),
                }
            }
            "map" => {
                arity(name, args.len(), 2, false)?;
                let key = reference(name, &args[0], 0)?;
                let list = self.eval(&args[1], current)?;
                let Json::Array(items) = &*list else {
                    return Err(bad_type(name, 1, "an array", &list));
                };
                let mut out = Vec::with_capacity(items.len());
                for item in items {
                    let value = self.eval(key, item)?;
                    out.push(self.own(value)?);
                }
                Ok(Json::Array(out))
            }
            _ => {
                if !functions::NAMES.contains(&name) {
                    return Err(functions::unknown(name));
                }
                let mut values = Vec::with_capacity(args.len());
                for (i, arg) in args.iter().enumerate() {
                    if matches!(arg, Ast::Ref(_)) {
                        return Err(format!(
                            "invalid type: argument {} of {name}() is an `&expression`",
                            i + 1
                        ));
                    }
                    let value = self.eval(arg, current)?;
                    values.push(self.own(value)?);
                }
                let result = functions::call(name, &values)?;
                self.budget.pay(weight(&result, self.budget.left))?;
                Ok(result)
            }
        }
    }
}

/// The expression of an `&expression` argument.
fn reference<'a>(name: &str, arg: &'a Ast, position: usize) -> Result<&'a Ast, String> {
    match arg {
        Ast::Ref(inner) => Ok(inner),
        _ => Err(format!(
            "invalid type: argument {} of {name}() must be an `&expression`",
            position + 1
        )),
    }
}

/// `a OP b`: equality for any values, order for numbers only (null otherwise).
fn compare(op: Cmp, a: &Json, b: &Json) -> Json {
    let ordered = |wanted: fn(Ordering) -> bool| match (number(a), number(b)) {
        (Some(x), Some(y)) => x
            .partial_cmp(&y)
            .map_or(Json::Null, |o| Json::Bool(wanted(o))),
        _ => Json::Null,
    };
    match op {
        Cmp::Eq => Json::Bool(equal(a, b)),
        Cmp::Ne => Json::Bool(!equal(a, b)),
        Cmp::Lt => ordered(Ordering::is_lt),
        Cmp::Le => ordered(Ordering::is_le),
        Cmp::Gt => ordered(Ordering::is_gt),
        Cmp::Ge => ordered(Ordering::is_ge),
    }
}

/// `a OP b` on numbers.
fn arithmetic(op: Arith, a: &Json, b: &Json) -> Result<Json, String> {
    let (Some(x), Some(y)) = (number(a), number(b)) else {
        return Err(format!(
            "invalid type: arithmetic needs numbers, got {} and {}",
            type_name(a),
            type_name(b)
        ));
    };
    if matches!(op, Arith::Div | Arith::Rem | Arith::FloorDiv) && y == 0.0 {
        return Err("invalid value: division by zero".into());
    }
    Ok(from_f64(match op {
        Arith::Add => x + y,
        Arith::Sub => x - y,
        Arith::Mul => x * y,
        Arith::Div => x / y,
        Arith::Rem => x % y,
        Arith::FloorDiv => (x / y).floor(),
    }))
}

/// The items `[start:stop:step]` picks, as Python slices pick them.
fn slice(
    items: &[Json],
    start: Option<i64>,
    stop: Option<i64>,
    step: Option<i64>,
) -> Result<Vec<&Json>, String> {
    let step = step.unwrap_or(1);
    if step == 0 {
        return Err("invalid value: a slice's step cannot be 0".into());
    }
    let len = items.len() as i64;
    let clamp = |value: Option<i64>, default: i64| -> i64 {
        match value {
            None => default,
            Some(v) if v < 0 => {
                let v = v + len;
                if v < 0 {
                    if step < 0 { -1 } else { 0 }
                } else {
                    v
                }
            }
            Some(v) if v >= len => {
                if step < 0 {
                    len - 1
                } else {
                    len
                }
            }
            Some(v) => v,
        }
    };
    let (start, stop) = if step > 0 {
        (clamp(start, 0), clamp(stop, len))
    } else {
        (clamp(start, len - 1), clamp(stop, -1))
    };
    let mut out = Vec::new();
    let mut i = start;
    while (step > 0 && i < stop) || (step < 0 && i > stop) {
        if let Some(item) = usize::try_from(i).ok().and_then(|i| items.get(i)) {
            out.push(item);
        }
        match i.checked_add(step) {
            Some(next) => i = next,
            None => break,
        }
    }
    Ok(out)
}

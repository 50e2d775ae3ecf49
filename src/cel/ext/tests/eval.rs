//! A small test-only evaluator: runs test expressions against this module's functions,
//! with just enough of the standard library (`==`, `&&`, `+`, `size`, `double()`,
//! `timestamp()`, …) to state them. It honours `Overload::guarded` (calls unguarded
//! overloads with any arguments, as cel-go), which the interpreter does not yet: the
//! rows that depend on it run here.

use crate::cel::ast::{Expr, ExprKind, Literal};
use crate::cel::env::{Env, Function, Overload};
use crate::cel::types::Type;
use crate::cel::value::{Duration, Error, Key, Timestamp, Value, lookup};
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

/// Parses and evaluates `text` with the ext functions and `vars`.
pub fn eval(text: &str, vars: &HashMap<String, Value>) -> Result<Value, Error> {
    let ast = crate::cel::parser::parse(text).map_err(|e| Error::new(e.to_string()))?;
    let mut env = Env::new();
    env.declare(super::super::functions());
    let mut scope: Vec<(String, Value)> =
        vars.iter().map(|(k, v)| (k.clone(), v.clone())).collect();
    Evaluator { env: &env }.eval(&ast.expr, &mut scope)
}

struct Evaluator<'a> {
    env: &'a Env,
}

fn bool_of(v: &Value) -> Result<bool, Error> {
    match v {
        Value::Bool(b) => Ok(*b),
        _ => Err(Error::no_such_overload()),
    }
}

/// The dotted name an expression spells (`strings.quote`), if it is one.
fn qualified(e: &Expr) -> Option<String> {
    match &e.kind {
        ExprKind::Ident(n) => Some(n.clone()),
        ExprKind::Select {
            operand,
            field,
            test_only: false,
        } => qualified(operand).map(|q| format!("{q}.{field}")),
        _ => None,
    }
}

fn type_matches(t: &Type, v: &Value) -> bool {
    match (t, v) {
        (Type::Dyn | Type::Param(_), _) => true,
        (Type::Opaque(name, _), Value::Optional(_)) => &**name == crate::cel::types::OPTIONAL,
        (Type::List(_), Value::List(_)) | (Type::Map(_, _), Value::Map(_)) => true,
        _ => v.type_of() == *t,
    }
}

fn pick<'f>(f: &'f Function, member: bool, args: &[Value]) -> Option<&'f Overload> {
    f.overloads.iter().find(|o| {
        o.member == member
            && o.params.len() == args.len()
            && (!o.guarded || o.params.iter().zip(args).all(|(t, v)| type_matches(t, v)))
            && o.imp.is_some()
    })
}

fn parse_go_duration(s: &str) -> Option<i64> {
    let mut total: i64 = 0;
    let mut rest = s;
    while !rest.is_empty() {
        let n = rest.find(|c: char| !c.is_ascii_digit())?;
        let num: i64 = rest[..n].parse().ok()?;
        rest = &rest[n..];
        let (unit, len) = if rest.starts_with("ms") {
            (1_000_000, 2)
        } else if rest.starts_with("us") {
            (1_000, 2)
        } else if rest.starts_with("ns") {
            (1, 2)
        } else if rest.starts_with('h') {
            (3_600_000_000_000, 1)
        } else if rest.starts_with('m') {
            (60_000_000_000, 1)
        } else if rest.starts_with('s') {
            (1_000_000_000, 1)
        } else {
            return None;
        };
        total += num * unit;
        rest = &rest[len..];
    }
    Some(total)
}

fn parse_timestamp(s: &str) -> Option<Timestamp> {
    let dt = time::OffsetDateTime::parse(s, &time::format_description::well_known::Rfc3339).ok()?;
    Some(Timestamp::new(dt.unix_timestamp(), dt.nanosecond()))
}

impl Evaluator<'_> {
    fn eval(&self, e: &Expr, scope: &mut Vec<(String, Value)>) -> Result<Value, Error> {
        match &e.kind {
            ExprKind::Literal(l) => Ok(match l {
                Literal::Null => Value::Null,
                Literal::Bool(b) => Value::Bool(*b),
                Literal::Int(i) => Value::Int(*i),
                Literal::Uint(u) => Value::Uint(*u),
                Literal::Double(d) => Value::Double(*d),
                Literal::String(s) => Value::String(s.clone()),
                Literal::Bytes(b) => Value::Bytes(b.clone()),
            }),
            ExprKind::Ident(name) => {
                if let Some((_, v)) = scope.iter().rev().find(|(n, _)| n == name) {
                    return Ok(v.clone());
                }
                Ok(Value::Type(match name.as_str() {
                    "int" => Type::Int,
                    "uint" => Type::Uint,
                    "double" => Type::Double,
                    "string" => Type::String,
                    "bytes" => Type::Bytes,
                    "bool" => Type::Bool,
                    "list" => Type::list(Type::Dyn),
                    "map" => Type::map(Type::Dyn, Type::Dyn),
                    "null_type" => Type::Null,
                    "optional_type" => Type::optional(Type::Dyn),
                    "type" => Type::type_of(Type::Dyn),
                    _ => return Err(Error::new(format!("no such attribute: {name}"))),
                }))
            }
            ExprKind::Select {
                operand,
                field,
                test_only,
            } => {
                let v = self.eval(operand, scope)?;
                let Value::Map(m) = v else {
                    return Err(Error::no_such_overload());
                };
                let found = lookup(&m.entries, &Key::String(field.as_str().into()));
                if *test_only {
                    return Ok(Value::Bool(found.is_some()));
                }
                found
                    .cloned()
                    .ok_or_else(|| Error::new(format!("no such key: {field}")))
            }
            ExprKind::List {
                elements,
                optional_indices,
            } => {
                let mut out = Vec::new();
                for (i, el) in elements.iter().enumerate() {
                    let v = self.eval(el, scope)?;
                    if optional_indices.contains(&i) {
                        if let Value::Optional(Some(x)) = v {
                            out.push((*x).clone());
                        }
                    } else {
                        out.push(v);
                    }
                }
                Ok(Value::list(out))
            }
            ExprKind::Map { entries } => {
                let mut m = BTreeMap::new();
                for en in entries {
                    let k = self.eval(&en.key, scope)?;
                    let v = self.eval(&en.value, scope)?;
                    let key = k
                        .as_key()
                        .ok_or_else(|| Error::new("unsupported key type"))?;
                    if en.optional {
                        if let Value::Optional(Some(x)) = v {
                            m.insert(key, (*x).clone());
                        }
                    } else {
                        m.insert(key, v);
                    }
                }
                Ok(Value::map(m))
            }
            ExprKind::Struct { .. } => Err(Error::new("structs unsupported")),
            ExprKind::Comprehension(c) => {
                let range = self.eval(&c.iter_range, scope)?;
                let items: Vec<(Value, Value)> = match &range {
                    Value::List(l) => l
                        .items
                        .iter()
                        .enumerate()
                        .map(|(i, v)| (Value::Int(i as i64), v.clone()))
                        .collect(),
                    Value::Map(m) => m
                        .entries
                        .iter()
                        .map(|(k, v)| (Value::from(k.clone()), v.clone()))
                        .collect(),
                    _ => return Err(Error::no_such_overload()),
                };
                let accu = self.eval(&c.accu_init, scope)?;
                scope.push((c.accu_var.clone(), accu));
                let base = scope.len();
                for (k, v) in items {
                    match &c.iter_var2 {
                        Some(v2) => {
                            scope.push((c.iter_var.clone(), k));
                            scope.push((v2.clone(), v));
                        }
                        None => {
                            let first = if matches!(range, Value::List(_)) {
                                v
                            } else {
                                k
                            };
                            scope.push((c.iter_var.clone(), first));
                        }
                    }
                    let cond = self.eval(&c.loop_cond, scope);
                    if !matches!(cond, Ok(Value::Bool(true))) {
                        scope.truncate(base);
                        break;
                    }
                    let next = self.eval(&c.loop_step, scope);
                    scope.truncate(base);
                    scope[base - 1].1 = next?;
                }
                let r = self.eval(&c.result, scope);
                scope.truncate(base - 1);
                r
            }
            ExprKind::Call {
                target,
                function,
                args,
            } => self.call(target.as_deref(), function, args, scope),
        }
    }

    fn call(
        &self,
        target: Option<&Expr>,
        function: &str,
        args: &[Expr],
        scope: &mut Vec<(String, Value)>,
    ) -> Result<Value, Error> {
        match function {
            "_&&_" | "_||_" => {
                let a = self.eval(&args[0], scope).and_then(|v| bool_of(&v));
                let b = self.eval(&args[1], scope).and_then(|v| bool_of(&v));
                let and = function == "_&&_";
                return match (a, b) {
                    (Ok(x), _) if x != and => Ok(Value::Bool(x)),
                    (_, Ok(y)) if y != and => Ok(Value::Bool(y)),
                    (Ok(_), Ok(_)) => Ok(Value::Bool(and)),
                    (Err(e), _) | (_, Err(e)) => Err(e),
                };
            }
            "_?_:_" => {
                let c = bool_of(&self.eval(&args[0], scope)?)?;
                return self.eval(&args[if c { 1 } else { 2 }], scope);
            }
            _ => {}
        }
        // a namespaced global function: `strings.quote(x)`, `optional.of(x)`
        if let Some(t) = target
            && let Some(q) = qualified(t)
            && !scope
                .iter()
                .any(|(n, _)| q == *n || q.starts_with(&format!("{n}.")))
        {
            let name = format!("{q}.{function}");
            if self.env.functions.contains_key(&name) {
                return self.call(None, &name, args, scope);
            }
        }
        let mut vals = Vec::new();
        if let Some(t) = target {
            vals.push(self.eval(t, scope)?);
        }
        for a in args {
            vals.push(self.eval(a, scope)?);
        }
        let v = &vals;
        match (function, v.as_slice()) {
            ("_==_", [a, b]) => return Ok(Value::Bool(a.equals(b))),
            ("_!=_", [a, b]) => return Ok(Value::Bool(!a.equals(b))),
            ("!_", [Value::Bool(b)]) => return Ok(Value::Bool(!b)),
            ("-_", [Value::Int(i)]) => return Ok(Value::Int(-i)),
            ("-_", [Value::Double(d)]) => return Ok(Value::Double(-d)),
            ("_<_", [a, b]) => {
                return Ok(Value::Bool(a.compare(b) == Some(std::cmp::Ordering::Less)));
            }
            ("_>_", [a, b]) => {
                return Ok(Value::Bool(
                    a.compare(b) == Some(std::cmp::Ordering::Greater),
                ));
            }
            ("_+_", [Value::Int(a), Value::Int(b)]) => return Ok(Value::Int(a + b)),
            ("_+_", [Value::String(a), Value::String(b)]) => {
                return Ok(Value::string(&format!("{a}{b}")));
            }
            ("_+_", [Value::List(a), Value::List(b)]) => {
                let mut items = a.items.clone();
                items.extend(b.items.iter().cloned());
                return Ok(Value::list(items));
            }
            ("_*_", [Value::Int(a), Value::Int(b)]) => return Ok(Value::Int(a * b)),
            ("_-_", [Value::Int(a), Value::Int(b)]) => return Ok(Value::Int(a - b)),
            ("_[_]", [Value::List(l), Value::Int(i)]) => {
                return l
                    .items
                    .get(*i as usize)
                    .cloned()
                    .ok_or_else(|| Error::new(format!("index out of bounds: {i}")));
            }
            ("_[_]", [Value::Map(m), k]) => {
                let key = k.as_key().ok_or_else(Error::no_such_overload)?;
                return lookup(&m.entries, &key).cloned().ok_or_else(|| {
                    Error::new(format!("no such key: {}", super::super::gofmt::go_v(k)))
                });
            }
            ("size", [Value::List(l)]) => return Ok(Value::Int(l.items.len() as i64)),
            ("size", [Value::String(s)]) => return Ok(Value::Int(s.chars().count() as i64)),
            ("size", [Value::Map(m)]) => return Ok(Value::Int(m.entries.len() as i64)),
            ("dyn", [x]) => return Ok(x.clone()),
            ("type", [Value::Type(_)]) => return Ok(Value::Type(Type::type_of(Type::Dyn))),
            ("type", [x]) => return Ok(Value::Type(x.type_of())),
            ("int", [Value::Int(i)]) => return Ok(Value::Int(*i)),
            ("uint", [Value::Int(i)]) => return Ok(Value::Uint(*i as u64)),
            ("double", [Value::Int(i)]) => return Ok(Value::Double(*i as f64)),
            ("double", [Value::String(s)]) => {
                return Ok(Value::Double(match &**s {
                    "NaN" => f64::NAN,
                    "Inf" | "+Inf" | "Infinity" => f64::INFINITY,
                    "-Inf" | "-Infinity" => f64::NEG_INFINITY,
                    other => other.parse().map_err(|_| Error::new("bad double"))?,
                }));
            }
            ("string", [x]) => {
                return super::super::format::format("%s", std::slice::from_ref(x))
                    .map(|s| Value::string(&s));
            }
            ("bytes", [Value::String(s)]) => return Ok(Value::Bytes(s.as_bytes().into())),
            ("timestamp", [Value::String(s)]) => {
                return parse_timestamp(s)
                    .map(Value::Timestamp)
                    .ok_or_else(|| Error::new("bad timestamp"));
            }
            ("duration", [Value::String(s)]) => {
                return parse_go_duration(s)
                    .map(|nanos| Value::Duration(Duration { nanos }))
                    .ok_or_else(|| Error::new("bad duration"));
            }
            _ => {}
        }
        let f = self
            .env
            .functions
            .get(function)
            .ok_or_else(|| Error::new(format!("undeclared reference to '{function}'")))?;
        let o = pick(f, target.is_some(), v).ok_or_else(Error::no_such_overload)?;
        let imp: &Arc<_> = o.imp.as_ref().ok_or_else(Error::no_such_overload)?;
        imp(v)
    }
}

//! Macro expansion as cel-go v0.26 does it (`parser/macro.go`, `ext/comprehensions.go`,
//! `ext/bindings.go`, `ext/lists.go`, `cel/library.go`): the same comprehensions, helper
//! function names, accumulator names, node numbering (every new node located at the
//! call's `(`) and error messages.

use super::grammar::{Parser, R, call};
use super::{MacroSet, Options};
use crate::cel::ast::{Comprehension, Entry, Expr, ExprKind, Id, Literal};

/// The accumulator name older macros used; refused as an iteration variable too.
const LEGACY_ACCUMULATOR: &str = "__result__";
/// The iteration variable of comprehensions that only bind a variable.
const UNUSED: &str = "#unused";

/// Which expansion a call is: its name, argument count and receiver style.
#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Has,
    All,
    Exists,
    ExistsOne,
    Map,
    Filter,
    All2,
    Exists2,
    ExistsOne2,
    TransformList,
    TransformMap,
    TransformMapEntry,
    Bind,
    OptMap,
    OptFlatMap,
    SortBy,
}

fn find(opts: &Options, function: &str, argc: usize, receiver: bool) -> Option<Kind> {
    let standard = match (function, argc, receiver) {
        ("has", 1, false) => Some(Kind::Has),
        ("all", 2, true) => Some(Kind::All),
        ("exists", 2, true) => Some(Kind::Exists),
        ("exists_one" | "existsOne", 2, true) => Some(Kind::ExistsOne),
        ("map", 2 | 3, true) => Some(Kind::Map),
        ("filter", 2, true) => Some(Kind::Filter),
        _ => None,
    };
    if standard.is_some() || opts.macros != MacroSet::Kubernetes {
        return standard;
    }
    match (function, argc, receiver) {
        ("all", 3, true) => Some(Kind::All2),
        ("exists", 3, true) => Some(Kind::Exists2),
        ("exists_one" | "existsOne", 3, true) => Some(Kind::ExistsOne2),
        ("transformList", 3 | 4, true) => Some(Kind::TransformList),
        ("transformMap", 3 | 4, true) => Some(Kind::TransformMap),
        ("transformMapEntry", 3 | 4, true) => Some(Kind::TransformMapEntry),
        ("bind", 3, true) if opts.bind_macro => Some(Kind::Bind),
        ("optMap", 2, true) => Some(Kind::OptMap),
        ("optFlatMap", 2, true) => Some(Kind::OptFlatMap),
        ("sortBy", 2, true) => Some(Kind::SortBy),
        _ => None,
    }
}

/// A call's receiver and arguments, given back when no macro applies.
type CallParts = (Option<Expr>, Vec<Expr>);

/// A macro's misuse: the node it is reported at, and cel-go's message.
struct MacroError(Id, String);

/// What a macro gives back: its expansion, a misuse, or `None` when it declines the call
/// (`bind` on a receiver other than `cel`).
type Expansion = Result<Option<Expr>, MacroError>;

fn ident_name(e: &Expr) -> Option<&str> {
    match &e.kind {
        ExprKind::Ident(name) => Some(name),
        _ => None,
    }
}

impl Parser<'_> {
    /// Expands the macro `function` names, if any: `Ok(Ok(expansion))` (an error node
    /// after reporting a misuse), or the call's parts back when no macro applies.
    pub(super) fn expand_macro(
        &mut self,
        op: Id,
        function: &str,
        target: Option<Expr>,
        args: Vec<Expr>,
    ) -> R<Result<Expr, CallParts>> {
        let Some(kind) = find(self.opts, function, args.len(), target.is_some()) else {
            return Ok(Err((target, args)));
        };
        if kind == Kind::Bind && target.as_ref().and_then(ident_name) != Some("cel") {
            return Ok(Err((target, args)));
        }
        let record = self
            .opts
            .populate_macro_calls
            .then(|| self.macro_call_record(function, target.as_ref(), &args));
        let offset = self.offsets.get(&op).copied().unwrap_or(0);
        let mut m = Mx { p: self, offset };
        match m.expand(kind, target, args)? {
            Ok(Some(e)) => {
                if let Some(record) = record {
                    self.macro_calls.insert(e.id, record);
                }
                self.delete_id(op);
                Ok(Ok(e))
            }
            // Only `bind` declines, and it was checked above.
            Ok(None) => self
                .report(Some(offset), format!("{function}: macro declined"))
                .map(Ok),
            Err(MacroError(at, message)) => {
                let location = self.offsets.get(&at).copied().unwrap_or(offset);
                self.delete_id(op);
                self.report(Some(location), message).map(Ok)
            }
        }
    }

    /// The call as written, for `macro_calls`: arguments that are themselves macro
    /// expansions are replaced by a reference, an `Ident` with an empty name and the
    /// expansion's id (cel-go uses an unset expression there). cel-go does this only in
    /// call arguments and list elements; doing it everywhere keeps the records linear in
    /// the size of the text.
    fn macro_call_record(&self, function: &str, target: Option<&Expr>, args: &[Expr]) -> Expr {
        let args = args.iter().map(|a| self.macro_arg(a)).collect();
        call(0, function, target.map(|t| self.macro_arg(t)), args)
    }

    fn macro_arg(&self, e: &Expr) -> Expr {
        if self.macro_calls.contains_key(&e.id) {
            return Expr {
                id: e.id,
                kind: ExprKind::Ident(String::new()),
            };
        }
        let kind = match &e.kind {
            ExprKind::Literal(_) | ExprKind::Ident(_) => e.kind.clone(),
            ExprKind::Select {
                operand,
                field,
                test_only,
            } => ExprKind::Select {
                operand: Box::new(self.macro_arg(operand)),
                field: field.clone(),
                test_only: *test_only,
            },
            ExprKind::Call {
                target,
                function,
                args,
            } => ExprKind::Call {
                target: target.as_ref().map(|t| Box::new(self.macro_arg(t))),
                function: function.clone(),
                args: args.iter().map(|a| self.macro_arg(a)).collect(),
            },
            ExprKind::List {
                elements,
                optional_indices,
            } => ExprKind::List {
                elements: elements.iter().map(|a| self.macro_arg(a)).collect(),
                optional_indices: optional_indices.clone(),
            },
            ExprKind::Map { entries } => ExprKind::Map {
                entries: entries.iter().map(|en| self.macro_entry(en)).collect(),
            },
            ExprKind::Struct { type_name, fields } => ExprKind::Struct {
                type_name: type_name.clone(),
                fields: fields.iter().map(|en| self.macro_entry(en)).collect(),
            },
            ExprKind::Comprehension(c) => ExprKind::Comprehension(Box::new(Comprehension {
                iter_var: c.iter_var.clone(),
                iter_var2: c.iter_var2.clone(),
                iter_range: self.macro_arg(&c.iter_range),
                accu_var: c.accu_var.clone(),
                accu_init: self.macro_arg(&c.accu_init),
                loop_cond: self.macro_arg(&c.loop_cond),
                loop_step: self.macro_arg(&c.loop_step),
                result: self.macro_arg(&c.result),
            })),
        };
        Expr { id: e.id, kind }
    }

    fn macro_entry(&self, en: &Entry) -> Entry {
        Entry {
            id: en.id,
            key: self.macro_arg(&en.key),
            value: self.macro_arg(&en.value),
            optional: en.optional,
        }
    }
}

/// cel-go's `ExprHelper` for one expansion: every new node gets the next id, located at
/// the macro call.
struct Mx<'p, 'a> {
    p: &'p mut Parser<'a>,
    offset: usize,
}

impl Mx<'_, '_> {
    fn id(&mut self) -> R<Id> {
        self.p.new_id(self.offset)
    }

    fn node(&mut self, kind: ExprKind) -> R<Expr> {
        Ok(Expr {
            id: self.id()?,
            kind,
        })
    }

    fn lit(&mut self, lit: Literal) -> R<Expr> {
        self.node(ExprKind::Literal(lit))
    }

    fn ident(&mut self, name: &str) -> R<Expr> {
        self.node(ExprKind::Ident(name.to_string()))
    }

    fn accu(&mut self) -> R<Expr> {
        let name = self.p.accu_name();
        self.ident(name)
    }

    fn list(&mut self, elements: Vec<Expr>) -> R<Expr> {
        self.node(ExprKind::List {
            elements,
            optional_indices: Vec::new(),
        })
    }

    fn call(&mut self, function: &str, args: Vec<Expr>) -> R<Expr> {
        let id = self.id()?;
        Ok(call(id, function, None, args))
    }

    fn member_call(&mut self, function: &str, target: Expr, args: Vec<Expr>) -> R<Expr> {
        let id = self.id()?;
        Ok(call(id, function, Some(target), args))
    }

    #[allow(clippy::too_many_arguments)]
    fn comprehension(
        &mut self,
        iter_range: Expr,
        iter_var: &str,
        iter_var2: Option<&str>,
        accu_var: &str,
        accu_init: Expr,
        loop_cond: Expr,
        loop_step: Expr,
        result: Expr,
    ) -> R<Expr> {
        self.node(ExprKind::Comprehension(Box::new(Comprehension {
            iter_var: iter_var.to_string(),
            iter_var2: iter_var2.map(str::to_string),
            iter_range,
            accu_var: accu_var.to_string(),
            accu_init,
            loop_cond,
            loop_step,
            result,
        })))
    }

    /// cel-go's `ExprHelper.Copy`: the same tree with fresh ids, each at its original's
    /// offset (entries at the macro call).
    fn copy(&mut self, e: &Expr) -> R<Expr> {
        let offset = self.p.offsets.get(&e.id).copied().unwrap_or(self.offset);
        let id = self.p.new_id(offset)?;
        let kind = match &e.kind {
            ExprKind::Literal(_) | ExprKind::Ident(_) => e.kind.clone(),
            ExprKind::Select {
                operand,
                field,
                test_only,
            } => ExprKind::Select {
                operand: Box::new(self.copy(operand)?),
                field: field.clone(),
                test_only: *test_only,
            },
            ExprKind::Call {
                target,
                function,
                args,
            } => {
                let mut copied = Vec::with_capacity(args.len());
                for a in args {
                    copied.push(self.copy(a)?);
                }
                let target = match target {
                    Some(t) => Some(Box::new(self.copy(t)?)),
                    None => None,
                };
                ExprKind::Call {
                    target,
                    function: function.clone(),
                    args: copied,
                }
            }
            ExprKind::List {
                elements,
                optional_indices,
            } => {
                let mut copied = Vec::with_capacity(elements.len());
                for a in elements {
                    copied.push(self.copy(a)?);
                }
                ExprKind::List {
                    elements: copied,
                    optional_indices: optional_indices.clone(),
                }
            }
            ExprKind::Map { entries } => {
                let mut copied = Vec::with_capacity(entries.len());
                for en in entries {
                    let entry_id = self.id()?;
                    let key = self.copy(&en.key)?;
                    let value = self.copy(&en.value)?;
                    copied.push(Entry {
                        id: entry_id,
                        key,
                        value,
                        optional: en.optional,
                    });
                }
                ExprKind::Map { entries: copied }
            }
            ExprKind::Struct { type_name, fields } => {
                let mut copied = Vec::with_capacity(fields.len());
                for en in fields {
                    let entry_id = self.id()?;
                    let value = self.copy(&en.value)?;
                    let mut key = en.key.clone();
                    key.id = entry_id;
                    copied.push(Entry {
                        id: entry_id,
                        key,
                        value,
                        optional: en.optional,
                    });
                }
                ExprKind::Struct {
                    type_name: type_name.clone(),
                    fields: copied,
                }
            }
            ExprKind::Comprehension(c) => {
                let iter_range = self.copy(&c.iter_range)?;
                let accu_init = self.copy(&c.accu_init)?;
                let loop_cond = self.copy(&c.loop_cond)?;
                let loop_step = self.copy(&c.loop_step)?;
                let result = self.copy(&c.result)?;
                ExprKind::Comprehension(Box::new(Comprehension {
                    iter_var: c.iter_var.clone(),
                    iter_var2: c.iter_var2.clone(),
                    iter_range,
                    accu_var: c.accu_var.clone(),
                    accu_init,
                    loop_cond,
                    loop_step,
                    result,
                }))
            }
        };
        Ok(Expr { id, kind })
    }

    fn expand(&mut self, kind: Kind, target: Option<Expr>, args: Vec<Expr>) -> R<Expansion> {
        let target = target.unwrap_or(Expr {
            id: 0,
            kind: ExprKind::Literal(Literal::Null),
        });
        match kind {
            Kind::Has => self.has(args),
            Kind::All | Kind::Exists | Kind::ExistsOne => self.quantifier(kind, target, args),
            Kind::Map => self.map(target, args),
            Kind::Filter => self.filter(target, args),
            Kind::All2 | Kind::Exists2 | Kind::ExistsOne2 => self.quantifier2(kind, target, args),
            Kind::TransformList | Kind::TransformMap | Kind::TransformMapEntry => {
                self.transform(kind, target, args)
            }
            Kind::Bind => self.bind(args),
            Kind::OptMap | Kind::OptFlatMap => self.opt_map(kind, target, args),
            Kind::SortBy => self.sort_by(target, args),
        }
    }

    /// `has(a.b)`: a presence test.
    fn has(&mut self, mut args: Vec<Expr>) -> R<Expansion> {
        let Some(arg) = args.pop() else {
            return Ok(Ok(None));
        };
        match arg.kind {
            ExprKind::Select { operand, field, .. } => {
                let id = self.id()?;
                Ok(Ok(Some(Expr {
                    id,
                    kind: ExprKind::Select {
                        operand,
                        field,
                        test_only: true,
                    },
                })))
            }
            _ => Ok(Err(MacroError(
                arg.id,
                "invalid argument to has() macro".into(),
            ))),
        }
    }

    /// The iteration variable of a one-variable macro (`message` when not an identifier).
    fn iter_var(&self, arg: &Expr, message: &str) -> Result<String, MacroError> {
        let Some(name) = ident_name(arg) else {
            return Err(MacroError(arg.id, message.to_string()));
        };
        if name == self.p.accu_name() || name == LEGACY_ACCUMULATOR {
            return Err(MacroError(
                arg.id,
                "iteration variable overwrites accumulator variable".into(),
            ));
        }
        Ok(name.to_string())
    }

    /// `all`, `exists`, `exists_one` with one variable.
    fn quantifier(&mut self, kind: Kind, target: Expr, args: Vec<Expr>) -> R<Expansion> {
        let mut args = args.into_iter();
        let (Some(var), Some(pred)) = (args.next(), args.next()) else {
            return Ok(Ok(None));
        };
        let v = match self.iter_var(&var, "argument must be a simple name") {
            Ok(v) => v,
            Err(e) => return Ok(Err(e)),
        };
        let (init, cond, step, result) = self.quantifier_parts(kind, pred)?;
        let accu = self.p.accu_name();
        let e = self.comprehension(target, &v, None, accu, init, cond, step, result)?;
        Ok(Ok(Some(e)))
    }

    /// The accumulator's start, loop condition, step and result of a quantifier.
    fn quantifier_parts(&mut self, kind: Kind, pred: Expr) -> R<(Expr, Expr, Expr, Expr)> {
        Ok(match kind {
            Kind::All | Kind::All2 => {
                let init = self.lit(Literal::Bool(true))?;
                let a = self.accu()?;
                let cond = self.call("@not_strictly_false", vec![a])?;
                let a = self.accu()?;
                let step = self.call("_&&_", vec![a, pred])?;
                let result = self.accu()?;
                (init, cond, step, result)
            }
            Kind::Exists | Kind::Exists2 => {
                let init = self.lit(Literal::Bool(false))?;
                let a = self.accu()?;
                let not = self.call("!_", vec![a])?;
                let cond = self.call("@not_strictly_false", vec![not])?;
                let a = self.accu()?;
                let step = self.call("_||_", vec![a, pred])?;
                let result = self.accu()?;
                (init, cond, step, result)
            }
            _ => {
                let init = self.lit(Literal::Int(0))?;
                let cond = self.lit(Literal::Bool(true))?;
                let a = self.accu()?;
                let one = self.lit(Literal::Int(1))?;
                let plus = self.call("_+_", vec![a, one])?;
                let a = self.accu()?;
                let step = self.call("_?_:_", vec![pred, plus, a])?;
                let a = self.accu()?;
                let one = self.lit(Literal::Int(1))?;
                let result = self.call("_==_", vec![a, one])?;
                (init, cond, step, result)
            }
        })
    }

    /// `map(v, f)` and `map(v, p, f)` (cel-go's `MakeMap`).
    fn map(&mut self, target: Expr, args: Vec<Expr>) -> R<Expansion> {
        let mut args = args.into_iter();
        let Some(var) = args.next() else {
            return Ok(Ok(None));
        };
        let v = match self.iter_var(&var, "argument is not an identifier") {
            Ok(v) => v,
            Err(e) => return Ok(Err(e)),
        };
        let rest: Vec<Expr> = args.collect();
        let (filter, func) = match <[Expr; 2]>::try_from(rest) {
            Ok([filter, func]) => (Some(filter), func),
            Err(mut one) => match one.pop() {
                Some(func) => (None, func),
                None => return Ok(Ok(None)),
            },
        };
        let accu = self.p.accu_name();
        let init = self.list(Vec::new())?;
        let cond = self.lit(Literal::Bool(true))?;
        let a = self.accu()?;
        let wrapped = self.list(vec![func])?;
        let mut step = self.call("_+_", vec![a, wrapped])?;
        if let Some(filter) = filter {
            let a = self.accu()?;
            step = self.call("_?_:_", vec![filter, step, a])?;
        }
        let result = self.accu()?;
        let e = self.comprehension(target, &v, None, accu, init, cond, step, result)?;
        Ok(Ok(Some(e)))
    }

    /// `filter(v, p)`: the iteration variable's own node is reused in the step.
    fn filter(&mut self, target: Expr, args: Vec<Expr>) -> R<Expansion> {
        let mut args = args.into_iter();
        let (Some(var), Some(pred)) = (args.next(), args.next()) else {
            return Ok(Ok(None));
        };
        let v = match self.iter_var(&var, "argument is not an identifier") {
            Ok(v) => v,
            Err(e) => return Ok(Err(e)),
        };
        let accu = self.p.accu_name();
        let init = self.list(Vec::new())?;
        let cond = self.lit(Literal::Bool(true))?;
        let a = self.accu()?;
        let wrapped = self.list(vec![var])?;
        let step = self.call("_+_", vec![a, wrapped])?;
        let a = self.accu()?;
        let step = self.call("_?_:_", vec![pred, step, a])?;
        let result = self.accu()?;
        let e = self.comprehension(target, &v, None, accu, init, cond, step, result)?;
        Ok(Ok(Some(e)))
    }

    /// The two iteration variables of `ext.TwoVarComprehensions`' macros.
    fn iter_vars(&self, a: &Expr, b: &Expr) -> Result<(String, String), MacroError> {
        let simple = |e: &Expr| {
            ident_name(e)
                .map(str::to_string)
                .ok_or_else(|| MacroError(e.id, "argument must be a simple name".into()))
        };
        let v1 = simple(a)?;
        let v2 = simple(b)?;
        if v1 == v2 {
            return Err(MacroError(b.id, format!("duplicate variable name: {v1}")));
        }
        for (name, e) in [(&v1, a), (&v2, b)] {
            if name == self.p.accu_name() || name == LEGACY_ACCUMULATOR {
                return Err(MacroError(
                    e.id,
                    "iteration variable overwrites accumulator variable".into(),
                ));
            }
        }
        Ok((v1, v2))
    }

    /// `all(k, v, p)`, `exists(k, v, p)`, `existsOne(k, v, p)`.
    fn quantifier2(&mut self, kind: Kind, target: Expr, args: Vec<Expr>) -> R<Expansion> {
        let mut args = args.into_iter();
        let (Some(a), Some(b), Some(pred)) = (args.next(), args.next(), args.next()) else {
            return Ok(Ok(None));
        };
        let (v1, v2) = match self.iter_vars(&a, &b) {
            Ok(v) => v,
            Err(e) => return Ok(Err(e)),
        };
        let (init, cond, step, result) = self.quantifier_parts(kind, pred)?;
        let accu = self.p.accu_name();
        let e = self.comprehension(target, &v1, Some(&v2), accu, init, cond, step, result)?;
        Ok(Ok(Some(e)))
    }

    /// `transformList`, `transformMap`, `transformMapEntry` with 3 or 4 arguments.
    fn transform(&mut self, kind: Kind, target: Expr, args: Vec<Expr>) -> R<Expansion> {
        let mut args = args.into_iter();
        let (Some(a), Some(b)) = (args.next(), args.next()) else {
            return Ok(Ok(None));
        };
        let (v1, v2) = match self.iter_vars(&a, &b) {
            Ok(v) => v,
            Err(e) => return Ok(Err(e)),
        };
        let rest: Vec<Expr> = args.collect();
        let (filter, transform) = match <[Expr; 2]>::try_from(rest) {
            Ok([filter, transform]) => (Some(filter), transform),
            Err(mut one) => match one.pop() {
                Some(t) => (None, t),
                None => return Ok(Ok(None)),
            },
        };
        let acc = self.accu()?;
        let mut step = match kind {
            Kind::TransformList => {
                let wrapped = self.list(vec![transform])?;
                self.call("_+_", vec![acc, wrapped])?
            }
            Kind::TransformMap => {
                let key = self.ident(&v1)?;
                self.call("cel.@mapInsert", vec![acc, key, transform])?
            }
            _ => self.call("cel.@mapInsert", vec![acc, transform])?,
        };
        if let Some(filter) = filter {
            let a = self.accu()?;
            step = self.call("_?_:_", vec![filter, step, a])?;
        }
        let accu = self.p.accu_name();
        let init = if kind == Kind::TransformList {
            self.list(Vec::new())?
        } else {
            self.node(ExprKind::Map {
                entries: Vec::new(),
            })?
        };
        let cond = self.lit(Literal::Bool(true))?;
        let result = self.accu()?;
        let e = self.comprehension(target, &v1, Some(&v2), accu, init, cond, step, result)?;
        Ok(Ok(Some(e)))
    }

    /// `cel.bind(v, init, result)`.
    fn bind(&mut self, args: Vec<Expr>) -> R<Expansion> {
        let mut args = args.into_iter();
        let (Some(var), Some(init), Some(result)) = (args.next(), args.next(), args.next()) else {
            return Ok(Ok(None));
        };
        let Some(name) = ident_name(&var).map(str::to_string) else {
            return Ok(Err(MacroError(
                var.id,
                "cel.bind() variable names must be simple identifiers".into(),
            )));
        };
        let range = self.list(Vec::new())?;
        let cond = self.lit(Literal::Bool(false))?;
        let step = self.ident(&name)?;
        let e = self.comprehension(range, UNUSED, None, &name, init, cond, step, result)?;
        Ok(Ok(Some(e)))
    }

    /// `opt.optMap(v, f)` and `opt.optFlatMap(v, f)`.
    fn opt_map(&mut self, kind: Kind, target: Expr, args: Vec<Expr>) -> R<Expansion> {
        let mut args = args.into_iter();
        let (Some(var), Some(func)) = (args.next(), args.next()) else {
            return Ok(Ok(None));
        };
        let Some(name) = ident_name(&var).map(str::to_string) else {
            let which = if kind == Kind::OptMap {
                "optMap"
            } else {
                "optFlatMap"
            };
            return Ok(Err(MacroError(
                var.id,
                format!("{which}() variable name must be a simple identifier"),
            )));
        };
        // cel-go numbers `target.hasValue()` first, then the comprehension's range, then
        // the copy of the target.
        let has_value_id = self.id()?;
        let range = self.list(Vec::new())?;
        let copied = self.copy(&target)?;
        let has_value = call(has_value_id, "hasValue", Some(target), Vec::new());
        let value = self.member_call("value", copied, Vec::new())?;
        let cond = self.lit(Literal::Bool(false))?;
        let step = self.ident(&name)?;
        let mut body = self.comprehension(range, UNUSED, None, &name, value, cond, step, func)?;
        if kind == Kind::OptMap {
            body = self.call("optional.of", vec![body])?;
        }
        let none = self.call("optional.none", Vec::new())?;
        let e = self.call("_?_:_", vec![has_value, body, none])?;
        Ok(Ok(Some(e)))
    }

    /// `list.sortBy(v, key)` (`ext.Lists` v2+).
    fn sort_by(&mut self, target: Expr, args: Vec<Expr>) -> R<Expansion> {
        const INPUT: &str = "@__sortBy_input__";
        let var_ident = self.ident(INPUT)?;
        let allowed = matches!(
            target.kind,
            ExprKind::List { .. }
                | ExprKind::Select { .. }
                | ExprKind::Ident(_)
                | ExprKind::Comprehension(_)
                | ExprKind::Call { .. }
        );
        if !allowed {
            return Ok(Err(MacroError(
                target.id,
                "sortBy can only be applied to a list, identifier, comprehension, call or select expression"
                    .into(),
            )));
        }
        let map_target = self.copy(&var_ident)?;
        let keys = match self.map(map_target, args)? {
            Ok(Some(keys)) => keys,
            other => return Ok(other),
        };
        let input = self.copy(&var_ident)?;
        let sorted = self.member_call("@sortByAssociatedKeys", input, vec![keys])?;
        let range = self.list(Vec::new())?;
        let cond = self.lit(Literal::Bool(false))?;
        let e = self.comprehension(range, UNUSED, None, INPUT, target, cond, var_ident, sorted)?;
        Ok(Ok(Some(e)))
    }
}

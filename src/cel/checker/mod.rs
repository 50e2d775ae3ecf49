//! cel-go's type checker (`checker` package, v0.26) with the API server's options, followed
//! by the AST validators the API server adds ([`validators`]).
//!
//! [`check`] types every node, resolves identifiers and calls against an [`Env`], and
//! rewrites the tree as cel-go does: a select chain naming a declared variable becomes that
//! identifier, and a member call on an identifier chain naming a namespaced function
//! (`sets.contains(a, b)`, `optional.of(x)`) becomes a global call of that function. The
//! rewritten tree is [`Checked::ast`]; evaluate that one.
//!
//! The API server's cross-type numeric comparisons are on (no overload is filtered) and
//! aggregate literals of mixed element types type as `dyn` here; the homogeneity rule is
//! the validator's (as in cel-go, where `HomogeneousAggregateLiterals` is a validator).

mod types;
pub mod validators;

#[cfg(test)]
mod tests;

use super::ast::{Ast, Entry, Expr, ExprKind, Id, Literal, SourceInfo};
use super::env::{Env, Function};
use super::error::{Issue, Issues};
use super::types::Type;
use std::collections::HashMap;
pub use types::format_type;
use types::{Kind, Mapping, kind};

/// A checked expression: every node's type, and what each identifier and call refers to.
#[derive(Clone, Debug)]
pub struct Checked {
    /// The expression, rewritten by the checker (resolved qualified names and namespaced
    /// function calls).
    pub ast: Ast,
    /// The type of each node, type parameters resolved (unbound ones are dyn). The
    /// parameterless `type` (the identifier `type` has type `type(type)`) appears as
    /// `Type::Opaque("type", [])`, our [`Type::Type`] always having a parameter.
    pub types: HashMap<Id, Type>,
    /// What identifiers and calls resolved to.
    pub references: HashMap<Id, Reference>,
}

impl Checked {
    /// The type of the whole expression.
    pub fn result_type(&self) -> Type {
        self.types
            .get(&self.ast.expr.id)
            .cloned()
            .unwrap_or(Type::Dyn)
    }
}

/// What a node refers to.
#[derive(Clone, Debug, PartialEq)]
pub enum Reference {
    /// A variable (or a type name used as a value), by its full name.
    Variable(String),
    /// A call: the ids of the overloads that may apply (one when resolved statically).
    Overloads(Vec<String>),
}

/// Type-checks `ast` against `env` as the API server compiles a rule: cel-go's checker,
/// then the AST validators (duration, timestamp and regex literals, homogeneous aggregate
/// literals). Issues are in cel-go's display order (by position).
pub fn check(ast: &Ast, env: &Env) -> Result<Checked, Issues> {
    let checked = check_types(ast, env)?;
    let issues = validators::validate(&checked);
    if issues.is_empty() {
        Ok(checked)
    } else {
        Err(issues_of(issues, &ast.source))
    }
}

/// cel-go's `checker.Check` alone, without the validators.
pub fn check_types(ast: &Ast, env: &Env) -> Result<Checked, Issues> {
    let mut expr = ast.expr.clone();
    let mut c = Checker {
        env,
        source: &ast.source,
        scopes: Vec::new(),
        mapping: Mapping::default(),
        types: HashMap::new(),
        references: HashMap::new(),
        issues: Vec::new(),
        next_var: 0,
    };
    c.check(&mut expr);
    if !c.issues.is_empty() {
        return Err(issues_of(c.issues, &ast.source));
    }
    // unbound type parameters left in the final types are dyn
    let types = c
        .types
        .iter()
        .map(|(id, t)| (*id, c.mapping.substitute(t, true)))
        .collect();
    Ok(Checked {
        ast: Ast {
            expr,
            source: ast.source.clone(),
        },
        types,
        references: c.references,
    })
}

/// Sorts issues as cel-go displays them (stable, by position; unknown positions first).
pub(crate) fn issues_of(mut issues: Vec<Issue>, source: &SourceInfo) -> Issues {
    issues.sort_by_key(|i| i.offset.map(|o| source.location(o)));
    Issues {
        issues,
        text: source.text.clone(),
    }
}

/// The declared type identifiers (cel-go's standard type declarations, the well-known
/// protobuf types its registry knows and the types the enabled libraries register): the
/// type a type identifier has as a value, `type(T)`.
fn type_identifier(name: &str) -> Option<Type> {
    let t = match name {
        "bool" => Type::Bool,
        "bytes" => Type::Bytes,
        "double" => Type::Double,
        "int" => Type::Int,
        "string" => Type::String,
        "uint" => Type::Uint,
        "null_type" => Type::Null,
        "type" => types::bare_type(),
        "list" => Type::list(Type::param("A")),
        "map" => Type::map(Type::param("A"), Type::param("B")),
        "google.protobuf.Duration" => Type::Duration,
        "google.protobuf.Timestamp" => Type::Timestamp,
        "google.protobuf.Value" => Type::Dyn,
        "google.protobuf.ListValue" => Type::list(Type::Dyn),
        "google.protobuf.Struct" => Type::map(Type::String, Type::Dyn),
        // registered by cel.OptionalTypes and Kubernetes' IP and CIDR libraries
        "optional_type" | "net.IP" | "net.CIDR" => Type::opaque(name),
        _ => return None,
    };
    Some(Type::type_of(t))
}

/// Field types of the well-known message types a struct literal may build.
fn well_known_field(type_name: &str, field: &str) -> Option<Option<Type>> {
    match type_name {
        "google.protobuf.Duration" | "google.protobuf.Timestamp" => Some(match field {
            "seconds" | "nanos" => Some(Type::Int),
            _ => None,
        }),
        _ => None,
    }
}

struct Checker<'a> {
    env: &'a Env,
    source: &'a SourceInfo,
    /// Comprehension scopes, innermost last.
    scopes: Vec<HashMap<String, Type>>,
    mapping: Mapping,
    types: HashMap<Id, Type>,
    references: HashMap<Id, Reference>,
    issues: Vec<Issue>,
    next_var: usize,
}

/// The parts of a call the overload resolution needs.
struct CallSite<'e> {
    id: Id,
    /// The receiver's type, for a member call.
    target: Option<Type>,
    args: Vec<(Id, Type)>,
    function: &'e Function,
}

impl<'a> Checker<'a> {
    fn error(&mut self, id: Id, message: String) {
        self.issues.push(Issue {
            offset: self.source.offsets.get(&id).copied(),
            message,
        });
    }

    fn type_mismatch(&mut self, id: Id, expected: &Type, actual: &Type) {
        self.error(
            id,
            format!(
                "expected type '{}' but found '{}'",
                format_type(expected),
                format_type(actual)
            ),
        );
    }

    fn undeclared(&mut self, id: Id, name: &str) {
        self.error(
            id,
            format!("undeclared reference to '{name}' (in container '')"),
        );
    }

    fn set_type(&mut self, id: Id, t: Type) {
        if let Some(old) = self.types.get(&id)
            && !types::is_exact(old, &t)
        {
            let message = format!(
                "incompatible type already exists for expression: ({id}) old:{old}, new:{t}"
            );
            self.error(id, message);
            return;
        }
        self.types.insert(id, t);
    }

    fn get_type(&self, id: Id) -> Type {
        self.types.get(&id).cloned().unwrap_or(Type::Error)
    }

    fn new_type_var(&mut self) -> Type {
        let t = Type::param(&format!("_var{}", self.next_var));
        self.next_var += 1;
        t
    }

    /// `Env.LookupIdent`: comprehension variables (innermost first), declared variables,
    /// then type identifiers. Returns the full name and the type.
    fn lookup_ident(&self, name: &str) -> Option<(String, Type)> {
        // a leading dot names the root scope; with the empty container it is just dropped
        let name = name.strip_prefix('.').unwrap_or(name);
        for scope in self.scopes.iter().rev() {
            if let Some(t) = scope.get(name) {
                return Some((name.to_string(), t.clone()));
            }
        }
        if let Some(t) = self.env.variables.get(name) {
            return Some((name.to_string(), t.clone()));
        }
        type_identifier(name).map(|t| (name.to_string(), t))
    }

    fn lookup_function(&self, name: &str) -> Option<&'a Function> {
        let name = name.strip_prefix('.').unwrap_or(name);
        self.env.functions.get(name)
    }

    /// Types `e` and everything below it. Each kind of node has its own function so
    /// that this recursive frame stays small (deep trees recurse through it).
    fn check(&mut self, e: &mut Expr) {
        match &e.kind {
            ExprKind::Literal(_) => self.check_literal(e),
            ExprKind::Ident(_) => self.check_ident(e),
            ExprKind::Select { .. } => self.check_select(e),
            ExprKind::Call { .. } => self.check_call(e),
            ExprKind::List { .. } => self.check_list(e),
            ExprKind::Map { .. } => self.check_map(e),
            ExprKind::Struct { .. } => self.check_struct(e),
            ExprKind::Comprehension(_) => self.check_comprehension(e),
        }
    }

    fn check_literal(&mut self, e: &Expr) {
        let ExprKind::Literal(l) = &e.kind else {
            return;
        };
        let t = match l {
            Literal::Null => Type::Null,
            Literal::Bool(_) => Type::Bool,
            Literal::Int(_) => Type::Int,
            Literal::Uint(_) => Type::Uint,
            Literal::Double(_) => Type::Double,
            Literal::String(_) => Type::String,
            Literal::Bytes(_) => Type::Bytes,
        };
        self.set_type(e.id, t);
    }

    fn check_ident(&mut self, e: &mut Expr) {
        let id = e.id;
        let ExprKind::Ident(name) = &mut e.kind else {
            return;
        };
        match self.lookup_ident(name) {
            Some((full, t)) => {
                self.set_type(id, t);
                self.references
                    .insert(id, Reference::Variable(full.clone()));
                // the fully qualified name (only a leading dot differs here)
                *name = full;
            }
            None => {
                let name = name.clone();
                self.set_type(id, Type::Error);
                self.undeclared(id, &name);
            }
        }
    }

    fn check_list(&mut self, e: &mut Expr) {
        let id = e.id;
        let ExprKind::List {
            elements,
            optional_indices,
        } = &mut e.kind
        else {
            return;
        };
        let mut elems_type: Option<Type> = None;
        for (i, elem) in elements.iter_mut().enumerate() {
            self.check(elem);
            let mut t = self.get_type(elem.id);
            if optional_indices.contains(&i) {
                t = self.unwrap_optional_element(elem.id, &t);
            }
            elems_type = Some(self.join_types(elems_type, t));
        }
        let elems_type = match elems_type {
            Some(t) => t,
            // an empty list's element type is free
            None => self.new_type_var(),
        };
        self.set_type(id, Type::list(elems_type));
    }

    fn check_map(&mut self, e: &mut Expr) {
        let id = e.id;
        let ExprKind::Map { entries } = &mut e.kind else {
            return;
        };
        let mut key_type: Option<Type> = None;
        let mut value_type: Option<Type> = None;
        for entry in entries.iter_mut() {
            self.check(&mut entry.key);
            let kt = self.get_type(entry.key.id);
            key_type = Some(self.join_types(key_type, kt));
            self.check(&mut entry.value);
            let mut vt = self.get_type(entry.value.id);
            if entry.optional {
                vt = self.unwrap_optional_element(entry.value.id, &vt);
            }
            value_type = Some(self.join_types(value_type, vt));
        }
        let (k, v) = match (key_type, value_type) {
            (Some(k), Some(v)) => (k, v),
            _ => (self.new_type_var(), self.new_type_var()),
        };
        self.set_type(id, Type::map(k, v));
    }

    /// The type an optional element (`[?x]`, `{?k: x}`, `T{?f: x}`) contributes: its
    /// optional's parameter; anything but an optional or dyn is an error.
    fn unwrap_optional_element(&mut self, id: Id, t: &Type) -> Type {
        let (inner, was_optional) = types::unwrap_optional(t);
        if !was_optional && !types::is_dyn(&inner) {
            self.type_mismatch(id, &Type::optional(inner.clone()), &inner);
        }
        inner
    }

    /// `joinTypes` with dyn aggregate literal element types: the most general common
    /// type, or dyn.
    fn join_types(&mut self, previous: Option<Type>, current: Type) -> Type {
        match previous {
            None => current,
            Some(previous) => {
                if self.mapping.is_assignable(&previous, &current) {
                    types::most_general(&previous, &current)
                } else {
                    Type::Dyn
                }
            }
        }
    }

    fn check_select(&mut self, e: &mut Expr) {
        let id = e.id;
        // a select chain may name a declared variable (`a.b.c`)
        if let Some(qname) = qualified_name(e)
            && let Some((full, t)) = self.lookup_ident(&qname)
        {
            self.set_type(id, t);
            self.references
                .insert(id, Reference::Variable(full.clone()));
            e.kind = ExprKind::Ident(full);
            return;
        }
        let ExprKind::Select {
            operand,
            field,
            test_only,
        } = &mut e.kind
        else {
            return;
        };
        let test_only = *test_only;
        let field = field.clone();
        let mut result = self.check_select_field(id, operand, &field, false);
        if test_only {
            result = Type::Bool;
        }
        let t = self.mapping.substitute(&result, false);
        self.set_type(id, t);
    }

    /// `checkSelectField`: the type of `operand.field` (or `operand.?field`).
    fn check_select_field(
        &mut self,
        id: Id,
        operand: &mut Expr,
        field: &str,
        optional: bool,
    ) -> Type {
        self.check(operand);
        let operand_type = self.mapping.substitute(&self.get_type(operand.id), false);
        let (target, was_optional) = types::unwrap_optional(&operand_type);
        let result = match &target {
            Type::Map(_, v) => (**v).clone(),
            Type::Object(o) => match o.fields.get(field) {
                Some(t) => t.clone(),
                None => {
                    self.error(id, format!("undefined field '{field}'"));
                    Type::Error
                }
            },
            Type::Opaque(name, _) if kind(&target) == Kind::Struct => {
                // Kubernetes' object-typed library values: no type provider knows them
                self.error(id, format!("unexpected failed resolution of '{name}'"));
                Type::Error
            }
            Type::Param(_) => {
                // pin the parameter to dyn so nothing later binds it to a narrower type
                self.mapping.is_assignable(&Type::Dyn, &target);
                Type::Dyn
            }
            _ => {
                if !matches!(kind(&target), Kind::Dyn | Kind::Error) {
                    let message = format!(
                        "type '{}' does not support field selection",
                        format_type(&target)
                    );
                    self.error(id, message);
                }
                Type::Dyn
            }
        };
        if was_optional || optional {
            Type::optional(result)
        } else {
            result
        }
    }

    /// `_?._(operand, 'field')`: optional field selection.
    fn check_opt_select(&mut self, e: &mut Expr) {
        let id = e.id;
        let ExprKind::Call { target, args, .. } = &mut e.kind else {
            return;
        };
        if args.len() != 2 || target.is_some() {
            let member = if target.is_some() {
                " member call with"
            } else {
                ""
            };
            let message = format!(
                "unsupported optional field selection: incorrect signature.{member} argument count: {}",
                args.len()
            );
            self.error(id, message);
            return;
        }
        let (operand, field) = args.split_at_mut(1);
        let field_name = match &field[0].kind {
            ExprKind::Literal(Literal::String(s)) => s.to_string(),
            _ => {
                let fid = field[0].id;
                self.error(fid, "unsupported optional field selection".to_string());
                return;
            }
        };
        let result = self.check_select_field(id, &mut operand[0], &field_name, true);
        let t = self.mapping.substitute(&result, false);
        self.set_type(id, t);
        self.references.insert(
            id,
            Reference::Overloads(vec!["select_optional_field".to_string()]),
        );
    }

    fn check_call(&mut self, e: &mut Expr) {
        let id = e.id;
        let ExprKind::Call {
            target,
            function,
            args,
        } = &mut e.kind
        else {
            return;
        };
        if function == "_?._" {
            self.check_opt_select(e);
            return;
        }
        for arg in args.iter_mut() {
            self.check(arg);
        }
        let arg_types: Vec<(Id, Type)> = args.iter().map(|a| (a.id, self.get_type(a.id))).collect();

        let Some(target_expr) = target else {
            let Some(f) = self.lookup_function(function) else {
                let name = function.clone();
                self.undeclared(id, &name);
                self.set_type(id, Type::Error);
                return;
            };
            *function = f.name.clone();
            self.resolve(CallSite {
                id,
                target: None,
                args: arg_types,
                function: f,
            });
            return;
        };

        // `a.b.f(x)`: a namespaced function `a.b.f` called globally, when declared
        if let Some(prefix) = qualified_name(target_expr)
            && let Some(f) = self.lookup_function(&format!("{prefix}.{function}"))
        {
            *function = f.name.clone();
            *target = None;
            self.resolve(CallSite {
                id,
                target: None,
                args: arg_types,
                function: f,
            });
            return;
        }

        self.check(target_expr);
        let target_type = self.get_type(target_expr.id);
        match self.lookup_function(function) {
            Some(f) => self.resolve(CallSite {
                id,
                target: Some(target_type),
                args: arg_types,
                function: f,
            }),
            None => {
                let name = function.clone();
                self.set_type(id, Type::Error);
                self.undeclared(id, &name);
            }
        }
    }

    /// `resolveOverloadOrError`.
    fn resolve(&mut self, call: CallSite<'a>) {
        match self.resolve_overload(&call) {
            Some((t, ids)) => {
                self.set_type(call.id, t);
                self.references.insert(call.id, Reference::Overloads(ids));
            }
            None => self.set_type(call.id, Type::Error),
        }
    }

    /// `resolveOverload`: the result type and matching overload ids, or `None` after
    /// reporting the mismatch.
    fn resolve_overload(&mut self, call: &CallSite<'a>) -> Option<(Type, Vec<String>)> {
        let f = call.function;
        let member = call.target.is_some();
        let mut arg_types: Vec<Type> = Vec::with_capacity(call.args.len() + 1);
        if let Some(t) = &call.target {
            arg_types.push(t.clone());
        }
        arg_types.extend(call.args.iter().map(|(_, t)| t.clone()));

        let mut result: Option<Type> = None;
        let mut ids: Vec<String> = Vec::new();
        for overload in &f.overloads {
            if overload.member != member {
                continue;
            }
            if f.name == "_&&_" || f.name == "_||_" {
                // logical operators: every argument must be a bool
                let mut ok = true;
                for (i, t) in arg_types.iter().enumerate() {
                    if !self.mapping.is_assignable(t, &Type::Bool) {
                        let arg_id = call.args.get(i).map_or(call.id, |a| a.0);
                        self.type_mismatch(arg_id, &Type::Bool, t);
                        ok = false;
                    }
                }
                return ok.then(|| (Type::Bool, vec![overload.id.clone()]));
            }

            // instantiate the overload's type parameters with fresh variables
            let mut names = Vec::new();
            types::collect_params(&overload.result, &mut names);
            for p in &overload.params {
                types::collect_params(p, &mut names);
            }
            let (params, result_type) = if names.is_empty() {
                (overload.params.clone(), overload.result.clone())
            } else {
                let mut fresh = HashMap::new();
                for n in names {
                    let v = self.new_type_var();
                    fresh.insert(n, v);
                }
                (
                    overload
                        .params
                        .iter()
                        .map(|p| types::rename_params(p, &fresh))
                        .collect::<Vec<_>>(),
                    types::rename_params(&overload.result, &fresh),
                )
            };
            if self.mapping.is_assignable_list(&arg_types, &params) {
                if !ids.contains(&overload.id) {
                    ids.push(overload.id.clone());
                }
                let t = self.mapping.substitute(&result_type, false);
                result = Some(match result {
                    None => t,
                    Some(r) if !types::is_dyn(&r) && !types::is_exact(&t, &r) => Type::Dyn,
                    Some(r) => r,
                });
            }
        }
        match result {
            Some(t) => Some((t, ids)),
            None => {
                let shown: Vec<Type> = arg_types
                    .iter()
                    .map(|t| self.mapping.substitute(t, true))
                    .collect();
                let message = format!(
                    "found no matching overload for '{}' applied to '{}'",
                    f.name,
                    format_signature(&shown, member)
                );
                self.error(call.id, message);
                None
            }
        }
    }

    fn check_struct(&mut self, e: &mut Expr) {
        let id = e.id;
        let ExprKind::Struct { type_name, fields } = &mut e.kind else {
            return;
        };
        let Some((full, ident_type)) = self.lookup_ident(type_name) else {
            let name = type_name.clone();
            self.undeclared(id, &name);
            self.set_type(id, Type::Error);
            return;
        };
        *type_name = full.clone();
        self.references
            .insert(id, Reference::Variable(full.clone()));
        let mut message_name = full;
        let mut result = Type::Error;
        match kind(&ident_type) {
            Kind::Error => {}
            Kind::Type => {
                let inner = types::params(&ident_type)
                    .first()
                    .map_or(Type::Dyn, |t| (*t).clone());
                match &inner {
                    Type::Timestamp => message_name = "google.protobuf.Timestamp".into(),
                    Type::Duration => message_name = "google.protobuf.Duration".into(),
                    Type::Object(o) => message_name = o.name.clone(),
                    _ => {}
                }
                if matches!(inner, Type::Timestamp | Type::Duration | Type::Object(_)) {
                    result = inner;
                } else {
                    let message = format!("'{}' is not a message type", types::type_name(&inner));
                    self.error(id, message);
                }
            }
            _ => {
                let message = format!("'{}' is not a type", types::type_name(&ident_type));
                self.error(id, message);
            }
        }
        self.set_type(id, result.clone());

        for Entry {
            id: field_id,
            key,
            value,
            optional,
        } in fields.iter_mut()
        {
            let field_name = match &key.kind {
                ExprKind::Literal(Literal::String(s)) => s.to_string(),
                _ => String::new(),
            };
            self.check(value);
            let field_type = self
                .lookup_field(*field_id, &result, &message_name, &field_name)
                .unwrap_or(Type::Error);
            let mut vt = self.get_type(value.id);
            if *optional {
                vt = self.unwrap_optional_element(value.id, &vt);
            }
            if !self.mapping.is_assignable(&field_type, &vt) {
                let message = format!(
                    "expected type of field '{field_name}' is '{}' but provided type is '{}'",
                    format_type(&field_type),
                    format_type(&vt)
                );
                self.error(*field_id, message);
            }
        }
    }

    /// `lookupFieldType` for a struct literal's field.
    fn lookup_field(&mut self, id: Id, t: &Type, message: &str, field: &str) -> Option<Type> {
        let found = match t {
            Type::Object(o) => Some(o.fields.get(field).cloned()),
            _ => well_known_field(message, field),
        };
        match found {
            None => {
                self.error(id, format!("unexpected failed resolution of '{message}'"));
                None
            }
            Some(None) => {
                self.error(id, format!("undefined field '{field}'"));
                None
            }
            Some(t) => t,
        }
    }

    fn check_comprehension(&mut self, e: &mut Expr) {
        let id = e.id;
        let ExprKind::Comprehension(c) = &mut e.kind else {
            return;
        };
        self.check(&mut c.iter_range);
        self.check(&mut c.accu_init);
        let range_type = self
            .mapping
            .substitute(&self.get_type(c.iter_range.id), false);
        let accu_type = self.get_type(c.accu_init.id);
        self.scopes
            .push(HashMap::from([(c.accu_var.clone(), accu_type.clone())]));

        let two = c.iter_var2.is_some();
        let (var_type, var2_type) = match &range_type {
            Type::List(elem) if two => (Type::Int, (**elem).clone()),
            Type::List(elem) => ((**elem).clone(), Type::Dyn),
            Type::Map(k, v) => ((**k).clone(), (**v).clone()),
            _ if matches!(kind(&range_type), Kind::Dyn | Kind::Error | Kind::TypeParam) => {
                self.mapping.is_assignable(&Type::Dyn, &range_type);
                (Type::Dyn, Type::Dyn)
            }
            _ => {
                let message = format!(
                    "expression of type '{}' cannot be range of a comprehension (must be list, map, or dynamic)",
                    format_type(&range_type)
                );
                self.error(c.iter_range.id, message);
                (Type::Error, Type::Error)
            }
        };

        let mut loop_scope = HashMap::from([(c.iter_var.clone(), var_type)]);
        if let Some(v2) = &c.iter_var2 {
            loop_scope.insert(v2.clone(), var2_type);
        }
        self.scopes.push(loop_scope);
        self.check(&mut c.loop_cond);
        self.assert_type(c.loop_cond.id, &Type::Bool);
        self.check(&mut c.loop_step);
        self.assert_type(c.loop_step.id, &accu_type);
        self.scopes.pop();
        self.check(&mut c.result);
        self.scopes.pop();
        let t = self.mapping.substitute(&self.get_type(c.result.id), false);
        self.set_type(id, t);
    }

    fn assert_type(&mut self, id: Id, t: &Type) {
        let actual = self.get_type(id);
        if !self.mapping.is_assignable(t, &actual) {
            self.type_mismatch(id, t, &actual);
        }
    }
}

/// `containers.ToQualifiedName`: `a.b.c` for an identifier or a chain of (non-test)
/// selects on one.
fn qualified_name(e: &Expr) -> Option<String> {
    match &e.kind {
        ExprKind::Ident(name) => Some(name.clone()),
        ExprKind::Select {
            operand,
            field,
            test_only: false,
        } => qualified_name(operand).map(|q| format!("{q}.{field}")),
        _ => None,
    }
}

/// cel-go's `formatFunctionDeclType` without a result type: `(int, string)` or, for a
/// member call, `string.(int)`.
fn format_signature(arg_types: &[Type], member: bool) -> String {
    let mut out = String::new();
    let mut args = arg_types;
    if member && let Some((target, rest)) = arg_types.split_first() {
        out.push_str(&format_type(target));
        out.push('.');
        args = rest;
    }
    out.push('(');
    for (i, a) in args.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        out.push_str(&format_type(a));
    }
    out.push(')');
    out
}

//! cel-go's interpreter: evaluates a parsed (macro-expanded) expression against an
//! [`Activation`], metered by a [`Tracker`].
//!
//! Semantics follow cel-go v0.26: errors are values that `&&`, `||`, the ternary and
//! comprehensions may absorb (commutatively for the logical operators); calls dispatch on
//! the runtime types of their arguments over the declared overloads; field selection and
//! indexing resolve as cel-go's attributes do (`no such key: x`, `index out of bounds: 3`);
//! optional values propagate through selection and indexing.
//!
//! As in cel-go, a comprehension's accumulator is initialised when first read, `or` and
//! `orValue` evaluate their argument only when needed, overloads without type guards
//! ([`Overload::guarded`]) take any arguments, and the `map`, `filter` and `transformMap`
//! family update their accumulator in place (linear, not quadratic).
//!
//! [`Program::new`] resolves ahead what does not depend on the activation (which function
//! each call names, which dotted names may be variables or type names, each selection's key),
//! indexed by node id, so one program evaluates many times without re-planning;
//! [`Program::try_checked`] also reports what cel-go rejects when building a program.

#[cfg(test)]
mod polish_tests;
#[cfg(test)]
pub(crate) mod tests;

use super::ast::{Ast, Comprehension, Entry, Expr, ExprKind, Id, Literal};
use super::checker::{Checked, Reference};
use super::cost::Tracker;
use super::env::{Env, Function, Overload};
use super::stdlib;
use super::types::Type;
use super::value::{Error, Key, ListKind, Value};
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

/// Variables' values for one evaluation.
pub trait Activation {
    /// The value of a variable, if it has one.
    fn resolve(&self, name: &str) -> Option<Value>;
}

impl Activation for HashMap<String, Value> {
    fn resolve(&self, name: &str) -> Option<Value> {
        self.get(name).cloned()
    }
}

/// A compiled expression, ready to evaluate many times.
pub struct Program {
    ast: Ast,
    env: Arc<Env>,
    /// What each call node names, resolved once.
    calls: IdMap<CallPlan>,
    /// For `Select` chains of identifiers (`a.b.c`), the dotted name to try as a variable or
    /// type name before selecting fields, as cel-go's "maybe attributes" do.
    dotted: IdMap<String>,
    /// Each selection's field as a map key, built once rather than at every evaluation.
    fields: IdMap<Key>,
    /// `accu + [elems]` and `cel.@mapInsert(accu, …)` calls that are a comprehension's
    /// whole step (or a branch of a ternary step), as the `map`, `filter` and
    /// `transformMap` macros write them: the accumulator is not read again in the step, so
    /// it may be updated in place, which keeps those macros linear (cel-go uses a mutable
    /// list or map for the same reason).
    appends: IdMap<InPlace>,
    /// Calls written `ns.f(args)` that name the global function `ns.f`.
    namespaced: IdMap<()>,
    /// For a checked program, the overload ids the checker left for each call.
    checked_overloads: Option<IdMap<Vec<String>>>,
}

/// A map from node ids: the parser numbers nodes densely from 1, so ids up to a bound index
/// a vector (no hashing on the evaluation path); others, from hand-built trees, a hash map.
struct IdMap<T> {
    dense: Vec<Option<T>>,
    sparse: HashMap<Id, T>,
}

/// Ids below this index [`IdMap`]'s vector (the parser refuses more nodes than this).
const DENSE_IDS: Id = 1 << 20;

impl<T> IdMap<T> {
    fn new() -> IdMap<T> {
        IdMap {
            dense: Vec::new(),
            sparse: HashMap::new(),
        }
    }

    fn insert(&mut self, id: Id, value: T) {
        match usize::try_from(id) {
            Ok(i) if id < DENSE_IDS => {
                if self.dense.len() <= i {
                    self.dense.resize_with(i + 1, || None);
                }
                self.dense[i] = Some(value);
            }
            _ => {
                self.sparse.insert(id, value);
            }
        }
    }

    fn get(&self, id: Id) -> Option<&T> {
        match usize::try_from(id) {
            Ok(i) if id < DENSE_IDS => self.dense.get(i).and_then(Option::as_ref),
            _ => self.sparse.get(&id),
        }
    }

    fn contains_key(&self, id: Id) -> bool {
        self.get(id).is_some()
    }
}

/// How a call is evaluated.
enum CallPlan {
    And,
    Or,
    Conditional,
    NotStrictlyFalse,
    OptionalSelect,
    OptionalIndex,
    Index,
    /// A function of the environment, dispatched on argument types.
    Function(Arc<Function>),
    /// `opt.or(other)` (`value: false`) or `opt.orValue(other)` (`value: true`), which cel-go
    /// evaluates lazily (its `evalOptionalOr` decorator): the argument only when the receiver
    /// is `optional.none()`; a receiver that is no optional comes back as it is. Not a call
    /// to cel-go's cost tracker: it costs nothing of its own.
    OptionalOr {
        value: bool,
    },
    /// A function the environment does not declare.
    Unknown,
}

/// Why evaluation of a node stopped producing a value: an error value (which `&&`, `||` and
/// comprehensions may absorb) or an abort (the cost limit) that ends evaluation.
enum Stop {
    Err(Error),
    Abort(Error),
}

impl From<Error> for Stop {
    fn from(e: Error) -> Stop {
        Stop::Err(e)
    }
}

type R = Result<Value, Stop>;

/// Type names an identifier may denote (cel-go's standard type identifiers).
fn type_ident(name: &str) -> Option<Type> {
    Some(match name {
        "bool" => Type::Bool,
        "bytes" => Type::Bytes,
        "double" => Type::Double,
        "google.protobuf.Duration" => Type::Duration,
        "int" => Type::Int,
        "list" => Type::list(Type::Dyn),
        "map" => Type::map(Type::Dyn, Type::Dyn),
        "null_type" => Type::Null,
        "string" => Type::String,
        "google.protobuf.Timestamp" => Type::Timestamp,
        "type" => Type::type_of(Type::Dyn),
        "uint" => Type::Uint,
        "optional_type" => Type::optional(Type::Dyn),
        // registered as types by Kubernetes' IP and CIDR libraries (`cel.Types`)
        "net.IP" | "net.CIDR" => Type::opaque(name),
        _ => return None,
    })
}

/// How a comprehension step updates its accumulator in place.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum InPlace {
    /// `accu + [elems]`.
    Append,
    /// `cel.@mapInsert(accu, key, value)` or `cel.@mapInsert(accu, map)`.
    MapInsert,
}

/// The calls updating the accumulator that form a comprehension's step (see
/// `Program::appends`).
fn append_steps(c: &Comprehension) -> Vec<(Id, InPlace)> {
    let in_place = |e: &Expr| match &e.kind {
        ExprKind::Call {
            target: None,
            function,
            args,
        } if function == "_+_"
            && matches!(
                args.as_slice(),
                [Expr { kind: ExprKind::Ident(n), .. }, Expr { kind: ExprKind::List { .. }, .. }]
                    if *n == c.accu_var
            ) =>
        {
            Some(InPlace::Append)
        }
        ExprKind::Call {
            target: None,
            function,
            args,
        } if function == "cel.@mapInsert"
            && (2..=3).contains(&args.len())
            && matches!(&args[0].kind, ExprKind::Ident(n) if *n == c.accu_var) =>
        {
            Some(InPlace::MapInsert)
        }
        _ => None,
    };
    let is_accu = |e: &Expr| matches!(&e.kind, ExprKind::Ident(n) if *n == c.accu_var);
    let step = &c.loop_step;
    if let Some(kind) = in_place(step) {
        return vec![(step.id, kind)];
    }
    if let ExprKind::Call {
        target: None,
        function,
        args,
    } = &step.kind
        && function == "_?_:_"
        && let [cond, yes, no] = args.as_slice()
        && !references(cond, &c.accu_var)
    {
        if let Some(kind) = in_place(yes)
            && is_accu(no)
        {
            return vec![(yes.id, kind)];
        }
        if let Some(kind) = in_place(no)
            && is_accu(yes)
        {
            return vec![(no.id, kind)];
        }
    }
    Vec::new()
}

/// Whether `e` mentions identifier `name`.
fn references(e: &Expr, name: &str) -> bool {
    let mut found = false;
    e.walk(&mut |x| {
        if matches!(&x.kind, ExprKind::Ident(n) if n == name) {
            found = true;
        }
    });
    found
}

/// The dotted name of a chain of identifiers and field selections (`a.b.c`).
fn dotted_name(e: &Expr) -> Option<String> {
    match &e.kind {
        ExprKind::Ident(n) => Some(n.clone()),
        ExprKind::Select {
            operand,
            field,
            test_only: false,
        } => dotted_name(operand).map(|p| format!("{p}.{field}")),
        _ => None,
    }
}

impl Program {
    /// Plans `ast` against `env`: resolves each call's function and the dotted names that
    /// may name variables or types.
    pub fn new(ast: Ast, env: Arc<Env>) -> Program {
        let mut calls = IdMap::new();
        let mut dotted = IdMap::new();
        let mut appends = IdMap::new();
        let mut namespaced = IdMap::new();
        let mut fields = IdMap::new();
        // the functions this expression calls, shared between its call sites
        let mut functions: HashMap<String, Arc<Function>> = HashMap::new();
        ast.expr.walk(&mut |e| match &e.kind {
            ExprKind::Comprehension(c) => {
                for (id, kind) in append_steps(c) {
                    appends.insert(id, kind);
                }
            }
            ExprKind::Call {
                function,
                target,
                args,
            } => {
                // `sets.contains(a, b)`: a receiver that is a dotted name prefixing the
                // function's name makes a namespaced global call (cel-go's resolveFunction)
                let qualified = target
                    .as_deref()
                    .and_then(dotted_name)
                    .map(|prefix| format!("{prefix}.{function}"))
                    .filter(|q| env.functions.contains_key(q));
                let function = match qualified {
                    Some(q) => {
                        namespaced.insert(e.id, ());
                        q
                    }
                    None => function.strip_prefix('.').unwrap_or(function).to_string(),
                };
                let plan = match function.as_str() {
                    "_&&_" => CallPlan::And,
                    "_||_" => CallPlan::Or,
                    "_?_:_" => CallPlan::Conditional,
                    "@not_strictly_false" | "__not_strictly_false__" => CallPlan::NotStrictlyFalse,
                    "_?._" => CallPlan::OptionalSelect,
                    "_[?_]" => CallPlan::OptionalIndex,
                    "_[_]" => CallPlan::Index,
                    "or" | "orValue"
                        if target.is_some()
                            && args.len() == 1
                            && env.functions.contains_key(function.as_str()) =>
                    {
                        CallPlan::OptionalOr {
                            value: function == "orValue",
                        }
                    }
                    name => match functions.get(name) {
                        Some(f) => CallPlan::Function(f.clone()),
                        None => match env.functions.get(name) {
                            Some(f) => {
                                let f = Arc::new(f.clone());
                                functions.insert(name.to_string(), f.clone());
                                CallPlan::Function(f)
                            }
                            None => CallPlan::Unknown,
                        },
                    },
                };
                calls.insert(e.id, plan);
            }
            ExprKind::Select {
                field, test_only, ..
            } => {
                fields.insert(e.id, Key::String(field.as_str().into()));
                if *test_only {
                    return;
                }
                if let Some(name) = dotted_name(e) {
                    // With declared variables, only declared names (and type names) can
                    // resolve; without, any name may be in the activation.
                    if env.variables.is_empty()
                        || env.variables.contains_key(&name)
                        || type_ident(&name).is_some()
                    {
                        dotted.insert(e.id, name);
                    }
                }
            }
            _ => {}
        });
        Program {
            ast,
            env,
            calls,
            dotted,
            fields,
            appends,
            namespaced,
            checked_overloads: None,
        }
    }

    /// Plans a checked expression: calls dispatch among the overloads the checker left and
    /// are metered by the overload it resolved (cel-go plans checked expressions so).
    pub fn checked(checked: &Checked, env: Arc<Env>) -> Program {
        let mut program = Program::new(checked.ast.clone(), env);
        let ids: HashMap<Id, Vec<String>> = checked
            .references
            .iter()
            .filter_map(|(id, r)| match r {
                Reference::Overloads(ids) => Some((*id, ids.clone())),
                Reference::Variable(_) => None,
            })
            .collect();
        // an `or`/`orValue` the checker resolved to another library's overload is an
        // ordinary call (cel-go decorates only the optional overloads)
        for (id, ids) in &ids {
            if let Some(CallPlan::OptionalOr { value }) = program.calls.get(*id)
                && let [only] = ids.as_slice()
                && only
                    != if *value {
                        "optional_orValue_value"
                    } else {
                        "optional_or_optional"
                    }
            {
                let name = if *value { "orValue" } else { "or" };
                let plan = match program.env.functions.get(name) {
                    Some(f) => CallPlan::Function(Arc::new(f.clone())),
                    None => CallPlan::Unknown,
                };
                program.calls.insert(*id, plan);
            }
        }
        // each call dispatches among the overloads the checker left, filtered once here
        // rather than by id at every call
        for (id, list) in &ids {
            if list.is_empty() {
                continue;
            }
            if let Some(CallPlan::Function(f)) = program.calls.get(*id) {
                let filtered = Function {
                    name: f.name.clone(),
                    overloads: f
                        .overloads
                        .iter()
                        .filter(|o| list.contains(&o.id))
                        .cloned()
                        .collect(),
                };
                program
                    .calls
                    .insert(*id, CallPlan::Function(Arc::new(filtered)));
            }
        }
        let mut overloads = IdMap::new();
        for (id, list) in ids {
            overloads.insert(id, list);
        }
        program.checked_overloads = Some(overloads);
        program
    }

    /// [`Program::checked`], failing as cel-go's `env.Program` does when a library
    /// rejects the expression while building the program: a `find`/`findAll` pattern that
    /// is a string literal and does not compile (Kubernetes' regex optimisations). The error
    /// is Go's `regexp` text (`error parsing regexp: unexpected ): `)``); the API server
    /// reports it as `compile error: program instantiation failed: ` followed by it.
    pub fn try_checked(checked: &Checked, env: Arc<Env>) -> Result<Program, Error> {
        if let Some(message) = super::k8s::regex::program_error(&checked.ast.expr) {
            return Err(Error::new(message));
        }
        Ok(Program::checked(checked, env))
    }

    /// The expression this program evaluates.
    pub fn ast(&self) -> &Ast {
        &self.ast
    }

    /// The environment it was planned against.
    pub fn env(&self) -> &Arc<Env> {
        &self.env
    }

    /// Evaluates the expression: its value, or the error cel-go would report (an error value
    /// that nothing absorbed, or the cost limit).
    pub fn eval(&self, activation: &dyn Activation, tracker: &mut Tracker) -> Result<Value, Error> {
        let mut ev = Eval {
            program: self,
            activation,
            tracker,
            locals: Vec::new(),
            args: Vec::new(),
        };
        match ev.eval(&self.ast.expr) {
            Ok(v) => Ok(v),
            Err(Stop::Err(e) | Stop::Abort(e)) => Err(e),
        }
    }
}

struct Eval<'p, 'a, 't> {
    program: &'p Program,
    activation: &'a dyn Activation,
    tracker: &'t mut Tracker,
    /// Comprehension variables, innermost last; values may be errors (an `all` whose
    /// accumulator became an error keeps iterating).
    locals: Vec<(&'p str, Local<'p>)>,
    /// The evaluated arguments of the calls under way, innermost last.
    args: Vec<Value>,
}

/// A comprehension variable's value.
enum Local<'p> {
    /// A value (or an error value).
    Ready(Result<Value, Error>),
    /// An accumulator not read yet: its initializer, evaluated in the scope outside the
    /// comprehension when first read. cel-go's folder initialises the accumulator lazily,
    /// so an initializer never read (`cel.bind(x, 1/0, true)`) is neither evaluated nor
    /// charged.
    Lazy(&'p Expr),
}

/// Whether a runtime value may be passed where `ty` is declared (cel-go's
/// `IsAssignableRuntimeType`: lists and maps are checked by their first element).
pub fn matches_type(ty: &Type, v: &Value) -> bool {
    match (ty, v) {
        (Type::Dyn | Type::Param(_), _) => true,
        (Type::Null, Value::Null)
        | (Type::Bool, Value::Bool(_))
        | (Type::Int, Value::Int(_))
        | (Type::Uint, Value::Uint(_))
        | (Type::Double, Value::Double(_))
        | (Type::String, Value::String(_))
        | (Type::Bytes, Value::Bytes(_))
        | (Type::Timestamp, Value::Timestamp(_))
        | (Type::Duration, Value::Duration(_))
        | (Type::Type(_), Value::Type(_)) => true,
        (Type::List(e), Value::List(l)) => l.items.first().is_none_or(|x| matches_type(e, x)),
        (Type::Map(k, vt), Value::Map(m)) => m.entries.iter().next().is_none_or(|(key, val)| {
            matches_type(k, &Value::from(key.clone())) && matches_type(vt, val)
        }),
        (Type::Object(o), Value::Map(m)) => m.object.as_ref().is_none_or(|mo| mo.name == o.name),
        (Type::Opaque(name, _), Value::Optional(_)) => &**name == super::types::OPTIONAL,
        (Type::Opaque(name, _), Value::Opaque(o)) => &**name == o.type_name(),
        _ => false,
    }
}

/// Functions the standard library binds as one implementation for all overloads (cel-go's
/// singleton bindings), with the value types that have the trait the implementation needs.
/// A first argument without the trait fails with `no such overload: FN`; one with it but
/// mismatched other arguments with `no such overload`.
fn singleton_trait(function: &str) -> Option<&'static [&'static str]> {
    const NUMBERS: &[&str] = &["int", "uint", "double"];
    Some(match function {
        "_+_" => &[
            "int",
            "uint",
            "double",
            "string",
            "bytes",
            "list",
            "google.protobuf.Timestamp",
            "google.protobuf.Duration",
        ],
        "_-_" => &[
            "int",
            "uint",
            "double",
            "google.protobuf.Timestamp",
            "google.protobuf.Duration",
        ],
        "_*_" | "_/_" => NUMBERS,
        "_%_" => &["int", "uint"],
        "-_" => &["int", "double", "google.protobuf.Duration"],
        "_<_" | "_<=_" | "_>_" | "_>=_" => &[
            "bool",
            "int",
            "uint",
            "double",
            "string",
            "bytes",
            "google.protobuf.Timestamp",
            "google.protobuf.Duration",
        ],
        "size" => &["string", "bytes", "list", "map"],
        "matches" => &["string"],
        // no trait required: the implementation itself reports `no such overload`
        "!_" | "@in" | "type" | "dyn" | "_==_" | "_!=_" => &[],
        _ => return None,
    })
}

/// Meters a call. An error result stands as `null`: the prices that look at a result
/// (its size) see 1 for both, as cel-go's `actualSize` does for an error.
fn charge(
    tracker: &mut Tracker,
    call: &Expr,
    overload: &str,
    args: &[Value],
    result: &R,
) -> Result<(), Stop> {
    let null = Value::Null;
    let r = match result {
        Ok(v) => v,
        Err(_) => &null,
    };
    tracker
        .call_expr(call, overload, args, r)
        .map_err(Stop::Abort)
}

/// Go's `%T` of a CEL value, as cel-go's comprehension errors show it.
fn go_type(v: &Value) -> String {
    match v {
        Value::Null => "types.Null".into(),
        Value::Bool(_) => "types.Bool".into(),
        Value::Int(_) => "types.Int".into(),
        Value::Uint(_) => "types.Uint".into(),
        Value::Double(_) => "types.Double".into(),
        Value::String(_) => "types.String".into(),
        Value::Bytes(_) => "types.Bytes".into(),
        Value::Timestamp(_) => "types.Timestamp".into(),
        Value::Duration(_) => "types.Duration".into(),
        Value::Type(_) => "*types.Type".into(),
        Value::Optional(_) => "*types.Optional".into(),
        Value::List(_) => "*types.baseList".into(),
        Value::Map(_) => "*types.baseMap".into(),
        Value::Opaque(o) => o.type_name().to_string(),
    }
}

impl<'p> Eval<'p, '_, '_> {
    fn node(&mut self, e: &Expr) -> Result<(), Stop> {
        self.tracker.node(e).map_err(Stop::Abort)
    }

    /// Meters a call (`null` standing for an error result).
    fn charge_call(
        &mut self,
        call: &Expr,
        overload: &str,
        args: &[Value],
        result: &R,
    ) -> Result<(), Stop> {
        charge(self.tracker, call, overload, args, result)
    }

    /// The overload id a call is metered by: the checker's when it resolved one (empty when
    /// it left several, as cel-go prices dynamically dispatched calls by name), else the one
    /// dispatch picked.
    fn metered_overload(&self, call: Id, dispatched: &'p str) -> &'p str {
        let program: &'p Program = self.program;
        match &program.checked_overloads {
            Some(ids) => match ids.get(call) {
                Some(list) if list.len() == 1 => &list[0],
                _ => "",
            },
            None => dispatched,
        }
    }

    /// The slot of the innermost comprehension variable named `name`.
    fn local_slot(&self, name: &str) -> Option<usize> {
        self.locals.iter().rposition(|(n, _)| *n == name)
    }

    /// Evaluates a lazy accumulator's initializer, in the scope outside its comprehension.
    fn force(&mut self, slot: usize) -> Result<(), Stop> {
        let Some((_, Local::Lazy(init))) = self.locals.get(slot) else {
            return Ok(());
        };
        let init = *init;
        // the macros' initializers (`true`, `0`, `[]`, `{}`) read no variable: evaluated
        // in place; others below the comprehension's variables
        let closed = match &init.kind {
            ExprKind::Literal(_) => true,
            ExprKind::List { elements, .. } => elements.is_empty(),
            ExprKind::Map { entries } => entries.is_empty(),
            _ => false,
        };
        let r = if closed {
            self.eval(init)
        } else {
            let inner = self.locals.split_off(slot);
            let r = self.eval(init);
            self.locals.extend(inner);
            r
        };
        let value = match r {
            Ok(v) => Ok(v),
            Err(Stop::Err(e)) => Err(e),
            Err(abort) => return Err(abort),
        };
        if let Some(entry) = self.locals.get_mut(slot) {
            entry.1 = Local::Ready(value);
        }
        Ok(())
    }

    /// Resolves a (possibly dotted) name: comprehension variables, then the activation,
    /// then type names.
    fn resolve_name(&mut self, name: &str) -> Option<R> {
        if let Some(slot) = self.local_slot(name) {
            if let Err(abort) = self.force(slot) {
                return Some(Err(abort));
            }
            return match self.locals.get(slot) {
                Some((_, Local::Ready(v))) => Some(v.clone().map_err(Stop::Err)),
                _ => Some(Err(Stop::Err(Error::new(format!(
                    "no such attribute(s): {name}"
                ))))),
            };
        }
        if let Some(v) = self.activation.resolve(name) {
            return Some(Ok(v));
        }
        type_ident(name).map(|t| Ok(Value::Type(t)))
    }

    fn eval(&mut self, e: &'p Expr) -> R {
        match &e.kind {
            ExprKind::Literal(l) => {
                let v = match l {
                    Literal::Null => Value::Null,
                    Literal::Bool(b) => Value::Bool(*b),
                    Literal::Int(i) => Value::Int(*i),
                    Literal::Uint(u) => Value::Uint(*u),
                    Literal::Double(d) => Value::Double(*d),
                    Literal::String(s) => Value::String(s.clone()),
                    Literal::Bytes(b) => Value::Bytes(b.clone()),
                };
                self.node(e)?;
                Ok(v)
            }
            ExprKind::Ident(name) => {
                let r = self.resolve_name(name).unwrap_or_else(|| {
                    Err(Stop::Err(Error::new(format!(
                        "no such attribute(s): {name}"
                    ))))
                });
                self.node(e)?;
                r
            }
            ExprKind::Select {
                operand,
                field,
                test_only,
            } => {
                if !test_only
                    && let Some(name) = self.program.dotted.get(e.id)
                    && !self.root_is_local(operand)
                    && let Some(r) = self.resolve_name(name)
                {
                    self.node(e)?;
                    return r;
                }
                let target = match self.eval_select_operand(operand, e) {
                    Ok(v) => v,
                    Err(Stop::Err(err)) => {
                        self.node(e)?;
                        return Err(Stop::Err(err));
                    }
                    Err(abort) => return Err(abort),
                };
                let program: &'p Program = self.program;
                let built;
                let key = match program.fields.get(e.id) {
                    Some(k) => k,
                    None => {
                        built = Key::String(field.as_str().into());
                        &built
                    }
                };
                let r = if *test_only {
                    presence(&target, key).map_err(Stop::Err)
                } else {
                    select(&target, field, key).map_err(Stop::Err)
                };
                self.node(e)?;
                r
            }
            ExprKind::Call {
                target,
                function,
                args,
            } => self.eval_call(e, target.as_deref(), function, args),
            ExprKind::List {
                elements,
                optional_indices,
            } => {
                let mut items = Vec::with_capacity(elements.len());
                for (i, el) in elements.iter().enumerate() {
                    let v = self.eval(el)?;
                    if optional_indices.contains(&i) {
                        match v {
                            Value::Optional(None) => continue,
                            Value::Optional(Some(v)) => items.push((*v).clone()),
                            other => {
                                return Err(Stop::Err(Error::new(format!(
                                    "cannot initialize optional list element from non-optional value {}",
                                    stdlib::display(&other)
                                ))));
                            }
                        }
                    } else {
                        items.push(v);
                    }
                }
                self.node(e)?;
                Ok(Value::list(items))
            }
            ExprKind::Map { entries } => {
                let m = self.eval_map(entries)?;
                self.node(e)?;
                Ok(m)
            }
            ExprKind::Struct { type_name, .. } => {
                self.node(e)?;
                Err(Stop::Err(Error::new(format!("unknown type: {type_name}"))))
            }
            ExprKind::Comprehension(c) => {
                let r = self.eval_comprehension(c);
                if let Err(Stop::Abort(_)) = r {
                    return r;
                }
                self.node(e)?;
                r
            }
        }
    }

    /// Whether the root identifier of a select chain is a comprehension variable (which
    /// shadows dotted names).
    fn root_is_local(&self, mut e: &Expr) -> bool {
        loop {
            match &e.kind {
                ExprKind::Ident(n) => return self.local_slot(n).is_some(),
                ExprKind::Select { operand, .. } => e = operand,
                _ => return false,
            }
        }
    }

    /// Evaluates the operand of a select; a dotted operand that resolves to nothing reports
    /// the most qualified name missing, as cel-go's maybe attributes do.
    fn eval_select_operand(&mut self, operand: &'p Expr, select: &Expr) -> R {
        match self.eval(operand) {
            Err(Stop::Err(err)) if err.message.starts_with("no such attribute(s): ") => {
                match dotted_name(select) {
                    Some(full) => Err(Stop::Err(Error::new(format!(
                        "no such attribute(s): {full}"
                    )))),
                    None => Err(Stop::Err(err)),
                }
            }
            other => other,
        }
    }

    fn eval_map(&mut self, entries: &'p [Entry]) -> R {
        let mut out = BTreeMap::new();
        for entry in entries {
            let k = self.eval(&entry.key)?;
            let v = self.eval(&entry.value)?;
            let Some(key) = k.as_key() else {
                return Err(Stop::Err(Error::new(format!(
                    "unsupported key type: {}",
                    stdlib::runtime_type_name(&k)
                ))));
            };
            if entry.optional {
                match v {
                    Value::Optional(None) => {
                        out.remove(&key);
                    }
                    Value::Optional(Some(v)) => {
                        out.insert(key, (*v).clone());
                    }
                    other => {
                        return Err(Stop::Err(Error::new(format!(
                            "cannot initialize optional entry '{}' from non-optional value {}",
                            stdlib::display(&k),
                            stdlib::display(&other)
                        ))));
                    }
                }
            } else {
                // cel-go keeps the last of repeated keys
                out.insert(key, v);
            }
        }
        Ok(Value::map(out))
    }

    fn eval_comprehension(&mut self, c: &'p Comprehension) -> R {
        let range = self.eval(&c.iter_range)?;
        let base = self.locals.len();
        self.locals.push((&c.accu_var, Local::Lazy(&c.accu_init)));
        let r = self.fold(c, &range);
        self.locals.truncate(base);
        r
    }

    fn fold(&mut self, c: &'p Comprehension, range: &Value) -> R {
        let accu_slot = self.locals.len() - 1;
        // the iteration pairs: (first variable, second variable)
        let pairs: Box<dyn Iterator<Item = (Value, Option<Value>)>> = match (range, &c.iter_var2) {
            (Value::List(l), None) => Box::new(l.items.iter().map(|v| (v.clone(), None))),
            (Value::List(l), Some(_)) => Box::new(
                l.items
                    .iter()
                    .enumerate()
                    .map(|(i, v)| (Value::Int(i as i64), Some(v.clone()))),
            ),
            (Value::Map(m), None) => {
                Box::new(m.entries.keys().map(|k| (Value::from(k.clone()), None)))
            }
            (Value::Map(m), Some(_)) => Box::new(
                m.entries
                    .iter()
                    .map(|(k, v)| (Value::from(k.clone()), Some(v.clone()))),
            ),
            (other, None) => {
                return Err(Stop::Err(Error::new(format!(
                    "got '{}', expected iterable type",
                    go_type(other)
                ))));
            }
            (other, Some(_)) => {
                return Err(Stop::Err(Error::new(format!(
                    "unsupported comprehension range type: {}",
                    go_type(other)
                ))));
            }
        };
        let vars = self.locals.len();
        for (v1, v2) in pairs {
            self.locals.truncate(vars);
            self.locals.push((&c.iter_var, Local::Ready(Ok(v1))));
            if let (Some(name), Some(v2)) = (&c.iter_var2, v2) {
                self.locals.push((name, Local::Ready(Ok(v2))));
            }
            match self.eval(&c.loop_cond) {
                Ok(Value::Bool(true)) => {}
                Ok(Value::Bool(false)) => break,
                Ok(_) | Err(Stop::Err(_)) => {}
                Err(abort) => return Err(abort),
            }
            let step = match self.eval(&c.loop_step) {
                Ok(v) => Ok(v),
                Err(Stop::Err(e)) => Err(e),
                Err(abort) => return Err(abort),
            };
            self.locals[accu_slot].1 = Local::Ready(step);
        }
        self.locals.truncate(vars);
        self.eval(&c.result)
    }

    fn eval_call(
        &mut self,
        e: &'p Expr,
        target: Option<&'p Expr>,
        function: &str,
        args: &'p [Expr],
    ) -> R {
        let target = if self.program.namespaced.contains_key(e.id) {
            None
        } else {
            target
        };
        let program: &'p Program = self.program;
        let Some(plan) = program.calls.get(e.id) else {
            return Err(Stop::Err(Error::new(format!(
                "no such overload: {function}"
            ))));
        };
        match plan {
            CallPlan::And | CallPlan::Or => {
                let is_and = matches!(plan, CallPlan::And);
                let mut err: Option<Error> = None;
                for arg in target.into_iter().chain(args) {
                    match self.eval(arg) {
                        Ok(Value::Bool(b)) if b != is_and => {
                            let r = Ok(Value::Bool(b));
                            self.charge_call(e, "", &[], &r)?;
                            return r;
                        }
                        Ok(Value::Bool(_)) => {}
                        Ok(_) => {
                            err.get_or_insert_with(Error::no_such_overload);
                        }
                        Err(Stop::Err(e)) => {
                            err.get_or_insert(e);
                        }
                        Err(abort) => return Err(abort),
                    }
                }
                let r = match err {
                    Some(e) => Err(Stop::Err(e)),
                    None => Ok(Value::Bool(is_and)),
                };
                self.charge_call(e, "", &[], &r)?;
                r
            }
            CallPlan::Conditional => {
                let [cond, yes, no] = args else {
                    return Err(Stop::Err(Error::no_such_overload()));
                };
                let r = match self.eval(cond)? {
                    Value::Bool(true) => self.eval(yes),
                    Value::Bool(false) => self.eval(no),
                    _ => Err(Stop::Err(Error::no_such_overload())),
                };
                if let Err(Stop::Abort(_)) = r {
                    return r;
                }
                self.charge_call(e, "", &[], &r)?;
                r
            }
            CallPlan::NotStrictlyFalse => {
                let arg = args.first().or(target);
                let v = match arg.map(|a| self.eval(a)) {
                    Some(Ok(Value::Bool(b))) => Value::Bool(b),
                    Some(Err(Stop::Abort(e))) => return Err(Stop::Abort(e)),
                    _ => Value::Bool(true),
                };
                let r = Ok(v);
                self.charge_call(e, "not_strictly_false", &[], &r)?;
                r
            }
            CallPlan::OptionalSelect | CallPlan::OptionalIndex | CallPlan::Index => {
                let [operand, key] = args else {
                    return Err(Stop::Err(Error::no_such_overload()));
                };
                let container = self.eval(operand)?;
                let key = self.eval(key)?;
                let r = match plan {
                    CallPlan::OptionalSelect => optional_select(&container, &key),
                    CallPlan::OptionalIndex => optional_index(&container, &key),
                    _ => index(&container, &key),
                }
                .map_err(Stop::Err);
                let overload = match (plan, &container) {
                    (CallPlan::Index, Value::List(_)) => "index_list",
                    (CallPlan::Index, Value::Map(_)) => "index_map",
                    _ => "",
                };
                let overload = self.metered_overload(e.id, overload);
                self.charge_call(e, overload, &[container, key], &r)?;
                r
            }
            CallPlan::OptionalOr { value } => {
                let (Some(lhs), [rhs]) = (target, args) else {
                    return Err(Stop::Err(Error::no_such_overload()));
                };
                let lhs = self.eval(lhs)?;
                let r = match lhs {
                    Value::Optional(Some(inner)) if *value => Ok((*inner).clone()),
                    Value::Optional(None) => self.eval(rhs),
                    other => Ok(other),
                };
                if let Err(Stop::Abort(_)) = r {
                    return r;
                }
                self.tracker.uncharged_step();
                r
            }
            CallPlan::Unknown => {
                let mut vals = Vec::with_capacity(args.len() + 1);
                for a in target.into_iter().chain(args) {
                    vals.push(self.eval(a)?);
                }
                Err(Stop::Err(Error::new(format!(
                    "no such overload: {function}"
                ))))
            }
            CallPlan::Function(f) => {
                if let Some(kind) = self.program.appends.get(e.id).copied()
                    && let Some(r) = self.update_in_place(e, kind, args)
                {
                    return r;
                }
                // the arguments go on a stack shared by all calls (no allocation per call);
                // nested calls pop theirs before the next argument is pushed
                let base = self.args.len();
                let r = self.call_function(e, f, target, args, base);
                self.args.truncate(base);
                r
            }
        }
    }

    /// Evaluates the arguments of a call of `f` onto `self.args` above `base`, then
    /// dispatches and meters the call.
    fn call_function(
        &mut self,
        e: &'p Expr,
        f: &'p Function,
        target: Option<&'p Expr>,
        args: &'p [Expr],
        base: usize,
    ) -> R {
        let mut first_err: Option<Stop> = None;
        let n = args.len() + usize::from(target.is_some());
        for a in target.into_iter().chain(args) {
            match self.eval(a) {
                Ok(v) => self.args.push(v),
                Err(Stop::Abort(e)) => return Err(Stop::Abort(e)),
                Err(err) => {
                    // an error stands as `null` for the tracker: both have size 1
                    self.args.push(Value::Null);
                    // cel-go evaluates both operands of a binary call before
                    // reporting the first error; longer calls stop at it
                    if first_err.is_none() {
                        first_err = Some(err);
                    }
                    if n != 2 {
                        break;
                    }
                }
            }
        }
        if let Some(err) = first_err {
            // cel-go's cost tracker observes the failed call when every argument
            // was evaluated (`dropArgs` finds them all): binary calls always,
            // others when the failing argument is the last
            let r = Err(err);
            if self.args.len() - base == n {
                let overload = self.metered_overload(e.id, "");
                charge(self.tracker, e, overload, &self.args[base..], &r)?;
            }
            return r;
        }
        // a checked program's functions hold only the checker's candidates
        let vals = &self.args[base..];
        let (r, overload) = dispatch(f, target.is_some(), vals, None);
        let r = r.map_err(Stop::Err);
        let overload = self.metered_overload(e.id, overload);
        charge(self.tracker, e, overload, &self.args[base..], &r)?;
        r
    }
}

impl<'p> Eval<'p, '_, '_> {
    /// A step updating the accumulator in place (`accu + [elems]`, `cel.@mapInsert(accu,
    /// …)`); `None` (nothing evaluated but the accumulator) when the accumulator is not a
    /// plain list, respectively a map.
    fn update_in_place(&mut self, call: &'p Expr, kind: InPlace, args: &'p [Expr]) -> Option<R> {
        let (lhs, rest) = args.split_first()?;
        let ExprKind::Ident(name) = &lhs.kind else {
            return None;
        };
        let slot = self.local_slot(name)?;
        if let Err(abort) = self.force(slot) {
            return Some(Err(abort));
        }
        let fits = match (&self.locals[slot].1, kind) {
            (Local::Ready(Ok(Value::List(l))), InPlace::Append) => l.kind == ListKind::Plain,
            (Local::Ready(Ok(Value::Map(_))), InPlace::MapInsert) => true,
            _ => false,
        };
        if !fits {
            return None;
        }
        Some(match (kind, rest) {
            (InPlace::Append, [rhs]) => self.append_at(slot, call, lhs, rhs),
            (InPlace::MapInsert, _) => self.insert_at(slot, call, lhs, rest),
            _ => return None,
        })
    }

    /// `cel.@mapInsert(accu, key, value)` or `cel.@mapInsert(accu, map)` inserting into the
    /// accumulator's map in place (cel-go's folder keeps a mutable map for the same reason).
    fn insert_at(&mut self, slot: usize, call: &'p Expr, lhs: &'p Expr, rest: &'p [Expr]) -> R {
        self.node(lhs)?;
        let mut vals = Vec::with_capacity(rest.len() + 1);
        vals.push(Value::Null);
        for arg in rest {
            match self.eval(arg) {
                Ok(v) => vals.push(v),
                Err(Stop::Err(err)) => {
                    let r = Err(Stop::Err(err));
                    if vals.len() == rest.len() {
                        // every argument evaluated: cel-go observes the call
                        if let Some((_, Local::Ready(Ok(accu)))) = self.locals.get(slot) {
                            vals[0] = accu.clone();
                        }
                        vals.push(Value::Null);
                        self.charge_call(call, "", &vals, &r)?;
                    }
                    return r;
                }
                Err(abort) => return Err(abort),
            }
        }
        let accu = std::mem::replace(&mut self.locals[slot].1, Local::Ready(Ok(Value::Null)));
        let Local::Ready(Ok(Value::Map(mut map))) = accu else {
            return Err(Stop::Err(Error::no_such_overload()));
        };
        let (inserted, overload) = match &vals[1..] {
            [key, value] => (
                super::ext::comprehensions::insert_in_place(&mut map, key.clone(), value.clone()),
                "@mapInsert_map_key_value",
            ),
            [Value::Map(other)] => (
                other.entries.iter().try_for_each(|(k, v)| {
                    super::ext::comprehensions::insert_in_place(
                        &mut map,
                        Value::from(k.clone()),
                        v.clone(),
                    )
                }),
                "@mapInsert_map_map",
            ),
            _ => (Err(Error::no_such_overload()), ""),
        };
        let result = Value::Map(map);
        let r = inserted.map(|()| result.clone()).map_err(Stop::Err);
        vals[0] = result;
        let overload = self.metered_overload(call.id, overload);
        self.charge_call(call, overload, &vals, &r)?;
        drop(vals);
        r
    }

    fn append_at(&mut self, slot: usize, call: &'p Expr, lhs: &'p Expr, rhs: &'p Expr) -> R {
        self.node(lhs)?;
        let rhs = self.eval(rhs)?;
        let Value::List(extra) = &rhs else {
            return Err(Stop::Err(Error::no_such_overload()));
        };
        let accu = std::mem::replace(&mut self.locals[slot].1, Local::Ready(Ok(Value::Null)));
        let Local::Ready(Ok(Value::List(mut list))) = accu else {
            return Err(Stop::Err(Error::no_such_overload()));
        };
        // the accumulator is not shared once taken out of its slot: no copy
        Arc::make_mut(&mut list)
            .items
            .extend(extra.items.iter().cloned());
        let result = Value::List(list);
        let r = Ok(result.clone());
        // the left operand is the list after the append, as in cel-go, whose mutable
        // accumulator is the same object before and after (`add_list` costs 1 whatever
        // the sizes)
        let overload = self.metered_overload(call.id, "add_list");
        self.charge_call(call, overload, &[result, rhs.clone()], &r)?;
        r
    }
}

/// Calls the first overload of `f` whose declared parameter types accept `args` (any
/// arguments of the right number for an unguarded overload, see [`Overload::guarded`];
/// receiver style first; among `allowed`, the checker's candidates, when given); cel-go's messages
/// when none does.
pub fn dispatch<'f>(
    f: &'f Function,
    member: bool,
    args: &[Value],
    allowed: Option<&[String]>,
) -> (Result<Value, Error>, &'f str) {
    let candidates = |style: Option<bool>| {
        f.overloads.iter().find(|o: &&Overload| {
            o.imp.is_some()
                && allowed.is_none_or(|ids| ids.is_empty() || ids.contains(&o.id))
                && style.is_none_or(|m| o.member == m)
                && o.params.len() == args.len()
                && (!o.guarded || o.params.iter().zip(args).all(|(t, v)| matches_type(t, v)))
        })
    };
    if let Some(o) = candidates(Some(member)).or_else(|| candidates(None))
        && let Some(imp) = &o.imp
    {
        return (imp(args), &o.id);
    }
    (Err(no_overload_error(f, args)), "")
}

fn no_overload_error(f: &Function, args: &[Value]) -> Error {
    if let Some(with_trait) = singleton_trait(&f.name) {
        let first = args.first().map(stdlib::runtime_type_name);
        if with_trait.is_empty() || first.is_some_and(|t| with_trait.contains(&t.as_str())) {
            return Error::no_such_overload();
        }
        return Error::new(format!("no such overload: {}", f.name));
    }
    let types: Vec<String> = args.iter().map(stdlib::runtime_type_name).collect();
    Error::new(format!(
        "no such overload: {}({})",
        f.name,
        types.join(", ")
    ))
}

/// `target.field` (`key` is the field as a map key): a map's entry (`no such key: field`);
/// optional targets propagate.
fn select(target: &Value, field: &str, key: &Key) -> Result<Value, Error> {
    match target {
        Value::Map(m) => m
            .entries
            .get(key)
            .cloned()
            .ok_or_else(|| Error::new(format!("no such key: {field}"))),
        Value::Optional(None) => Ok(Value::Optional(None)),
        Value::Optional(Some(inner)) => optional_select_value(inner, key),
        Value::List(_) => Err(string_list_index()),
        _ => Err(Error::new(format!("no such key: {field}"))),
    }
}

/// A field name used on a list: cel-go tries it as a list index.
fn string_list_index() -> Error {
    Error::new("unsupported index type 'string' in list")
}

/// Selection under an optional: a missing field gives `optional.none()`.
fn optional_select_value(target: &Value, key: &Key) -> Result<Value, Error> {
    Ok(match target {
        Value::Map(m) => match m.entries.get(key) {
            Some(v) => Value::Optional(Some(Arc::new(v.clone()))),
            None => Value::Optional(None),
        },
        Value::List(_) => return Err(string_list_index()),
        _ => Value::Optional(None),
    })
}

/// `has(target.field)`.
fn presence(target: &Value, key: &Key) -> Result<Value, Error> {
    Ok(Value::Bool(match target {
        Value::Map(m) => m.entries.contains_key(key),
        Value::Optional(Some(inner)) => return presence(inner, key),
        Value::List(_) => return Err(string_list_index()),
        _ => false,
    }))
}

/// `target.?field`.
fn optional_select(target: &Value, field: &Value) -> Result<Value, Error> {
    let Value::String(name) = field else {
        return Err(Error::no_such_overload());
    };
    let key = Key::String(name.clone());
    match target {
        Value::Optional(None) => Ok(Value::Optional(None)),
        Value::Optional(Some(inner)) => optional_select_value(inner, &key),
        other => optional_select_value(other, &key),
    }
}

/// `target[?key]`.
fn optional_index(target: &Value, key: &Value) -> Result<Value, Error> {
    check_qualifier(key)?;
    let inner = match target {
        Value::Optional(None) => return Ok(Value::Optional(None)),
        Value::Optional(Some(inner)) => inner.as_ref(),
        other => other,
    };
    let found = match inner {
        Value::List(l) => {
            let i = stdlib::list_index(key)?;
            usize::try_from(i)
                .ok()
                .and_then(|i| l.items.get(i))
                .cloned()
        }
        Value::Map(m) => stdlib::map_find(m, key).cloned(),
        _ => None,
    };
    Ok(Value::Optional(found.map(Arc::new)))
}

/// cel-go's qualifiers: only strings, ints, uints, bools and doubles index.
fn check_qualifier(key: &Value) -> Result<(), Error> {
    match key {
        Value::String(_) | Value::Int(_) | Value::Uint(_) | Value::Bool(_) | Value::Double(_) => {
            Ok(())
        }
        other => Err(Error::new(format!(
            "invalid qualifier type: {}",
            go_type(other)
        ))),
    }
}

/// `target[key]`, optional targets propagating.
fn index(target: &Value, key: &Value) -> Result<Value, Error> {
    check_qualifier(key)?;
    match target {
        Value::Optional(None) => Ok(Value::Optional(None)),
        Value::Optional(Some(_)) => optional_index(target, key),
        other => stdlib::index(&[other.clone(), key.clone()]),
    }
}

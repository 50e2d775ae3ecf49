//! One `x-kubernetes-validations` entry compiled once per schema, as the API server compiles
//! it (apiextensions-apiserver `pkg/apiserver/schema/cel/compilation.go`): parsed and
//! type-checked by [`crate::cel`] against the type its schema node declares ([`Decl`]), `self`
//! and `oldSelf` declared (`oldSelf` optional for `optionalOldSelf` rules), required to be a
//! bool (a `messageExpression` a string), and its cost estimated from the schema's bounds.
//! A rule that does not compile keeps its error, which validation reports on every object
//! as crossplane does (`rule compile error: compilation failed: ERROR: …`).

use crate::cel::checker::{self, Checked, Reference};
use crate::cel::cost::{self, MAX_REQUEST_SIZE_BYTES, SizeEstimate, SizeEstimator};
use crate::cel::env::Env;
use crate::cel::interp::Program;
use crate::cel::types::Type;
use serde_json::Value as Json;
use std::sync::{Arc, OnceLock};

/// One compiled rule.
#[derive(Clone)]
pub struct Rule {
    /// `rule`.
    pub rule: String,
    /// `message`.
    pub message: Option<String>,
    /// `messageExpression`.
    pub message_expression: Option<String>,
    /// `fieldPath`.
    pub field_path: Option<String>,
    /// `reason`.
    pub reason: Option<String>,
    /// `optionalOldSelf` as given (`false` included: the API server refuses either without
    /// `oldSelf`).
    pub optional_old_self_given: Option<bool>,
    /// The program, or the API server's words for why there is none
    /// (`compilation failed: ERROR: <input>:1:6: …`).
    pub(super) program: Result<Arc<Program>, String>,
    /// `messageExpression` compiled, or why it could not be.
    pub(super) message_program: Option<Result<Arc<Program>, String>>,
    /// Whether the rule refers to `oldSelf` (a transition rule).
    pub transition: bool,
    /// The estimated cost of one evaluation (cel-go's estimate, the API server's size bounds).
    pub max_cost: u64,
    /// The estimated cost of the `messageExpression`.
    pub message_max_cost: u64,
    /// How many values the rule may run on in one object, from the least size of its
    /// node's values (the API server's `maxCardinality`).
    pub max_cardinality: u64,
}

impl std::fmt::Debug for Rule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Rule").field("rule", &self.rule).finish()
    }
}

/// The name the type of `self` is given (the API server adds a number that changes with
/// every compilation).
pub const SELF_TYPE: &str = "selfType";

/// The API server's parser settings, without `cel.bind` (apiserver v0.35 does not enable
/// `ext.Bindings`, so `cel.bind(…)` is an unknown function there).
fn parser_options() -> &'static crate::cel::parser::Options {
    static OPTIONS: OnceLock<crate::cel::parser::Options> = OnceLock::new();
    OPTIONS.get_or_init(|| crate::cel::parser::Options {
        bind_macro: false,
        ..crate::cel::parser::Options::kubernetes()
    })
}

/// Every library the API server enables, built once.
fn base() -> &'static Env {
    static BASE: OnceLock<Env> = OnceLock::new();
    BASE.get_or_init(Env::kubernetes)
}

impl Rule {
    /// Reads one `x-kubernetes-validations` entry of an untyped node (`self` is `dyn`).
    pub fn compile(json: &Json) -> Result<Rule, String> {
        Rule::compile_for(json, &Type::Dyn, &NoSizes, 2)
    }

    /// Reads one `x-kubernetes-validations` entry of a node whose values are of type
    /// `self_type`, sized by `sizes` (paths from `self`), the least serialised size of its
    /// values `min_size`.
    pub fn compile_for(
        json: &Json,
        self_type: &Type,
        sizes: &dyn SizeEstimator,
        min_size: i64,
    ) -> Result<Rule, String> {
        let text = |key: &str| json.get(key).and_then(Json::as_str).map(str::to_string);
        let rule = text("rule").ok_or("a validation rule needs `rule`")?;
        let optional_old_self_given = json.get("optionalOldSelf").and_then(Json::as_bool);
        let optional_old_self = optional_old_self_given == Some(true);
        let self_type = self_type.clone();
        let mut env = base().clone();
        env.variable("self", self_type.clone());
        env.variable(
            "oldSelf",
            if optional_old_self {
                Type::optional(self_type)
            } else {
                self_type
            },
        );
        let env = Arc::new(env);
        let mut transition = false;
        let mut max_cost = 0;
        let program = match compile_expression(&rule, &env, Type::Bool) {
            Ok(checked) => {
                transition = checked
                    .references
                    .values()
                    .any(|r| *r == Reference::Variable("oldSelf".into()));
                max_cost = cost::estimate(&checked, sizes).max;
                Program::try_checked(&checked, env.clone())
                    .map(Arc::new)
                    .map_err(|e| format!("program instantiation failed: {e}"))
            }
            Err(Failure::Issues(text)) => Err(format!("compilation failed: {text}")),
            Err(Failure::Type) => Err("cel expression must evaluate to a bool".into()),
        };
        let message_expression = text("messageExpression");
        let mut message_max_cost = 0;
        let message_program =
            message_expression.as_deref().map(|source| {
                match compile_expression(source, &env, Type::String) {
                    Ok(checked) => {
                        message_max_cost = cost::estimate(&checked, sizes).max;
                        Program::try_checked(&checked, env.clone())
                            .map(Arc::new)
                            .map_err(|e| format!("messageExpression instantiation failed: {e}"))
                    }
                    Err(Failure::Issues(text)) => {
                        Err(format!("messageExpression compilation failed: {text}"))
                    }
                    Err(Failure::Type) => Err("messageExpression must evaluate to a string".into()),
                }
            });
        Ok(Rule {
            transition,
            message: text("message"),
            field_path: text("fieldPath"),
            reason: text("reason"),
            optional_old_self_given,
            program,
            message_program,
            message_expression,
            rule,
            max_cost,
            message_max_cost,
            max_cardinality: MAX_REQUEST_SIZE_BYTES / (min_size.max(0) as u64 + 1),
        })
    }

    /// Whether `optionalOldSelf` is set: `oldSelf` is then an optional, empty on a create.
    pub fn optional_old_self(&self) -> bool {
        self.optional_old_self_given == Some(true)
    }

    /// Why the rule could not be compiled, if it could not.
    pub fn compile_error(&self) -> Option<&str> {
        self.program.as_ref().err().map(String::as_str)
    }

    /// Why the `messageExpression` could not be compiled, if it could not.
    pub fn message_compile_error(&self) -> Option<&str> {
        self.message_program
            .as_ref()
            .and_then(|p| p.as_ref().err())
            .map(String::as_str)
    }
}

enum Failure {
    /// cel-go's issues, as `Issues.String()` prints them.
    Issues(String),
    /// The expression is not of the type wanted.
    Type,
}

/// Parses and checks `source`; its type must be `want` (or `dyn`, which cel-go's
/// `OutputType() != BoolType` comparison refuses too, so only `want` itself passes).
fn compile_expression(source: &str, env: &Env, want: Type) -> Result<Checked, Failure> {
    super::guard::roomy(|| compile_unguarded(source, env, want))
}

fn compile_unguarded(source: &str, env: &Env, want: Type) -> Result<Checked, Failure> {
    let ast = crate::cel::parser::parse_with(source, parser_options())
        .map_err(|i| Failure::Issues(i.to_string()))?;
    let checked = checker::check(&ast, env).map_err(|i| Failure::Issues(i.to_string()))?;
    if checked.types.get(&checked.ast.expr.id) != Some(&want) {
        return Err(Failure::Type);
    }
    Ok(checked)
}

/// No size known (an untyped node).
struct NoSizes;

impl SizeEstimator for NoSizes {
    fn estimate_size(&self, _path: &[String], _ty: &Type) -> Option<SizeEstimate> {
        None
    }
}

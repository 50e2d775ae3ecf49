//! The scope of a composition's top level, for evaluating expressions against it
//! (`fnhcl eval --hcl`): `req`, the top-level locals, and `invoke` with the user functions.

use super::userfn::UserFunctions;
use super::{Failure, fail, parse_program, process_locals};
use crate::diagnostics::Diagnostic;
use crate::eval::proto::RunFunctionRequest;
use crate::eval::scope::Scope;
use crate::eval::value::Value;
use crate::eval::vars;
use crate::source::{FileId, SourceMap};
use std::collections::BTreeMap;

/// A loaded top level.
pub struct Console {
    user: UserFunctions,
    variables: BTreeMap<String, Value>,
    /// The warnings of the top-level locals (a local that failed is unknown).
    pub warnings: Vec<Diagnostic>,
}

impl Console {
    /// Loads the program in `files` (already in `map`) with `req` built from `request`;
    /// fails as function-hcl would before processing its blocks.
    pub fn load(
        map: &SourceMap,
        files: &[FileId],
        request: &RunFunctionRequest,
    ) -> Result<Console, Failure> {
        let program = parse_program(map, files)?;
        let user = UserFunctions::load(
            &program.functions,
            super::userfn::function_sources(&program.functions, map),
        )
        .map_err(fail)?;
        let mut variables = BTreeMap::new();
        variables.insert("req".to_string(), vars::build_req(request));
        let root = Scope::root(user.table());
        let top = root.child(variables.clone());
        let (scope, warnings) = process_locals(map, &top, &program.top.locals).map_err(fail)?;
        // The locals' map gains `req` (a local of the same name keeps its value, as when
        // the locals were added to `req`'s map): one insertion, not one per local.
        let mut all = scope.variables;
        for (name, value) in variables {
            all.entry(name).or_insert(value);
        }
        Ok(Console {
            user,
            variables: all,
            warnings,
        })
    }

    /// function-hcl's static checks of `invoke` calls in an expression of `file`.
    pub fn check_invokes(
        &self,
        map: &SourceMap,
        expr: &crate::syntax::ast::Expr,
        file: FileId,
    ) -> Vec<Diagnostic> {
        self.user.check_invokes(map, expr, file)
    }

    /// Calls `f` with the top-level scope and the locals' warnings. The console is used up:
    /// its locals move into the scope instead of being copied (a copy of every local's value
    /// for one expression).
    pub fn with_scope<R>(self, f: impl FnOnce(&Scope, &[Diagnostic]) -> R) -> R {
        let Console {
            user,
            variables,
            warnings,
        } = self;
        let root = Scope::root(user.table());
        let scope = root.child(variables);
        f(&scope, &warnings)
    }
}

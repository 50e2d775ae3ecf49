//! Runs expressions end to end: `parser::parse`, `checker::check`, then `interp::Program` over
//! [`Env::kubernetes`] (the standard library, cel-go's extensions and the Kubernetes
//! libraries), with no variables and no cost limit.

use crate::cel::cost::Tracker;
use crate::cel::env::Env;
use crate::cel::interp::Program;
use crate::cel::value::{Error, Value};
use std::collections::HashMap;
use std::sync::{Arc, LazyLock};

static ENV: LazyLock<Arc<Env>> = LazyLock::new(|| Arc::new(Env::kubernetes()));

/// Parses and evaluates `text`.
pub fn eval(text: &str) -> Result<Value, Error> {
    let ast = crate::cel::parser::parse(text).map_err(|e| Error::new(format!("parse: {e}")))?;
    let checked =
        crate::cel::checker::check(&ast, &ENV).map_err(|e| Error::new(format!("check: {e}")))?;
    let program = Program::new(checked.ast, ENV.clone());
    program.eval(&HashMap::<String, Value>::new(), &mut Tracker::new(None))
}

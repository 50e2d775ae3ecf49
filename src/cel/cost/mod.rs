//! cel-go's cost model as the API server uses it (placeholder until the cost work lands):
//! [`Tracker`] meters one evaluation; the static estimate comes later.

use super::ast::Expr;
use super::value::{Error, Value};

/// cel-go's message when the runtime cost limit is passed.
pub const LIMIT_EXCEEDED: &str = "operation cancelled: actual cost limit exceeded";

/// Meters one evaluation. The interpreter calls [`Tracker::node`] after evaluating every
/// node that is not a call and [`Tracker::call`] after every call (operators included).
#[derive(Clone, Debug, Default)]
pub struct Tracker {
    spent: u64,
    limit: Option<u64>,
}

impl Tracker {
    /// A tracker stopping evaluation past `limit` units.
    pub fn new(limit: Option<u64>) -> Tracker {
        Tracker { spent: 0, limit }
    }

    /// The units spent so far.
    pub fn spent(&self) -> u64 {
        self.spent
    }

    fn charge(&mut self, units: u64) -> Result<(), Error> {
        self.spent = self.spent.saturating_add(units);
        match self.limit {
            Some(limit) if self.spent > limit => Err(Error::new(LIMIT_EXCEEDED)),
            _ => Ok(()),
        }
    }

    /// After evaluating a node that is not a call.
    pub fn node(&mut self, _expr: &Expr) -> Result<(), Error> {
        self.charge(1)
    }

    /// After a call of `function` resolved to `overload` (its id; empty for calls the
    /// interpreter implements itself, such as `_&&_`).
    pub fn call(
        &mut self,
        _function: &str,
        _overload: &str,
        _args: &[Value],
        _result: &Value,
    ) -> Result<(), Error> {
        self.charge(1)
    }
}

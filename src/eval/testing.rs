//! Value builders shared by the evaluator's unit tests.

use crate::eval::num::Num;
use crate::eval::value::Value;

/// A number from its decimal text.
pub(crate) fn num(text: &str) -> Value {
    Value::Number(Num::parse(text).unwrap())
}

/// A string value.
pub(crate) fn s(text: &str) -> Value {
    Value::string(text)
}

/// An object of the given attributes.
pub(crate) fn obj(attrs: &[(&str, Value)]) -> Value {
    Value::Object(
        attrs
            .iter()
            .map(|(k, v)| (k.to_string(), v.clone()))
            .collect::<std::collections::BTreeMap<_, _>>()
            .into(),
    )
}

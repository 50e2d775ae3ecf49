//! function-hcl's own error texts, in one place: the evaluator reports them when a block
//! fails, and `check`'s probe reports the same texts when it finds a block that always fails.

use crate::gostd::strconv::quote;

/// The Ready enum names function-hcl accepts, sorted as its message lists them.
pub(crate) const READY_VALUES: [&str; 3] = ["READY_FALSE", "READY_TRUE", "READY_UNSPECIFIED"];

/// A group's condition of the wrong type.
pub(crate) const GROUP_CONDITION: &str = "unable to evaluate condition";

/// A resource's condition of the wrong type.
pub(crate) fn resource_condition(name: &str) -> String {
    format!("unable to evaluate condition for resource {name}")
}

/// A collection's condition of the wrong type.
pub(crate) fn collection_condition(base: &str) -> String {
    format!("unable to evaluate condition for resource collection {base}")
}

/// What is wrong with a condition that is not a bool (the detail behind the above).
pub(crate) fn condition_type(friendly_type: &str) -> String {
    format!("got type {friendly_type}, expected bool")
}

/// What to do about a condition that is not a bool.
pub(crate) const CONDITION_HELP: &str = "a `condition` must be true or false: compare (`xr.spec.tier == \"prod\"`), convert (`tobool(x)`), or give a default (`try(x, false)`)";

/// A null condition (a Go panic; see docs/compatibility.md).
pub(crate) const CONDITION_NULL: &str = "condition is null, expected true or false";

/// A collection without a template.
pub(crate) fn no_template(base: &str) -> String {
    format!("no template block for resource collection {base}")
}

/// A collection with several templates.
pub(crate) fn multiple_templates(base: &str) -> String {
    format!("multiple template blocks for resource collection {base}")
}

/// A `for_each` that failed to evaluate.
pub(crate) fn for_each_failed(base: &str) -> String {
    format!("unable to evaluate for_each for resource collection {base}")
}

/// A `for_each` that cannot be iterated.
pub(crate) fn no_iterations(base: &str) -> String {
    format!("unable to extract iterations for resource collection {base}")
}

/// A member name expression that failed to evaluate.
pub(crate) fn name_failed(base: &str) -> String {
    format!("unable to evaluate name expression for resource collection {base}")
}

/// A member name that is not a string.
pub(crate) fn name_not_string(base: &str) -> String {
    format!(
        "name produced from evaluating the name expression for collection {base} was not a string"
    )
}

/// Two resources of one name.
pub(crate) fn duplicate_resource(name: &str) -> String {
    format!("duplicate resource {}", quote(name))
}

/// A resource body that does not convert to a protobuf Struct.
pub(crate) fn body_not_struct(name: &str) -> String {
    format!("unable to convert resource body to struct: {name}")
}

/// A `ready` value that is not a string.
pub(crate) fn ready_not_string(name: &str) -> String {
    format!("attribute \"value\" not a string in ready block for {name}")
}

/// A `ready` value outside the enum.
pub(crate) fn ready_invalid(name: &str) -> String {
    format!(
        "attribute \"value\" does not have a valid value in ready block for {name}, must be one of {}",
        quote(&READY_VALUES.join(", "))
    )
}

/// A status (or connection) body that is not an object (`kind` as `json.Unmarshal` names it).
pub(crate) fn status_not_object(kind: &str) -> String {
    format!(
        "error unmarshaling cty value: json: cannot unmarshal {kind} into Go value of type map[string]interface {{}}"
    )
}

/// A `composite` label other than `status` and `connection`.
pub(crate) fn composite_label(label: &str) -> String {
    format!("invalid composite label: {label}")
}

/// A connection value that is not a string (`go_type` is Go's `%T`).
pub(crate) fn connection_not_string(key: &str, go_type: &str) -> String {
    format!(
        "connection key {} was not a string, got {go_type}",
        quote(key)
    )
}

/// A context key that failed to evaluate.
pub(crate) const CONTEXT_KEY_FAILED: &str = "unable to evaluate context key";

/// A context key that is not a string.
pub(crate) fn context_key_not_string(friendly_type: &str) -> String {
    format!("context key was not a string, got {friendly_type}")
}

/// Status blocks that do not merge (`error` is `unify`'s).
pub(crate) fn status_conflict(error: &str) -> String {
    format!("unify composite status: {error}")
}

/// Context blocks that do not merge (`error` is `unify`'s).
pub(crate) fn context_conflict(error: &str) -> String {
    format!("unify context: {error}")
}

/// Connection blocks with different values for one key.
pub(crate) fn connection_conflict(key: &str) -> String {
    format!("unify composite connection: values for key {key} not equal")
}

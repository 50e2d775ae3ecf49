//! What the API server refuses in a CRD's schema outside its CEL rules, when the CRD is
//! created (apiextensions `pkg/apis/apiextensions/validation/validation.go`): a `pattern` Go's
//! `regexp` cannot compile. `crossplane beta validate` checks no CRD and reports the pattern on
//! every value it applies to; these findings say once, at load, that a cluster would not take
//! the CRD at all.

use super::node::{Additional, Node};
use crate::source::gostr::quote;

/// Each refusal as `PATH: MESSAGE`, `PATH` from `openAPIV3Schema`, in the API server's words.
pub fn findings(root: &Node) -> Vec<String> {
    let mut out = Vec::new();
    walk(root, "openAPIV3Schema", &mut out);
    out
}

fn walk(node: &Node, path: &str, out: &mut Vec<String>) {
    if let Some(pattern) = &node.pattern
        && let Err(error) = &pattern.regex
    {
        out.push(format!(
            "{path}.pattern: Invalid value: {}: must be a valid regular expression, but isn't: {error}",
            quote(&pattern.source)
        ));
    }
    for (key, child) in &node.properties {
        walk(child, &format!("{path}.properties[{key}]"), out);
    }
    if let Additional::Schema(values) = &node.additional {
        walk(values, &format!("{path}.additionalProperties"), out);
    }
    if let Some(items) = &node.items {
        walk(items, &format!("{path}.items"), out);
    }
    for (key, list) in [
        ("allOf", &node.all_of),
        ("anyOf", &node.any_of),
        ("oneOf", &node.one_of),
    ] {
        for (i, child) in list.iter().enumerate() {
            walk(child, &format!("{path}.{key}[{i}]"), out);
        }
    }
    if let Some(not) = &node.not {
        walk(not, &format!("{path}.not"), out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// apiextensions v0.35 validation_test.go, "invalid regex pattern" shape.
    #[test]
    fn an_invalid_pattern_is_refused_once_with_go_s_error() {
        let node = Node::compile(&json!({
            "type": "object",
            "properties": {"spec": {"type": "object", "properties": {
                "x": {"type": "string", "pattern": "(abc"},
                "y": {"type": "string", "pattern": "^a+$"}
            }}}
        }))
        .unwrap();
        assert_eq!(
            findings(&node),
            vec![
                "openAPIV3Schema.properties[spec].properties[x].pattern: Invalid value: \"(abc\": must be a valid regular expression, but isn't: error parsing regexp: missing closing ): `(abc`"
                    .to_string()
            ]
        );
    }
}

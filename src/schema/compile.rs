//! A schema compiled in two passes: the tree read ([`Node::parse`]), then each node's CEL
//! rules compiled against the type its finished subtree declares ([`super::decl`]), children
//! before parents. Kept apart from `node` so that the tree does not depend on the rules'
//! typing, which depends on the tree.

use super::decl;
use super::node::{Additional, Node, SchemaError};
use super::rule::{Rule, SELF_TYPE};
use serde_json::Value as Json;

impl Node {
    /// Compiles an `openAPIV3Schema`, the root a resource's (typed with `apiVersion`, `kind`
    /// and `metadata` for its rules).
    pub fn compile(json: &Json) -> Result<Node, SchemaError> {
        let mut node = Node::parse(json)?;
        compile_rules(&mut node, true);
        Ok(node)
    }
}

/// Compiles the rules of `node` and of every node below it.
fn compile_rules(node: &mut Node, root: bool) {
    for child in node.properties.values_mut() {
        compile_rules(child, false);
    }
    if let Additional::Schema(values) = &mut node.additional {
        compile_rules(values, false);
    }
    if let Some(items) = &mut node.items {
        compile_rules(items, false);
    }
    for child in node
        .all_of
        .iter_mut()
        .chain(&mut node.any_of)
        .chain(&mut node.one_of)
        .chain(node.not.as_deref_mut())
    {
        compile_rules(child, false);
    }
    if node.rule_sources.is_empty() {
        return;
    }
    let declared = decl::of(node, root || node.embedded_resource, SELF_TYPE);
    node.rules = node
        .rule_sources
        .iter()
        .filter_map(|source| match declared.as_deref() {
            Some(d) => Rule::compile_for(source, &d.ty, d, d.min_size).ok(),
            // A node without a CEL type: `self` is `dyn`, no size known.
            None => Rule::compile(source).ok(),
        })
        .collect();
}

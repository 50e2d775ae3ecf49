//! Documentation shown in hovers and completion: the built-in functions, the blocks and
//! attributes of function-hcl.

/// A one-paragraph description of a built-in function (Markdown), as Terraform 1.5.7 and
/// function-hcl define it.
pub(super) fn function_doc(_name: &str) -> Option<&'static str> {
    None
}

/// What a block type is for (Markdown).
pub(super) fn block_doc(_kind: &str) -> Option<&'static str> {
    None
}

/// What an attribute of a block type is for (Markdown); `block` is `None` at the top level.
pub(super) fn attribute_doc(_block: Option<&str>, _name: &str) -> Option<&'static str> {
    None
}

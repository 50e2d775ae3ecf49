//! The pieces a template's content is split into before its directives are matched up
//! (hclsyntax's template tokens): shared by the template parser and the parser that keeps a
//! list of them for reuse.

use super::ast::{Expr, TextRange};

/// A piece of a template's content before the directives are matched up.
pub(super) enum Part {
    Literal {
        value: String,
        span: TextRange,
    },
    Interp {
        expr: Expr,
        span: TextRange,
    },
    If {
        condition: Expr,
        span: TextRange,
    },
    For {
        key: Option<String>,
        value: String,
        collection: Expr,
        span: TextRange,
    },
    EndCtrl {
        kind: Ctrl,
        span: TextRange,
    },
    End {
        span: TextRange,
    },
}

#[derive(Clone, Copy, PartialEq, Eq)]
/// A directive that closes or continues an open one.
pub(super) enum Ctrl {
    EndIf,
    Else,
    EndFor,
}

impl Ctrl {
    pub(super) fn name(self) -> &'static str {
        match self {
            Ctrl::EndIf => "endif",
            Ctrl::Else => "else",
            Ctrl::EndFor => "endfor",
        }
    }
}

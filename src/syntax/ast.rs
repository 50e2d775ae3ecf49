//! The syntax tree: hclsyntax's node types, with a byte range on every node.
//!
//! Shapes follow Go's `hclsyntax` (a template's parts, `TemplateWrapExpr`, traversals with
//! steps, splats with an anonymous item), because evaluation must follow Go's rules. Bodies keep
//! attributes and blocks in source order.

pub use crate::source::Text;
use std::ops::Range;

/// A byte range in the parsed file.
pub type TextRange = Range<u32>;

/// The range from the start of `a` to the end of `b` (hcl's `RangeBetween`).
pub fn between(a: &TextRange, b: &TextRange) -> TextRange {
    a.start..b.end.max(a.start)
}

/// A body: the top level of a file, or the inside of a block.
#[derive(Debug, Clone, PartialEq)]
pub struct Body {
    /// Attributes, in source order (a redefined one is reported and dropped).
    pub attributes: Vec<Attribute>,
    /// Blocks, in source order.
    pub blocks: Vec<Block>,
    /// From the opening brace (or file start) to the closing brace (or end).
    pub span: TextRange,
    /// Zero-width range at the end of the body (where hcl reports missing arguments... at the
    /// opening brace, see [`Block::open_brace`]).
    pub end: TextRange,
}

/// `name = expr`.
#[derive(Debug, Clone, PartialEq)]
pub struct Attribute {
    /// The name.
    pub name: String,
    /// The whole definition.
    pub span: TextRange,
    /// The name.
    pub name_span: TextRange,
    /// The `=`.
    pub equals: TextRange,
    /// The value.
    pub expr: Expr,
}

/// `type label… { body }`.
#[derive(Debug, Clone, PartialEq)]
pub struct Block {
    /// The block type (`resource`).
    pub kind: String,
    /// The block type's range.
    pub kind_span: TextRange,
    /// Labels, bare or quoted.
    pub labels: Vec<Label>,
    /// The content.
    pub body: Body,
    /// The `{` (the type's range when the block is malformed).
    pub open_brace: TextRange,
    /// The `}`.
    pub close_brace: TextRange,
}

impl Block {
    /// From the block type to the closing brace.
    pub fn span(&self) -> TextRange {
        between(&self.kind_span, &self.close_brace)
    }

    /// hcl's `DefRange`: the type and labels, up to the last label (or the type).
    pub fn def_range(&self) -> TextRange {
        match self.labels.last() {
            Some(label) => between(&self.kind_span, &label.span),
            None => self.kind_span.clone(),
        }
    }
}

/// A block label.
#[derive(Debug, Clone, PartialEq)]
pub struct Label {
    /// Its value (unquoted).
    pub value: String,
    /// Its range, quotes included.
    pub span: TextRange,
    /// Whether it was written in quotes.
    pub quoted: bool,
}

// A program's tree is mostly expressions (each local of the 4,000-locals benchmark is a
// dozen of them, most in argument lists): their size is most of the memory a large program
// takes, so it is kept from growing. Names are boxed strings and argument lists boxed
// slices (8 bytes less each than `String` and `Vec`), which makes 80 bytes 64.
const _: () = assert!(std::mem::size_of::<Expr>() <= 64);

/// An expression with its range.
#[derive(Debug, Clone, PartialEq)]
pub struct Expr {
    /// What it is.
    pub kind: ExprKind,
    /// Where.
    pub span: TextRange,
}

/// A literal value in the tree.
#[derive(Debug, Clone, PartialEq)]
pub enum Literal {
    /// `null`.
    Null,
    /// `true` / `false`.
    Bool(bool),
    /// A number, as written (parsed by the evaluator at full precision).
    Number(Text),
    /// A string (template literal parts, string index keys).
    String(String),
    /// The placeholder hcl puts where a syntax error was (`cty.DynamicVal`).
    Unknown,
}

/// Binary operators, by precedence group (lowest first in hcl's table).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BinaryOp {
    /// `||`
    Or,
    /// `&&`
    And,
    /// `==`
    Equal,
    /// `!=`
    NotEqual,
    /// `>`
    GreaterThan,
    /// `>=`
    GreaterThanOrEqual,
    /// `<`
    LessThan,
    /// `<=`
    LessThanOrEqual,
    /// `+`
    Add,
    /// `-`
    Subtract,
    /// `*`
    Multiply,
    /// `/`
    Divide,
    /// `%`
    Modulo,
}

/// Unary operators.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnaryOp {
    /// `-x`
    Negate,
    /// `!x`
    Not,
}

/// One step of a traversal.
#[derive(Debug, Clone, PartialEq)]
pub enum Step {
    /// `.name`
    Attr {
        /// The attribute.
        name: String,
        /// `.name`'s range.
        span: TextRange,
    },
    /// `[literal]` or legacy `.0`.
    Index {
        /// The key.
        key: Literal,
        /// The brackets' range.
        span: TextRange,
    },
}

/// A `key = value` item of an object constructor.
#[derive(Debug, Clone, PartialEq)]
pub struct ObjectItem {
    /// The key (a bare name is a traversal that the evaluator reads as a string unless
    /// `force_non_literal`).
    pub key: Expr,
    /// The key was written in parentheses, so a bare name is a variable.
    pub force_non_literal: bool,
    /// The value.
    pub value: Expr,
}

/// A `for` expression.
#[derive(Debug, Clone, PartialEq)]
pub struct ForExpr {
    /// The key variable (`k` in `for k, v in`), if any.
    pub key_var: Option<String>,
    /// The value variable.
    pub value_var: String,
    /// The collection.
    pub collection: Expr,
    /// The key expression (`k => …`), objects only.
    pub key: Option<Box<Expr>>,
    /// The value expression.
    pub value: Expr,
    /// The `if` filter.
    pub condition: Option<Box<Expr>>,
    /// `...` grouping.
    pub group: bool,
    /// Builds an object (`{ for … }`) rather than a tuple.
    pub object: bool,
}

impl Expr {
    /// The range of an [`ExprKind::QuotedLiteral`]'s text, inside the quotes: hcl's range of
    /// the template's literal part (for `""`, empty at the closing quote's end).
    pub fn quoted_text_span(&self) -> TextRange {
        let TextRange { start, end } = self.span;
        if end.saturating_sub(start) > 2 {
            start + 1..end - 1
        } else {
            end..end
        }
    }

    /// The text of a string without interpolations, and the range of that text (inside the
    /// quotes): a [`ExprKind::QuotedLiteral`], a template of one literal part, or a literal
    /// string.
    pub fn plain_string(&self) -> Option<(&str, TextRange)> {
        match &self.kind {
            ExprKind::Literal(Literal::String(s)) => Some((s, self.span.clone())),
            ExprKind::QuotedLiteral(s) => Some((s, self.quoted_text_span())),
            ExprKind::Template(parts) => match parts.as_slice() {
                [part] => match &part.kind {
                    ExprKind::Literal(Literal::String(s)) => Some((s, part.span.clone())),
                    _ => None,
                },
                _ => None,
            },
            _ => None,
        }
    }

    /// Calls `f` on each direct child expression, in source order (hclsyntax's
    /// `walkChildNodes`). A [`ExprKind::QuotedLiteral`]'s text is not an expression of its own.
    pub fn for_each_child<'e>(&'e self, mut f: impl FnMut(&'e Expr)) {
        match &self.kind {
            ExprKind::Literal(_)
            | ExprKind::QuotedLiteral(_)
            | ExprKind::Traversal { .. }
            | ExprKind::SplatItem
            | ExprKind::Error => {}
            ExprKind::Template(parts) | ExprKind::Tuple(parts) => parts.iter().for_each(f),
            ExprKind::Call { args, .. } => args.iter().for_each(f),
            ExprKind::TemplateWrap(inner)
            | ExprKind::TemplateJoin(inner)
            | ExprKind::Parens(inner)
            | ExprKind::RelativeTraversal { source: inner, .. } => f(inner),
            ExprKind::Unary { operand, .. } => f(operand),
            ExprKind::Conditional {
                condition,
                if_true,
                if_false,
            } => {
                f(condition);
                f(if_true);
                f(if_false);
            }
            ExprKind::Binary { lhs, rhs, .. } => {
                f(lhs);
                f(rhs);
            }
            ExprKind::Object(items) => {
                for item in items {
                    f(&item.key);
                    f(&item.value);
                }
            }
            ExprKind::For(e) => {
                f(&e.collection);
                if let Some(key) = &e.key {
                    f(key);
                }
                f(&e.value);
                if let Some(cond) = &e.condition {
                    f(cond);
                }
            }
            ExprKind::Index {
                collection, key, ..
            } => {
                f(collection);
                f(key);
            }
            ExprKind::Splat { source, each, .. } => {
                f(source);
                f(each);
            }
        }
    }
}

/// Expression forms, as hclsyntax's node types.
#[derive(Debug, Clone, PartialEq)]
pub enum ExprKind {
    /// `LiteralValueExpr`.
    Literal(Literal),
    /// `TemplateExpr`: literal and interpolated parts joined.
    Template(Vec<Expr>),
    /// A quoted string of plain text, `"abc"` or `""`: hcl's `TemplateExpr` of one
    /// `LiteralValueExpr` part, kept as one node with the (decoded) text (most strings are
    /// this). The part's range is [`Expr::quoted_text_span`].
    QuotedLiteral(Text),
    /// `TemplateWrapExpr`: a template that is exactly one interpolation, `"${x}"`.
    TemplateWrap(Box<Expr>),
    /// `TemplateJoinExpr`: a `%{for}` directive (wraps a `For`).
    TemplateJoin(Box<Expr>),
    /// `ScopeTraversalExpr`: a variable and steps.
    Traversal {
        /// The variable.
        root: Box<str>,
        /// The variable's range.
        root_span: TextRange,
        /// The steps after it.
        steps: Vec<Step>,
    },
    /// `RelativeTraversalExpr`: steps applied to any expression.
    RelativeTraversal {
        /// What the steps apply to.
        source: Box<Expr>,
        /// The steps.
        steps: Vec<Step>,
    },
    /// `FunctionCallExpr`.
    Call {
        /// The function (with `ns::` prefixes).
        name: Box<str>,
        /// The name's range.
        name_span: TextRange,
        /// The `(` (hcl's `OpenParenRange`; a call's `StartRange` ends there).
        open_paren: TextRange,
        /// Arguments.
        args: Box<[Expr]>,
        /// The last argument was written `x...`.
        expand_final: bool,
    },
    /// `ConditionalExpr` (also `%{if}` directives).
    Conditional {
        /// The predicate.
        condition: Box<Expr>,
        /// The true result.
        if_true: Box<Expr>,
        /// The false result.
        if_false: Box<Expr>,
    },
    /// `BinaryOpExpr`.
    Binary {
        /// The operator.
        op: BinaryOp,
        /// Left operand.
        lhs: Box<Expr>,
        /// Right operand.
        rhs: Box<Expr>,
    },
    /// `UnaryOpExpr`.
    Unary {
        /// The operator.
        op: UnaryOp,
        /// The operand.
        operand: Box<Expr>,
        /// The operator symbol's range.
        symbol: TextRange,
    },
    /// `TupleConsExpr`.
    Tuple(Vec<Expr>),
    /// `ObjectConsExpr`.
    Object(Vec<ObjectItem>),
    /// `ForExpr`.
    For(Box<ForExpr>),
    /// `IndexExpr`: `collection[key]` with a non-literal key.
    Index {
        /// The collection.
        collection: Box<Expr>,
        /// The key.
        key: Box<Expr>,
        /// The brackets' range.
        bracket: TextRange,
    },
    /// `SplatExpr`: `source.*.each` or `source[*].each`.
    Splat {
        /// The collection.
        source: Box<Expr>,
        /// What to evaluate per element (in terms of [`ExprKind::SplatItem`]).
        each: Box<Expr>,
        /// The `.*` or `[*]`.
        marker: TextRange,
    },
    /// `AnonSymbolExpr`: the current element inside a splat's `each`.
    SplatItem,
    /// `ParenthesesExpr`.
    Parens(Box<Expr>),
    /// A placeholder where the parser found a syntax error.
    Error,
}

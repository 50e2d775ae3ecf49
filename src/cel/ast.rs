//! The expression tree after parsing and macro expansion, in cel-go's shape: operators are
//! calls of `_+_`, `_&&_`, `_[_]`, `_?_:_`, `@in`, `_?._` (optional select), `_[?_]`
//! (optional index) and so on; macros are expanded into [`Comprehension`]s and `has()`
//! into a test-only [`ExprKind::Select`]. Every node has an id unique in its [`Ast`].

use std::collections::HashMap;
use std::sync::Arc;

/// A node id, unique within one [`Ast`] (cel-go numbers nodes from 1).
pub type Id = i64;

/// A literal constant.
#[derive(Clone, Debug, PartialEq)]
pub enum Literal {
    /// `null`
    Null,
    /// `true`, `false`
    Bool(bool),
    /// `1`, `-1`, `0x1f`
    Int(i64),
    /// `1u`
    Uint(u64),
    /// `1.5`, `1e3`
    Double(f64),
    /// `'text'`, `"text"`, `r'raw'`, `'''multi'''`
    String(Arc<str>),
    /// `b'bytes'`
    Bytes(Arc<[u8]>),
}

/// One node.
#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    /// Its id.
    pub id: Id,
    /// What it is.
    pub kind: ExprKind,
}

/// The kinds of node.
#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    /// A literal.
    Literal(Literal),
    /// A name: a variable, a type name (`int`), or a dotted name the checker resolves.
    Ident(String),
    /// `operand.field`; `test_only` for `has(operand.field)`.
    Select {
        /// The value selected from.
        operand: Box<Expr>,
        /// The field.
        field: String,
        /// Whether this is a presence test (`has()`).
        test_only: bool,
    },
    /// A function call, `target.function(args)` when `target` is set (receiver style).
    Call {
        /// The receiver of a member call.
        target: Option<Box<Expr>>,
        /// The function name (operators as cel-go names them: `_+_`, `!_`, `-_`…).
        function: String,
        /// The arguments.
        args: Vec<Expr>,
    },
    /// `[a, ?b]`: `optional_indices` lists the elements written with `?`.
    List {
        /// The elements.
        elements: Vec<Expr>,
        /// Indices of optional elements.
        optional_indices: Vec<usize>,
    },
    /// `{k: v, ?k2: v2}`.
    Map {
        /// The entries.
        entries: Vec<Entry>,
    },
    /// `Type{field: value}`: the entry keys are string literals naming the fields.
    Struct {
        /// The message type name as written.
        type_name: String,
        /// The field initialisers.
        fields: Vec<Entry>,
    },
    /// A comprehension, the expansion of a macro.
    Comprehension(Box<Comprehension>),
}

/// One entry of a map or struct literal.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    /// The entry's id.
    pub id: Id,
    /// The key (for a struct, a string literal naming the field).
    pub key: Expr,
    /// The value.
    pub value: Expr,
    /// Whether written `?key: value`.
    pub optional: bool,
}

/// cel-go's comprehension: for each element of `iter_range` (bound to `iter_var`, or the
/// index/key to `iter_var` and the value to `iter_var2` in two-variable comprehensions),
/// while `loop_cond` holds, `accu_var` = `loop_step`; then `result`.
#[derive(Clone, Debug, PartialEq)]
pub struct Comprehension {
    /// The iteration variable (the key or index with two variables).
    pub iter_var: String,
    /// The second iteration variable (the value) of a two-variable comprehension.
    pub iter_var2: Option<String>,
    /// What is iterated.
    pub iter_range: Expr,
    /// The accumulator variable (`@result` in cel-go's macros).
    pub accu_var: String,
    /// The accumulator's initial value.
    pub accu_init: Expr,
    /// The condition checked before each step.
    pub loop_cond: Expr,
    /// The accumulator's next value.
    pub loop_step: Expr,
    /// The comprehension's value.
    pub result: Expr,
}

/// Where nodes are in the text.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SourceInfo {
    /// The expression's text.
    pub text: Arc<str>,
    /// The byte offset of each node (the start cel-go reports errors at).
    pub offsets: HashMap<Id, usize>,
    /// For a node that is a macro's expansion, the call as written (cel-go's macro calls).
    pub macro_calls: HashMap<Id, Expr>,
}

impl SourceInfo {
    /// The 1-based line and 0-based column, in code points, of a byte offset (cel-go's
    /// `common.Location`).
    pub fn location(&self, offset: usize) -> (usize, usize) {
        let before = &self.text[..offset.min(self.text.len())];
        let line = before.matches('\n').count() + 1;
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        (line, before[line_start..].chars().count())
    }

    /// The location of a node, if known.
    pub fn location_of(&self, id: Id) -> Option<(usize, usize)> {
        self.offsets.get(&id).map(|&o| self.location(o))
    }
}

/// A parsed expression.
#[derive(Clone, Debug, PartialEq)]
pub struct Ast {
    /// The root.
    pub expr: Expr,
    /// Positions.
    pub source: SourceInfo,
}

impl Expr {
    /// Visits this node and every node below it, parents first.
    pub fn walk<'a>(&'a self, visit: &mut dyn FnMut(&'a Expr)) {
        visit(self);
        match &self.kind {
            ExprKind::Literal(_) | ExprKind::Ident(_) => {}
            ExprKind::Select { operand, .. } => operand.walk(visit),
            ExprKind::Call { target, args, .. } => {
                if let Some(t) = target {
                    t.walk(visit);
                }
                for a in args {
                    a.walk(visit);
                }
            }
            ExprKind::List { elements, .. } => {
                for e in elements {
                    e.walk(visit);
                }
            }
            ExprKind::Map { entries }
            | ExprKind::Struct {
                fields: entries, ..
            } => {
                for e in entries {
                    e.key.walk(visit);
                    e.value.walk(visit);
                }
            }
            ExprKind::Comprehension(c) => {
                c.iter_range.walk(visit);
                c.accu_init.walk(visit);
                c.loop_cond.walk(visit);
                c.loop_step.walk(visit);
                c.result.walk(visit);
            }
        }
    }
}

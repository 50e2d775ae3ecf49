//! What the editor analysis answers with: plain data over byte offsets into a file's text,
//! paths and Markdown. No protocol types here: `lsp` turns these into LSP's positions (lines
//! and UTF-16 columns), URIs and messages.

use std::ops::Range;
use std::path::PathBuf;

/// A byte range of one file's text replaced by `new_text`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TextEdit {
    /// What is replaced (byte offsets; empty to insert).
    pub range: Range<usize>,
    /// What replaces it.
    pub new_text: String,
}

/// A byte range in a file on disk (or an open document).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileRange {
    /// The file.
    pub path: PathBuf,
    /// The byte range in its text.
    pub range: Range<usize>,
}

/// Edits to one or more files, by path, in the order they were found.
pub type SourceChange = Vec<(PathBuf, Vec<TextEdit>)>;

/// What a completion offers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CompletionKind {
    /// A built-in or user function.
    Function,
    /// A resource, collection or requirement name.
    Reference,
    /// A member of an object (`each.key`, a request field, a function argument).
    Field,
    /// `req`, `self`, `each`.
    Module,
    /// A local or an argument.
    Variable,
    /// An attribute of a block or a field of a body.
    Property,
    /// A block type.
    Keyword,
    /// One of a field's `enum` values or a boolean.
    EnumMember,
    /// A known `apiVersion` or `kind`.
    Value,
}

/// One completion item.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Completion {
    /// What the list shows.
    pub label: String,
    /// What it is.
    pub kind: CompletionKind,
    /// A short note beside the label (a type, "user function").
    pub detail: Option<String>,
    /// Markdown documentation.
    pub documentation: Option<String>,
    /// What is inserted instead of the label.
    pub insert_text: Option<String>,
    /// Whether `insert_text` is a snippet (`$0`, `${1:name}` placeholders).
    pub snippet: bool,
    /// How the item sorts instead of by its label.
    pub sort_text: Option<String>,
    /// What the typed text is matched against instead of the label.
    pub filter_text: Option<String>,
    /// The written text the item replaces, when it replaces any.
    pub edit: Option<TextEdit>,
}

impl Completion {
    /// An item with a label and a kind, nothing else.
    pub fn new(label: impl Into<String>, kind: CompletionKind) -> Completion {
        Completion {
            label: label.into(),
            kind,
            detail: None,
            documentation: None,
            insert_text: None,
            snippet: false,
            sort_text: None,
            filter_text: None,
            edit: None,
        }
    }
}

/// What hover shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HoverInfo {
    /// Markdown.
    pub markdown: String,
    /// The hovered word or field (byte offsets).
    pub range: Range<usize>,
}

/// Signature help: the call's function, its parameters and the one being written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SignatureHelp {
    /// `name(param type, …)`.
    pub label: String,
    /// Markdown documentation.
    pub documentation: Option<String>,
    /// Each parameter as written in the label.
    pub parameters: Vec<String>,
    /// The index of the parameter at the cursor.
    pub active: usize,
}

/// Whether an occurrence of a name defines it or reads it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HighlightKind {
    /// Its definition.
    Write,
    /// A use.
    Read,
}

/// What a document symbol is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SymbolKind {
    /// A local.
    Variable,
    /// A user function.
    Function,
    /// A resource.
    Object,
    /// A collection (`resources`).
    Array,
    /// A group.
    Namespace,
    /// `composite`.
    Struct,
    /// `context`.
    Field,
    /// A requirement.
    Interface,
}

/// A named part of a file, nested as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Symbol {
    /// What the outline shows.
    pub name: String,
    /// What it is.
    pub kind: SymbolKind,
    /// All of it.
    pub range: Range<usize>,
    /// Its name or header.
    pub selection: Range<usize>,
    /// What it holds (a group's blocks); `None` for what cannot hold any.
    pub children: Option<Vec<Symbol>>,
}

/// A foldable run of lines (0-based line numbers, the end line included).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fold {
    /// The first line.
    pub start_line: u32,
    /// The last line.
    pub end_line: u32,
    /// Whether it is a run of comment lines.
    pub comment: bool,
}

/// One semantically coloured token.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token {
    /// Where it is (byte offsets).
    pub start: usize,
    /// Where it ends.
    pub end: usize,
    /// Its index in [`crate::ide::symbols::TOKEN_TYPES`].
    pub kind: u32,
    /// Its modifiers as bits of [`crate::ide::symbols::TOKEN_MODIFIERS`].
    pub modifiers: u32,
}

/// A live value's note on a block: its outcome for the example.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BlockNote {
    /// The start of the block's header line.
    pub start: usize,
    /// The end of that line (blanks trimmed): where an inlay hint goes.
    pub end: usize,
    /// One line: renders, discarded and why, fails.
    pub title: String,
    /// Markdown with more (a tooltip); `None` when the title says everything.
    pub tooltip: Option<String>,
}

/// Whether a code action fixes a finding or acts on the whole file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ActionKind {
    /// A quick fix of a finding.
    QuickFix,
    /// A source action (format the file).
    Source,
}

impl ActionKind {
    /// The protocol's name of the kind (`quickfix`, `source`), which a client's `only` filter
    /// matches by prefix.
    pub fn as_str(self) -> &'static str {
        match self {
            ActionKind::QuickFix => "quickfix",
            ActionKind::Source => "source",
        }
    }
}

/// A code action: edits to the file, for a finding or for the file.
#[derive(Clone, Debug, PartialEq)]
pub struct Action {
    /// What the menu shows.
    pub title: String,
    /// What kind.
    pub kind: ActionKind,
    /// The finding it fixes.
    pub fixes: Option<crate::diagnostics::Diagnostic>,
    /// Whether the editor may apply it as the preferred fix; `None` when unsaid.
    pub preferred: Option<bool>,
    /// The edits to the file.
    pub edits: Vec<TextEdit>,
}

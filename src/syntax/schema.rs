//! The function-hcl schema: which blocks, labels and arguments may appear where — one
//! declarative table, checked the way hcl's `Body.Content` and function-hcl's analyzer check it
//! (same texts, same ranges, same stopping points).

use super::ParsedFile;
use super::ast::{Block, Body, TextRange};
use super::habits::{self, Owner};
use crate::diagnostics::suggest::name_suggestion;
use crate::diagnostics::{Code, Diagnostic};
use crate::source::{FileId, Span};
use std::collections::HashSet;

/// A block type and the labels it takes.
#[derive(Debug)]
pub struct BlockSchema {
    /// The block type.
    pub kind: &'static str,
    /// The label names (hcl prints them in "Missing name for resource").
    pub labels: &'static [&'static str],
}

/// What a body may hold. `None` in [`schema_for`] means "attributes only" (`locals`).
#[derive(Debug)]
pub struct BodySchema {
    /// Arguments and whether each is required, in hcl's order.
    pub attributes: &'static [(&'static str, bool)],
    /// Child blocks.
    pub blocks: &'static [BlockSchema],
}

const fn block(kind: &'static str, labels: &'static [&'static str]) -> BlockSchema {
    BlockSchema { kind, labels }
}

const NAME: &[&str] = &["name"];
const GROUP_BLOCKS: &[BlockSchema] = &[
    block("locals", &[]),
    block("group", &[]),
    block("resource", NAME),
    block("resources", &["baseName"]),
    block("composite", &["object"]),
    block("context", &[]),
    block("requirement", NAME),
];
const RESOURCE_BLOCKS: &[BlockSchema] = &[
    block("locals", &[]),
    block("ready", &[]),
    block("composite", &["object"]),
    block("context", &[]),
];

/// The top level of a file.
pub static TOP_LEVEL: BodySchema = BodySchema {
    attributes: &[],
    blocks: &[
        block("locals", &[]),
        block("group", &[]),
        block("resource", NAME),
        block("resources", &["baseName"]),
        block("composite", &["object"]),
        block("context", &[]),
        block("requirement", NAME),
        block("function", NAME),
    ],
};
static GROUP: BodySchema = BodySchema {
    attributes: &[("condition", false)],
    blocks: GROUP_BLOCKS,
};
static RESOURCE: BodySchema = BodySchema {
    attributes: &[("body", true), ("condition", false)],
    blocks: RESOURCE_BLOCKS,
};
static RESOURCES: BodySchema = BodySchema {
    attributes: &[("condition", false), ("for_each", true), ("name", false)],
    blocks: &[
        block("locals", &[]),
        block("composite", &["object"]),
        block("template", &[]),
        block("context", &[]),
    ],
};
static TEMPLATE: BodySchema = BodySchema {
    attributes: &[("body", true)],
    blocks: RESOURCE_BLOCKS,
};
static COMPOSITE: BodySchema = BodySchema {
    attributes: &[("body", true)],
    blocks: &[block("locals", &[])],
};
static CONTEXT: BodySchema = BodySchema {
    attributes: &[("key", true), ("value", true)],
    blocks: &[block("locals", &[])],
};
static READY: BodySchema = BodySchema {
    attributes: &[("value", true)],
    blocks: &[block("locals", &[])],
};
static REQUIREMENT: BodySchema = BodySchema {
    attributes: &[("condition", false)],
    blocks: &[block("locals", &[]), block("select", &[])],
};
static SELECT: BodySchema = BodySchema {
    attributes: &[
        ("apiVersion", true),
        ("kind", true),
        ("matchName", false),
        ("matchLabels", false),
    ],
    blocks: &[],
};
static FUNCTION: BodySchema = BodySchema {
    attributes: &[("description", false), ("body", true)],
    blocks: &[block("arg", NAME), block("locals", &[])],
};
static ARG: BodySchema = BodySchema {
    attributes: &[("description", false), ("default", false)],
    blocks: &[],
};

/// The schema of a block type's body: `Some(None)` for attribute-only bodies (`locals`),
/// `None` for a type that has no schema.
pub fn schema_for(kind: &str) -> Option<Option<&'static BodySchema>> {
    Some(Some(match kind {
        "locals" => return Some(None),
        "group" => &GROUP,
        "resource" => &RESOURCE,
        "resources" => &RESOURCES,
        "template" => &TEMPLATE,
        "composite" => &COMPOSITE,
        "context" => &CONTEXT,
        "ready" => &READY,
        "requirement" => &REQUIREMENT,
        "select" => &SELECT,
        "function" => &FUNCTION,
        "arg" => &ARG,
        _ => return None,
    }))
}

struct Checker {
    file: FileId,
    resources: Vec<String>,
    collections: Vec<String>,
    requirements: Vec<String>,
    diagnostics: Vec<Diagnostic>,
    /// Whether help lines for Terraform habits apply (function-hcl's own blocks only).
    habits: bool,
}

impl Checker {
    fn new(file: FileId) -> Checker {
        Checker {
            file,
            resources: Vec::new(),
            collections: Vec::new(),
            requirements: Vec::new(),
            diagnostics: Vec::new(),
            habits: true,
        }
    }

    fn span(&self, range: &TextRange) -> Span {
        Span::of(self.file, range)
    }

    fn report(&mut self, code: Code, summary: String, detail: Option<String>, at: &TextRange) {
        let mut d = Diagnostic::new(code, summary).with_primary(self.span(at), None);
        d.detail = detail.filter(|text| !text.is_empty());
        self.diagnostics.push(d);
    }

    /// hcl's `Body.Content`: returns the blocks that matched the schema, reporting the rest.
    /// `owner` is the block whose body it is (`None` at a file's top level), for the help
    /// lines of [`habits`].
    fn content<'b>(
        &mut self,
        body: &'b Body,
        schema: &BodySchema,
        owner: Option<Owner>,
    ) -> (Vec<&'b Block>, bool) {
        let before = self.diagnostics.len();
        for (name, required) in schema.attributes {
            if *required && !body.attributes.iter().any(|a| a.name == *name) {
                let at = body.span.start..body.span.start;
                self.report(
                    Code::B103,
                    "Missing required argument".into(),
                    Some(format!(
                        "The argument {name:?} is required, but no definition was found."
                    )),
                    &at,
                );
            }
        }
        let mut matched = Vec::new();
        for block in &body.blocks {
            let Some(wanted) = schema.blocks.iter().find(|b| b.kind == block.kind) else {
                continue;
            };
            if let Some(extra) = block.labels.get(wanted.labels.len()) {
                let detail = if wanted.labels.is_empty() {
                    format!("No labels are expected for {} blocks.", block.kind)
                } else {
                    format!(
                        "Only {} labels ({}) are expected for {} blocks.",
                        wanted.labels.len(),
                        wanted.labels.join(", "),
                        block.kind
                    )
                };
                self.report(
                    Code::B104,
                    format!("Extraneous label for {}", block.kind),
                    Some(detail),
                    &extra.span,
                );
                self.help(habits::extra_label(&block.kind).map(str::to_string));
                continue;
            }
            if block.labels.len() < wanted.labels.len() {
                let summary = format!(
                    "Missing {} for {}",
                    wanted.labels[block.labels.len()],
                    block.kind
                );
                let detail = format!(
                    "All {} blocks must have {} labels ({}).",
                    block.kind,
                    wanted.labels.len(),
                    wanted.labels.join(", ")
                );
                self.report(Code::B105, summary, Some(detail), &block.open_brace);
                continue;
            }
            matched.push(block);
        }
        self.unsupported(body, schema, owner);
        (matched, self.diagnostics.len() == before)
    }

    /// Sets the help line of the diagnostic just reported.
    fn help(&mut self, help: Option<String>) {
        if let (true, Some(d), Some(help)) = (self.habits, self.diagnostics.last_mut(), help) {
            d.help = Some(help);
        }
    }

    fn unsupported(&mut self, body: &Body, schema: &BodySchema, owner: Option<Owner>) {
        // hcl suggests only arguments the body does not define yet; computed once per body.
        let defined: HashSet<&str> = body.attributes.iter().map(|a| a.name.as_str()).collect();
        let candidates: Vec<&str> = schema
            .attributes
            .iter()
            .map(|(name, _)| *name)
            .filter(|name| !defined.contains(name))
            .collect();
        for attr in &body.attributes {
            if schema.attributes.iter().any(|(name, _)| *name == attr.name) {
                continue;
            }
            let suggestion = match name_suggestion(&attr.name, &candidates) {
                Some(s) => format!(" Did you mean {s:?}?"),
                None if schema.blocks.iter().any(|b| b.kind == attr.name) => {
                    format!(" Did you mean to define a block of type {:?}?", attr.name)
                }
                None => String::new(),
            };
            let detail = format!(
                "An argument named {:?} is not expected here.{suggestion}",
                attr.name
            );
            self.report(
                Code::B101,
                "Unsupported argument".into(),
                Some(detail),
                &attr.name_span,
            );
            self.help(habits::argument(owner, &attr.name, body));
        }
        for block in &body.blocks {
            if schema.blocks.iter().any(|b| b.kind == block.kind) {
                continue;
            }
            let candidates: Vec<&str> = schema.blocks.iter().map(|b| b.kind).collect();
            let suggestion = match name_suggestion(&block.kind, &candidates) {
                Some(s) => format!(" Did you mean {s:?}?"),
                None if schema
                    .attributes
                    .iter()
                    .any(|(name, _)| *name == block.kind) =>
                {
                    format!(
                        " Did you mean to define argument {:?}? If so, use the equals sign to assign it a value.",
                        block.kind
                    )
                }
                None => String::new(),
            };
            let detail = format!(
                "Blocks of type {:?} are not expected here.{suggestion}",
                block.kind
            );
            self.report(
                Code::B102,
                "Unsupported block type".into(),
                Some(detail),
                &block.kind_span,
            );
            self.help(habits::block(owner, &block.kind));
        }
    }

    /// function-hcl's `checkStructure`: check a body, register names, descend into the blocks
    /// of bodies that were valid.
    fn structure(&mut self, body: &Body, schema: Option<&BodySchema>, owner: Option<Owner>) {
        let Some(schema) = schema else {
            if let Some(first) = body.blocks.first() {
                self.report(
                    Code::B106,
                    format!("Unexpected {:?} block", first.kind),
                    Some("Blocks are not allowed here.".into()),
                    &first.kind_span,
                );
            }
            return;
        };
        let (blocks, ok) = self.content(body, schema, owner);
        if !ok {
            return;
        }
        for block in blocks {
            let label = block.labels.first();
            let registry = match block.kind.as_str() {
                "resource" => Some((0, "resource defined more than once")),
                "resources" => Some((1, "resource collection defined more than once")),
                "requirement" => Some((2, "requirement defined more than once")),
                _ => None,
            };
            if let (Some((which, message)), Some(label)) = (registry, label) {
                let names = match which {
                    0 => &mut self.resources,
                    1 => &mut self.collections,
                    _ => &mut self.requirements,
                };
                if names.contains(&label.value) {
                    let (detail, at) = (label.value.clone(), label.span.clone());
                    self.report(Code::B107, message.into(), Some(detail), &at);
                } else {
                    names.push(label.value.clone());
                }
            }
            if let Some(child) = schema_for(&block.kind) {
                self.structure(&block.body, child, Some(owner_of(block)));
            }
        }
    }
}

/// Structural diagnostics for a whole program (all its files, as one unit): function-hcl's
/// `checkStructure` — the schema of every block and names defined twice. User functions and
/// requirement selectors are checked later (function loading and the analyzer).
pub fn check_program(files: &[ParsedFile]) -> Vec<Diagnostic> {
    let mut checker = Checker::new(files.first().map_or_else(FileId::first, |f| f.file));
    for file in files {
        checker.file = file.file;
        checker.structure(&file.body, Some(&TOP_LEVEL), None);
    }
    checker.diagnostics
}

/// The diagnostics hcl reports for one body against its block type's schema, without looking
/// into child blocks: `Body.Content` for blocks with a schema, `JustAttributes` for `locals`.
/// function-hcl checks each body only when it processes the block, so a mistake inside a
/// block that is never processed is never reported at run time.
pub fn body_problems(file: FileId, block: &Block) -> Vec<Diagnostic> {
    let mut checker = Checker::new(file);
    let body = &block.body;
    match schema_for(&block.kind) {
        Some(Some(schema)) => {
            checker.content(body, schema, Some(owner_of(block)));
        }
        Some(None) => {
            if let Some(first) = body.blocks.first() {
                checker.report(
                    Code::B106,
                    format!("Unexpected {:?} block", first.kind),
                    Some("Blocks are not allowed here.".into()),
                    &first.kind_span,
                );
            }
        }
        None => {}
    }
    checker.diagnostics
}

/// The top-level schema check of one file (hcl's `Body.Content` with the top-level schema).
pub fn top_level_problems(file: FileId, body: &Body) -> Vec<Diagnostic> {
    let mut checker = Checker::new(file);
    checker.content(body, &TOP_LEVEL, None);
    checker.diagnostics
}

/// The diagnostics of one body against any schema (hcl's `Body.Content`: missing and unknown
/// arguments and blocks, labels), without looking into child blocks; for block languages
/// other than function-hcl's own (the test files of `syntax::testfile`).
pub fn check_body(file: FileId, body: &Body, schema: &BodySchema) -> Vec<Diagnostic> {
    let mut checker = Checker::new(file);
    checker.habits = false;
    checker.content(body, schema, None);
    checker.diagnostics
}

fn owner_of(block: &Block) -> Owner<'_> {
    Owner {
        kind: &block.kind,
        label: block.labels.first().map(|l| l.value.as_str()),
    }
}

/// function-hcl's identifier rule for function and argument names.
pub fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

//! The typed function-hcl program: the blocks of a schema-valid tree, as Rust types.
//!
//! Every block carries the diagnostics of its own body against its schema (`problems`), which
//! function-hcl reports only when it processes that block; a block with problems may lack a
//! label or a required argument, which then degrades to an empty label or an error
//! expression rather than a panic. Top-level blocks of all files form one body, in file
//! order, as function-hcl merges them.

use super::ParsedFile;
use super::ast::{Attribute, Block, Body, Expr, ExprKind, Label, TextRange};
use super::schema::{body_problems, top_level_problems};
use crate::diagnostics::Diagnostic;
use crate::source::FileId;

/// A whole program.
#[derive(Debug, Clone, PartialEq)]
pub struct Program {
    /// The merged top level (locals and children of every file).
    pub top: GroupBody,
    /// User functions (`function` blocks, top level only).
    pub functions: Vec<Function>,
}

/// Where a block is: its file and the range of its header (type and labels).
#[derive(Debug, Clone, PartialEq)]
pub struct Origin {
    /// The file.
    pub file: FileId,
    /// Type and labels.
    pub header: TextRange,
    /// The whole block (type to closing brace).
    pub span: TextRange,
}

/// An expression and the file it is in.
#[derive(Debug, Clone, PartialEq)]
pub struct FileExpr {
    /// The file.
    pub file: FileId,
    /// The expression.
    pub expr: Expr,
    /// The attribute's name range (for messages about the attribute).
    pub name_span: TextRange,
}

/// One `name = expr` of a `locals` block.
#[derive(Debug, Clone, PartialEq)]
pub struct Local {
    /// The name.
    pub name: String,
    /// Its value.
    pub value: FileExpr,
}

/// All `locals` blocks of one body: one scope.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Locals {
    /// The locals in source order.
    pub items: Vec<Local>,
    /// hcl's `JustAttributes` diagnostics (a block nested in `locals`).
    pub problems: Vec<Diagnostic>,
}

/// The content shared by the top level and `group` blocks.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct GroupBody {
    /// All locals of the body's `locals` blocks (one scope).
    pub locals: Locals,
    /// The body's schema diagnostics (at the top level: of every file).
    pub problems: Vec<Diagnostic>,
    /// `condition` (groups only).
    pub condition: Option<FileExpr>,
    /// Child blocks in source order.
    pub children: Vec<Child>,
}

/// A child of a group body.
#[derive(Debug, Clone, PartialEq)]
pub enum Child {
    /// `group { … }`.
    Group(Group),
    /// `resource NAME { … }`.
    Resource(Resource),
    /// `resources BASE { … }`.
    Resources(Collection),
    /// `composite status|connection { … }`.
    Composite(Composite),
    /// `context { … }`.
    Context(ContextBlock),
    /// `requirement NAME { … }`.
    Requirement(Requirement),
}

/// `group { … }`.
#[derive(Debug, Clone, PartialEq)]
pub struct Group {
    /// Where.
    pub origin: Origin,
    /// Content.
    pub body: GroupBody,
}

/// A block nested in a resource or template.
#[derive(Debug, Clone, PartialEq)]
pub enum ResourceChild {
    /// `composite status|connection`.
    Composite(Composite),
    /// `ready`.
    Ready(Ready),
    /// `context`.
    Context(ContextBlock),
}

/// `resource NAME { … }`.
#[derive(Debug, Clone, PartialEq)]
pub struct Resource {
    /// The resource name.
    pub name: Label,
    /// Where.
    pub origin: Origin,
    /// Locals.
    pub locals: Locals,
    /// The body's schema diagnostics.
    pub problems: Vec<Diagnostic>,
    /// `condition`.
    pub condition: Option<FileExpr>,
    /// `body`.
    pub body: FileExpr,
    /// Nested blocks in source order.
    pub children: Vec<ResourceChild>,
}

/// `template { … }` of a collection.
#[derive(Debug, Clone, PartialEq)]
pub struct Template {
    /// Where.
    pub origin: Origin,
    /// Locals.
    pub locals: Locals,
    /// The body's schema diagnostics.
    pub problems: Vec<Diagnostic>,
    /// `body`.
    pub body: FileExpr,
    /// Nested blocks in source order.
    pub children: Vec<ResourceChild>,
}

/// `resources BASE { … }`.
#[derive(Debug, Clone, PartialEq)]
pub struct Collection {
    /// The base name.
    pub name: Label,
    /// Where.
    pub origin: Origin,
    /// Locals.
    pub locals: Locals,
    /// The body's schema diagnostics.
    pub problems: Vec<Diagnostic>,
    /// `condition`.
    pub condition: Option<FileExpr>,
    /// `for_each`.
    pub for_each: FileExpr,
    /// `name` (the member name expression).
    pub name_expr: Option<FileExpr>,
    /// `template` blocks (function-hcl requires exactly one at run time).
    pub templates: Vec<Template>,
    /// Collection-level `composite` and `context` blocks, in source order.
    pub children: Vec<ResourceChild>,
}

/// `composite OBJECT { body = … }`.
#[derive(Debug, Clone, PartialEq)]
pub struct Composite {
    /// `status` or `connection` (other labels are a run-time error).
    pub object: Label,
    /// Where.
    pub origin: Origin,
    /// Locals.
    pub locals: Locals,
    /// The body's schema diagnostics.
    pub problems: Vec<Diagnostic>,
    /// `body`.
    pub body: FileExpr,
}

/// `context { key = …, value = … }`.
#[derive(Debug, Clone, PartialEq)]
pub struct ContextBlock {
    /// Where.
    pub origin: Origin,
    /// Locals.
    pub locals: Locals,
    /// The body's schema diagnostics.
    pub problems: Vec<Diagnostic>,
    /// `key`.
    pub key: FileExpr,
    /// `value`.
    pub value: FileExpr,
}

/// `ready { value = … }`.
#[derive(Debug, Clone, PartialEq)]
pub struct Ready {
    /// Where.
    pub origin: Origin,
    /// Locals.
    pub locals: Locals,
    /// The body's schema diagnostics.
    pub problems: Vec<Diagnostic>,
    /// `value`.
    pub value: FileExpr,
}

/// `requirement NAME { select { … } }`.
#[derive(Debug, Clone, PartialEq)]
pub struct Requirement {
    /// The requirement name.
    pub name: Label,
    /// Where.
    pub origin: Origin,
    /// Locals.
    pub locals: Locals,
    /// The body's schema diagnostics.
    pub problems: Vec<Diagnostic>,
    /// `condition`.
    pub condition: Option<FileExpr>,
    /// `select` blocks (exactly one when valid).
    pub selects: Vec<Select>,
}

/// `select { apiVersion, kind, matchName | matchLabels }`.
#[derive(Debug, Clone, PartialEq)]
pub struct Select {
    /// Where.
    pub origin: Origin,
    /// The body's schema diagnostics.
    pub problems: Vec<Diagnostic>,
    /// `apiVersion`.
    pub api_version: FileExpr,
    /// `kind`.
    pub kind: FileExpr,
    /// `matchName`.
    pub match_name: Option<FileExpr>,
    /// `matchLabels`.
    pub match_labels: Option<FileExpr>,
}

/// `function NAME { arg … body = … }`.
#[derive(Debug, Clone, PartialEq)]
pub struct Function {
    /// The function name.
    pub name: Label,
    /// Where.
    pub origin: Origin,
    /// `description`.
    pub description: Option<FileExpr>,
    /// Arguments in source order.
    pub args: Vec<Arg>,
    /// Locals.
    pub locals: Locals,
    /// The body's schema diagnostics.
    pub problems: Vec<Diagnostic>,
    /// `body`.
    pub body: FileExpr,
}

/// `arg NAME { description, default }`.
#[derive(Debug, Clone, PartialEq)]
pub struct Arg {
    /// The argument name.
    pub name: Label,
    /// Where.
    pub origin: Origin,
    /// The body's schema diagnostics.
    pub problems: Vec<Diagnostic>,
    /// `description`.
    pub description: Option<FileExpr>,
    /// `default`.
    pub default: Option<FileExpr>,
}

/// Builds the typed program from parsed files (their schema problems recorded, not enforced).
pub fn build(files: &[ParsedFile]) -> Program {
    build_owned(files.to_vec())
}

/// As [`build`], taking the files' expressions instead of copying them (a caller that has no
/// further use for the trees).
pub fn build_owned(mut files: Vec<ParsedFile>) -> Program {
    let mut program = Program {
        top: GroupBody::default(),
        functions: Vec::new(),
    };
    for file in &mut files {
        let b = Builder { file: file.file };
        program
            .top
            .problems
            .extend(top_level_problems(file.file, &file.body));
        b.fill_group(&mut file.body, &mut program.top);
        for block in file.body.blocks.iter_mut().filter(|b| b.kind == "function") {
            program.functions.push(b.function(block));
        }
    }
    program
}

struct Builder {
    file: FileId,
}

impl Builder {
    fn origin(&self, block: &Block) -> Origin {
        Origin {
            file: self.file,
            header: block.def_range(),
            span: block.span(),
        }
    }

    fn problems(&self, block: &Block) -> Vec<Diagnostic> {
        body_problems(self.file, block)
    }

    /// The attribute's expression, taken out of the tree (an error expression is left
    /// behind; the schema problems, computed from names alone, do not look at it).
    fn expr(&self, attr: &mut Attribute) -> FileExpr {
        let placeholder = Expr {
            kind: ExprKind::Error,
            span: attr.expr.span.clone(),
        };
        FileExpr {
            file: self.file,
            expr: std::mem::replace(&mut attr.expr, placeholder),
            name_span: attr.name_span.clone(),
        }
    }

    fn attr(&self, body: &mut Body, name: &str) -> Option<FileExpr> {
        body.attributes
            .iter_mut()
            .find(|a| a.name == name)
            .map(|a| self.expr(a))
    }

    /// A required attribute; when it is missing (a schema problem of the block) it is an
    /// error expression at the body's start.
    fn required(&self, body: &mut Body, name: &str) -> FileExpr {
        let at = body.span.start..body.span.start;
        self.attr(body, name).unwrap_or(FileExpr {
            file: self.file,
            expr: Expr {
                kind: ExprKind::Error,
                span: at.clone(),
            },
            name_span: at,
        })
    }

    fn label(block: &Block) -> Label {
        block.labels.first().cloned().unwrap_or_else(|| Label {
            value: String::new(),
            span: block.kind_span.clone(),
            quoted: false,
        })
    }

    fn locals(&self, body: &mut Body) -> Locals {
        let mut locals = Locals::default();
        for block in body.blocks.iter_mut().filter(|b| b.kind == "locals") {
            locals.problems.extend(self.problems(block));
            locals
                .items
                .extend(block.body.attributes.iter_mut().map(|a| Local {
                    // The builder has the tree to itself, and nothing reads a local's
                    // attribute after this.
                    name: std::mem::take(&mut a.name),
                    value: self.expr(a),
                }));
        }
        locals
    }

    fn fill_group(&self, body: &mut Body, group: &mut GroupBody) {
        let locals = self.locals(body);
        // Moved rather than copied into an empty list (a copy of every local's tree node).
        if group.locals.items.is_empty() {
            group.locals.items = locals.items;
        } else {
            group.locals.items.extend(locals.items);
        }
        group.locals.problems.extend(locals.problems);
        if group.condition.is_none() {
            group.condition = self.attr(body, "condition");
        }
        for block in &mut body.blocks {
            let child = match block.kind.as_str() {
                "group" => {
                    let mut inner = GroupBody {
                        problems: self.problems(block),
                        ..GroupBody::default()
                    };
                    self.fill_group(&mut block.body, &mut inner);
                    Child::Group(Group {
                        origin: self.origin(block),
                        body: inner,
                    })
                }
                "resource" => Child::Resource(self.resource(block)),
                "resources" => Child::Resources(self.collection(block)),
                "composite" => Child::Composite(self.composite(block)),
                "context" => Child::Context(self.context(block)),
                "requirement" => Child::Requirement(self.requirement(block)),
                _ => continue,
            };
            group.children.push(child);
        }
    }

    fn resource_children(&self, body: &mut Body) -> Vec<ResourceChild> {
        body.blocks
            .iter_mut()
            .filter_map(|block| match block.kind.as_str() {
                "composite" => Some(ResourceChild::Composite(self.composite(block))),
                "ready" => Some(ResourceChild::Ready(Ready {
                    origin: self.origin(block),
                    locals: self.locals(&mut block.body),
                    problems: self.problems(block),
                    value: self.required(&mut block.body, "value"),
                })),
                "context" => Some(ResourceChild::Context(self.context(block))),
                _ => None,
            })
            .collect()
    }

    fn resource(&self, block: &mut Block) -> Resource {
        Resource {
            name: Self::label(block),
            origin: self.origin(block),
            locals: self.locals(&mut block.body),
            problems: self.problems(block),
            condition: self.attr(&mut block.body, "condition"),
            body: self.required(&mut block.body, "body"),
            children: self.resource_children(&mut block.body),
        }
    }

    fn collection(&self, block: &mut Block) -> Collection {
        let templates = block
            .body
            .blocks
            .iter_mut()
            .filter(|b| b.kind == "template")
            .map(|t| Template {
                origin: self.origin(t),
                locals: self.locals(&mut t.body),
                problems: self.problems(t),
                body: self.required(&mut t.body, "body"),
                children: self.resource_children(&mut t.body),
            })
            .collect();
        Collection {
            name: Self::label(block),
            origin: self.origin(block),
            locals: self.locals(&mut block.body),
            problems: self.problems(block),
            condition: self.attr(&mut block.body, "condition"),
            for_each: self.required(&mut block.body, "for_each"),
            name_expr: self.attr(&mut block.body, "name"),
            templates,
            children: self.resource_children(&mut block.body),
        }
    }

    fn composite(&self, block: &mut Block) -> Composite {
        Composite {
            object: Self::label(block),
            origin: self.origin(block),
            locals: self.locals(&mut block.body),
            problems: self.problems(block),
            body: self.required(&mut block.body, "body"),
        }
    }

    fn context(&self, block: &mut Block) -> ContextBlock {
        ContextBlock {
            origin: self.origin(block),
            locals: self.locals(&mut block.body),
            problems: self.problems(block),
            key: self.required(&mut block.body, "key"),
            value: self.required(&mut block.body, "value"),
        }
    }

    fn requirement(&self, block: &mut Block) -> Requirement {
        let selects = block
            .body
            .blocks
            .iter_mut()
            .filter(|b| b.kind == "select")
            .map(|s| Select {
                origin: self.origin(s),
                problems: self.problems(s),
                api_version: self.required(&mut s.body, "apiVersion"),
                kind: self.required(&mut s.body, "kind"),
                match_name: self.attr(&mut s.body, "matchName"),
                match_labels: self.attr(&mut s.body, "matchLabels"),
            })
            .collect();
        Requirement {
            name: Self::label(block),
            origin: self.origin(block),
            locals: self.locals(&mut block.body),
            problems: self.problems(block),
            condition: self.attr(&mut block.body, "condition"),
            selects,
        }
    }

    fn function(&self, block: &mut Block) -> Function {
        let args = block
            .body
            .blocks
            .iter_mut()
            .filter(|b| b.kind == "arg")
            .map(|a| Arg {
                name: Self::label(a),
                origin: self.origin(a),
                problems: self.problems(a),
                description: self.attr(&mut a.body, "description"),
                default: self.attr(&mut a.body, "default"),
            })
            .collect();
        Function {
            name: Self::label(block),
            origin: self.origin(block),
            locals: self.locals(&mut block.body),
            problems: self.problems(block),
            description: self.attr(&mut block.body, "description"),
            args,
            body: self.required(&mut block.body, "body"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::SourceMap;

    fn program(sources: &[&str]) -> Program {
        let mut map = SourceMap::new();
        let files: Vec<ParsedFile> = sources
            .iter()
            .enumerate()
            .map(|(i, text)| {
                let id = map.add(format!("f{i}.hcl"), *text);
                let parsed = crate::syntax::parse_file(map.get(id));
                assert!(!parsed.has_errors(), "{:?}", parsed.diagnostics);
                ParsedFile {
                    file: id,
                    body: parsed.body,
                }
            })
            .collect();
        assert!(crate::syntax::schema::check_program(&files).is_empty());
        build(&files)
    }

    #[test]
    fn files_merge_into_one_top_level_in_order() {
        let p = program(&[
            "locals {\n  a = 1\n}\nresource r {\n  body = {}\n}\n",
            "locals {\n  b = 2\n}\ngroup {\n  condition = true\n  resources c {\n    for_each = []\n    template {\n      body = {}\n      ready {\n        value = \"READY_TRUE\"\n      }\n    }\n  }\n}\nfunction f {\n  arg x {\n    default = 1\n  }\n  body = x\n}\n",
        ]);
        let names: Vec<&str> = p.top.locals.items.iter().map(|l| l.name.as_str()).collect();
        assert_eq!(names, ["a", "b"]);
        assert_eq!(p.top.children.len(), 2);
        let Child::Group(group) = &p.top.children[1] else {
            panic!("expected a group")
        };
        assert!(group.body.condition.is_some());
        let Child::Resources(c) = &group.body.children[0] else {
            panic!("expected a collection")
        };
        assert_eq!(c.name.value, "c");
        assert_eq!(c.templates.len(), 1);
        assert!(matches!(
            c.templates[0].children[0],
            ResourceChild::Ready(_)
        ));
        assert_eq!(p.functions[0].args[0].name.value, "x");
        assert_eq!(p.top.locals.items[1].value.file, p.functions[0].origin.file);
    }

    #[test]
    fn requirements_keep_their_selectors() {
        let p = program(&[
            "requirement vpc {\n  select {\n    apiVersion = \"v1\"\n    kind = \"VPC\"\n    matchName = \"main\"\n  }\n}\n",
        ]);
        let Child::Requirement(r) = &p.top.children[0] else {
            panic!("expected a requirement")
        };
        assert_eq!(r.selects.len(), 1);
        assert!(r.selects[0].match_name.is_some() && r.selects[0].match_labels.is_none());
    }
}

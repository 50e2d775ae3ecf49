//! `fnhcl lsp`: a language server over stdio (JSON-RPC, `lsp-server` as rust-analyzer uses
//! it). This first part: incremental document sync; a composition is the `.hcl` files of a
//! folder (open documents over the files on disk), re-checked on each change with every `check`
//! rule, `.fnhcl.toml` and suppressions, its diagnostics published per file; formatting as
//! `fnhcl fmt`.

use crate::cli::exit::ExitStatus;
use fnhcl::check::{Config, check_bundle};
use fnhcl::diagnostics::{Diagnostic, Severity};
use fnhcl::source::loader::{Bundle, BundleFile, Origin};
use fnhcl::source::{FileId, SourceMap};
use lsp_server::{Connection, Message, Notification, Request, Response};
use lsp_types::notification::{
    DidChangeTextDocument, DidCloseTextDocument, DidOpenTextDocument, DidSaveTextDocument,
    Notification as _, PublishDiagnostics,
};
use lsp_types::request::{
    Completion, DocumentSymbolRequest, Formatting, GotoDefinition, HoverRequest, References,
    Rename, Request as _,
};
use lsp_types::{
    DiagnosticSeverity, DocumentFormattingParams, InitializeParams, NumberOrString, Position,
    PublishDiagnosticsParams, Range, ServerCapabilities, TextDocumentContentChangeEvent,
    TextDocumentSyncCapability, TextDocumentSyncKind, TextEdit, Uri,
};
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Runs the server until the client says `exit`.
pub fn run() -> std::io::Result<ExitStatus> {
    let (connection, io_threads) = Connection::stdio();
    let capabilities = ServerCapabilities {
        text_document_sync: Some(TextDocumentSyncCapability::Kind(
            TextDocumentSyncKind::INCREMENTAL,
        )),
        document_formatting_provider: Some(lsp_types::OneOf::Left(true)),
        definition_provider: Some(lsp_types::OneOf::Left(true)),
        references_provider: Some(lsp_types::OneOf::Left(true)),
        rename_provider: Some(lsp_types::OneOf::Left(true)),
        hover_provider: Some(lsp_types::HoverProviderCapability::Simple(true)),
        document_symbol_provider: Some(lsp_types::OneOf::Left(true)),
        completion_provider: Some(lsp_types::CompletionOptions {
            trigger_characters: Some(vec![".".into()]),
            ..lsp_types::CompletionOptions::default()
        }),
        ..ServerCapabilities::default()
    };
    let params = match connection
        .initialize(serde_json::to_value(capabilities).map_err(std::io::Error::other)?)
    {
        Ok(params) => params,
        Err(e) => return Err(std::io::Error::other(e.to_string())),
    };
    let _params: InitializeParams = serde_json::from_value(params).unwrap_or_default();
    let mut server = Server {
        documents: HashMap::new(),
        published: HashMap::new(),
    };
    for message in &connection.receiver {
        match message {
            Message::Request(request) => {
                if connection
                    .handle_shutdown(&request)
                    .map_err(|e| std::io::Error::other(e.to_string()))?
                {
                    break;
                }
                let response = server.request(request);
                send(&connection, Message::Response(response));
            }
            Message::Notification(notification) => {
                for out in server.notification(notification) {
                    send(&connection, Message::Notification(out));
                }
            }
            Message::Response(_) => {}
        }
    }
    drop(connection);
    io_threads
        .join()
        .map_err(|e| std::io::Error::other(e.to_string()))?;
    Ok(ExitStatus::Success)
}

fn send(connection: &Connection, message: Message) {
    // A client that went away ends the loop through the closed receiver.
    let _ = connection.sender.send(message);
}

struct Server {
    /// Open documents by path.
    documents: HashMap<PathBuf, String>,
    /// Files of each folder that were last given diagnostics (to clear them).
    published: HashMap<PathBuf, Vec<PathBuf>>,
}

/// A `file://` URI's path.
fn path_of(uri: &Uri) -> Option<PathBuf> {
    let text = uri.as_str().strip_prefix("file://")?;
    Some(PathBuf::from(percent_decode(text)))
}

fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && i + 2 < bytes.len()
            && let Ok(b) = u8::from_str_radix(&text[i + 1..i + 3], 16)
        {
            out.push(b);
            i += 3;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn uri_of(path: &Path) -> Option<Uri> {
    let mut text = String::from("file://");
    for b in path.to_string_lossy().bytes() {
        if b.is_ascii_alphanumeric() || b"/-_.~".contains(&b) {
            text.push(b as char);
        } else {
            text.push_str(&format!("%{b:02X}"));
        }
    }
    text.parse().ok()
}

/// The byte offset of an LSP position (UTF-16 columns) in `text`.
fn offset_of(text: &str, position: Position) -> usize {
    let mut offset = 0;
    for (i, line) in text.split_inclusive('\n').enumerate() {
        if i == position.line as usize {
            let mut units = 0u32;
            for (at, c) in line.char_indices() {
                if units >= position.character || c == '\n' {
                    return offset + at;
                }
                units += c.len_utf16() as u32;
            }
            return offset + line.len();
        }
        offset += line.len();
    }
    text.len()
}

/// The LSP position (UTF-16 columns) of a byte offset.
fn position_of(text: &str, offset: usize) -> Position {
    let offset = offset.min(text.len());
    let mut end = offset;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let before = &text[..end];
    let line = before.matches('\n').count() as u32;
    let start = before.rfind('\n').map_or(0, |i| i + 1);
    let character = before[start..].chars().map(|c| c.len_utf16() as u32).sum();
    Position { line, character }
}

impl Server {
    // `WorkspaceEdit::changes` is keyed by `Uri`, whose lazily parsed parts clippy sees as
    // interior mutability; the key is never changed while in the map.
    #[allow(clippy::mutable_key_type)]
    fn request(&mut self, request: Request) -> Response {
        match request.method.as_str() {
            Formatting::METHOD => {
                let params: Result<DocumentFormattingParams, _> =
                    serde_json::from_value(request.params);
                let edits = params
                    .ok()
                    .and_then(|p| path_of(&p.text_document.uri))
                    .and_then(|path| self.format(&path));
                Response::new_ok(request.id, edits)
            }
            GotoDefinition::METHOD => {
                let params: Result<lsp_types::GotoDefinitionParams, _> =
                    serde_json::from_value(request.params);
                let found = params.ok().and_then(|p| {
                    let at = p.text_document_position_params;
                    let path = path_of(&at.text_document.uri)?;
                    self.places(&path, at.position)?.into_iter().next()
                });
                Response::new_ok(request.id, found)
            }
            Rename::METHOD => {
                let params: Result<lsp_types::RenameParams, _> =
                    serde_json::from_value(request.params);
                let edit = params.ok().and_then(|p| {
                    let at = p.text_document_position;
                    let path = path_of(&at.text_document.uri)?;
                    let places = self.places(&path, at.position)?;
                    let mut changes: HashMap<Uri, Vec<TextEdit>> = HashMap::new();
                    for place in places {
                        changes.entry(place.uri).or_default().push(TextEdit {
                            range: place.range,
                            new_text: p.new_name.clone(),
                        });
                    }
                    Some(lsp_types::WorkspaceEdit {
                        changes: Some(changes),
                        ..lsp_types::WorkspaceEdit::default()
                    })
                });
                Response::new_ok(request.id, edit)
            }
            Completion::METHOD => {
                let params: Result<lsp_types::CompletionParams, _> =
                    serde_json::from_value(request.params);
                let items = params.ok().and_then(|p| {
                    let at = p.text_document_position;
                    let path = path_of(&at.text_document.uri)?;
                    self.complete(&path, at.position)
                });
                Response::new_ok(request.id, items.map(lsp_types::CompletionResponse::Array))
            }
            HoverRequest::METHOD => {
                let params: Result<lsp_types::HoverParams, _> =
                    serde_json::from_value(request.params);
                let hover = params.ok().and_then(|p| {
                    let at = p.text_document_position_params;
                    let path = path_of(&at.text_document.uri)?;
                    self.hover(&path, at.position)
                });
                Response::new_ok(request.id, hover)
            }
            DocumentSymbolRequest::METHOD => {
                let params: Result<lsp_types::DocumentSymbolParams, _> =
                    serde_json::from_value(request.params);
                let symbols = params
                    .ok()
                    .and_then(|p| path_of(&p.text_document.uri))
                    .and_then(|path| self.symbols(&path));
                Response::new_ok(
                    request.id,
                    symbols.map(lsp_types::DocumentSymbolResponse::Nested),
                )
            }
            References::METHOD => {
                let params: Result<lsp_types::ReferenceParams, _> =
                    serde_json::from_value(request.params);
                let found = params.ok().and_then(|p| {
                    let at = p.text_document_position;
                    let path = path_of(&at.text_document.uri)?;
                    let places = self.places(&path, at.position)?;
                    let skip = usize::from(!p.context.include_declaration);
                    Some(places.into_iter().skip(skip).collect::<Vec<_>>())
                });
                Response::new_ok(request.id, found)
            }
            _ => Response::new_err(
                request.id,
                lsp_server::ErrorCode::MethodNotFound as i32,
                format!("fnhcl lsp does not answer {}", request.method),
            ),
        }
    }

    /// One edit replacing the whole document with its formatted text; none when it is
    /// formatted already or does not parse.
    fn format(&self, path: &Path) -> Option<Vec<TextEdit>> {
        let text = self.text(path)?;
        let mut map = SourceMap::new();
        let file = map.add(path.display().to_string(), text.clone());
        let formatted = fnhcl::fmt::format_file(map.get(file), true).ok()?;
        if formatted == text {
            return Some(Vec::new());
        }
        Some(vec![TextEdit {
            range: Range {
                start: Position::new(0, 0),
                end: position_of(&text, text.len()),
            },
            new_text: formatted,
        }])
    }

    /// The local or argument named at `position`: its definition first, then every use of
    /// it.
    fn places(&self, path: &Path, position: Position) -> Option<Vec<lsp_types::Location>> {
        use fnhcl::analysis::resolve::{Resolution, Target};
        let dir = path.parent()?.to_path_buf();
        let (map, paths, program) = self.folder_program(&dir);
        let resolution = Resolution::of(&program.top, &program.functions);
        let (file, _) = paths.iter().find(|(_, p)| p.as_path() == path)?;
        let offset = offset_of(map.get(*file).text(), position) as u32;
        let covers =
            |f: FileId, start: u32, end: u32| f == *file && start <= offset && offset <= end;
        let binding = resolution
            .bindings
            .iter()
            .position(|b| covers(b.name_span.file, b.name_span.start, b.name_span.end))
            .or_else(|| {
                resolution.uses.iter().find_map(|u| match u.target {
                    Target::Binding(id)
                        if covers(u.file, u.var.root_span.start, u.var.root_span.end) =>
                    {
                        Some(id)
                    }
                    _ => None,
                })
            })?;
        let location = |file: FileId, start: u32, end: u32| {
            let path = &paths.iter().find(|(f, _)| *f == file)?.1;
            let text = map.get(file).text();
            Some(lsp_types::Location {
                uri: uri_of(path)?,
                range: Range {
                    start: position_of(text, start as usize),
                    end: position_of(text, end as usize),
                },
            })
        };
        let b = resolution.bindings.get(binding)?;
        let mut out = vec![location(
            b.name_span.file,
            b.name_span.start,
            b.name_span.end,
        )?];
        for u in &resolution.uses {
            if u.target == Target::Binding(binding) {
                out.extend(location(u.file, u.var.root_span.start, u.var.root_span.end));
            }
        }
        Some(out)
    }

    /// Completion at `position`: inside a block's body, the attributes and blocks its schema
    /// allows; in an expression, `req`'s members after `req.`, else the locals of the folder,
    /// `req`/`self`/`each` and the built-in functions (as snippets).
    fn complete(&self, path: &Path, position: Position) -> Option<Vec<lsp_types::CompletionItem>> {
        use lsp_types::{CompletionItem, CompletionItemKind, InsertTextFormat};
        let text = self.text(path)?;
        let offset = offset_of(&text, position);
        let line_start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
        let before = &text[line_start..offset];
        let item =
            |label: String, kind: CompletionItemKind, snippet: Option<String>| CompletionItem {
                label,
                kind: Some(kind),
                insert_text_format: snippet.as_ref().map(|_| InsertTextFormat::SNIPPET),
                insert_text: snippet,
                ..CompletionItem::default()
            };
        if before.trim_end().ends_with("req.") || before.ends_with("req.") {
            return Some(
                [
                    "composite",
                    "composite_connection",
                    "resource",
                    "connection",
                    "resources",
                    "connections",
                    "context",
                    "extra_resources",
                ]
                .into_iter()
                .map(|m| item(m.into(), CompletionItemKind::FIELD, None))
                .collect(),
            );
        }
        if before.contains('=') || before.trim_start().starts_with('(') {
            let mut items: Vec<CompletionItem> = ["req", "self", "each"]
                .into_iter()
                .map(|v| item(v.into(), CompletionItemKind::VARIABLE, None))
                .collect();
            let dir = path.parent()?.to_path_buf();
            let (_, _, program) = self.folder_program(&dir);
            let resolution =
                fnhcl::analysis::resolve::Resolution::of(&program.top, &program.functions);
            let mut names: Vec<&str> = resolution.bindings.iter().map(|b| b.name).collect();
            names.sort_unstable();
            names.dedup();
            items.extend(
                names
                    .into_iter()
                    .map(|n| item(n.into(), CompletionItemKind::VARIABLE, None)),
            );
            let table = fnhcl::eval::functions::builtins();
            items.extend(table.names().map(|f| {
                item(
                    f.into(),
                    CompletionItemKind::FUNCTION,
                    Some(format!("{f}($1)")),
                )
            }));
            return Some(items);
        }
        // The innermost block around the cursor: its body's schema.
        let mut map = SourceMap::new();
        let file = map.add(path.display().to_string(), text.clone());
        let parsed = fnhcl::syntax::parse_file(map.get(file));
        let mut kind: Option<String> = None;
        let mut body = &parsed.body;
        while let Some(block) = body
            .blocks
            .iter()
            .find(|b| b.open_brace.end as usize <= offset && offset <= b.close_brace.start as usize)
        {
            kind = Some(block.kind.clone());
            body = &block.body;
        }
        let schema = match &kind {
            None => Some(&fnhcl::syntax::schema::TOP_LEVEL),
            Some(k) => fnhcl::syntax::schema::schema_for(k).flatten(),
        }?;
        let mut items: Vec<CompletionItem> = schema
            .attributes
            .iter()
            .map(|(name, _)| {
                item(
                    (*name).into(),
                    CompletionItemKind::PROPERTY,
                    Some(format!("{name} = $0")),
                )
            })
            .collect();
        items.extend(schema.blocks.iter().map(|b| {
            let labels: String = b
                .labels
                .iter()
                .enumerate()
                .map(|(i, l)| format!(" ${{{}:{l}}}", i + 1))
                .collect();
            item(
                b.kind.into(),
                CompletionItemKind::KEYWORD,
                Some(format!("{}{labels} {{\n  $0\n}}", b.kind)),
            )
        }));
        Some(items)
    }

    /// Hover: a built-in function's signature at a call's name, a local's definition at a
    /// reference to it.
    fn hover(&self, path: &Path, position: Position) -> Option<lsp_types::Hover> {
        let text = self.text(path)?;
        let offset = offset_of(&text, position);
        // The identifier under the cursor.
        let is_ident = |c: char| c.is_alphanumeric() || c == '_' || c == '-' || c == ':';
        let start = text[..offset]
            .char_indices()
            .rev()
            .take_while(|(_, c)| is_ident(*c))
            .last()
            .map_or(offset, |(i, _)| i);
        let end = text[offset..]
            .char_indices()
            .find(|(_, c)| !is_ident(*c))
            .map_or(text.len(), |(i, _)| offset + i);
        let word = &text[start..end];
        let called = text[end..].trim_start().starts_with('(');
        let markdown = if called {
            let table = fnhcl::eval::functions::builtins();
            let f = table.get(word)?;
            let mut params: Vec<String> = f
                .params
                .iter()
                .map(|p| format!("{} {}", p.name, p.ty.friendly_name()))
                .collect();
            if let Some(v) = &f.var_param {
                params.push(format!("{}... {}", v.name, v.ty.friendly_name()));
            }
            format!(
                "```hcl
{}({})
```
A Terraform 1.5.7 built-in function.",
                f.name,
                params.join(", ")
            )
        } else {
            let places = self.places(path, position)?;
            let definition = places.first()?;
            let def_path = path_of(&definition.uri)?;
            let def_text = self.text(&def_path)?;
            let line = def_text.lines().nth(definition.range.start.line as usize)?;
            format!(
                "```hcl
{}
```
{} reference(s)",
                line.trim(),
                places.len() - 1
            )
        };
        Some(lsp_types::Hover {
            contents: lsp_types::HoverContents::Markup(lsp_types::MarkupContent {
                kind: lsp_types::MarkupKind::Markdown,
                value: markdown,
            }),
            range: Some(Range {
                start: position_of(&text, start),
                end: position_of(&text, end),
            }),
        })
    }

    /// The blocks, locals and user functions of one file, nested as written.
    #[allow(deprecated)] // DocumentSymbol's `deprecated` field must be given.
    fn symbols(&self, path: &Path) -> Option<Vec<lsp_types::DocumentSymbol>> {
        use fnhcl::syntax::model::Child;
        use lsp_types::{DocumentSymbol, SymbolKind};
        let text = self.text(path)?;
        let mut map = SourceMap::new();
        let file = map.add(path.display().to_string(), text.clone());
        let parsed = fnhcl::syntax::parse_file(map.get(file));
        let program = fnhcl::syntax::model::build(&[fnhcl::syntax::ParsedFile {
            file,
            body: parsed.body,
        }]);
        let range = |r: &fnhcl::syntax::ast::TextRange| Range {
            start: position_of(&text, r.start as usize),
            end: position_of(&text, r.end as usize),
        };
        let symbol = |name: String, kind: SymbolKind, whole: Range, selection: Range, children| {
            DocumentSymbol {
                name,
                detail: None,
                kind,
                tags: None,
                deprecated: None,
                range: whole,
                selection_range: selection,
                children,
            }
        };
        fn make<'b>(
            child: &'b Child,
            range: &dyn Fn(&fnhcl::syntax::ast::TextRange) -> Range,
        ) -> (
            String,
            SymbolKind,
            Range,
            Range,
            Option<&'b fnhcl::syntax::model::GroupBody>,
        ) {
            match child {
                Child::Resource(r) => (
                    format!("resource {}", r.name.value),
                    SymbolKind::OBJECT,
                    range(&r.origin.span),
                    range(&r.name.span),
                    None,
                ),
                Child::Resources(c) => (
                    format!("resources {}", c.name.value),
                    SymbolKind::ARRAY,
                    range(&c.origin.span),
                    range(&c.name.span),
                    None,
                ),
                Child::Group(g) => (
                    "group".into(),
                    SymbolKind::NAMESPACE,
                    range(&g.origin.span),
                    range(&g.origin.header),
                    Some(&g.body),
                ),
                Child::Composite(c) => (
                    format!("composite {}", c.object.value),
                    SymbolKind::STRUCT,
                    range(&c.origin.span),
                    range(&c.origin.header),
                    None,
                ),
                Child::Context(c) => (
                    "context".into(),
                    SymbolKind::FIELD,
                    range(&c.origin.span),
                    range(&c.origin.header),
                    None,
                ),
                Child::Requirement(r) => (
                    format!("requirement {}", r.name.value),
                    SymbolKind::INTERFACE,
                    range(&r.origin.span),
                    range(&r.name.span),
                    None,
                ),
            }
        }
        fn walk(
            body: &fnhcl::syntax::model::GroupBody,
            file: FileId,
            range: &dyn Fn(&fnhcl::syntax::ast::TextRange) -> Range,
            symbol: &dyn Fn(
                String,
                SymbolKind,
                Range,
                Range,
                Option<Vec<DocumentSymbol>>,
            ) -> DocumentSymbol,
        ) -> Vec<DocumentSymbol> {
            body.children
                .iter()
                .filter(|child| child_file(child) == file)
                .map(|child| {
                    let (name, kind, whole, selection, inner) = make(child, range);
                    let children = inner.map(|b| walk(b, file, range, symbol));
                    symbol(name, kind, whole, selection, children)
                })
                .collect()
        }
        fn child_file(child: &Child) -> FileId {
            match child {
                Child::Resource(r) => r.origin.file,
                Child::Resources(c) => c.origin.file,
                Child::Group(g) => g.origin.file,
                Child::Composite(c) => c.origin.file,
                Child::Context(c) => c.origin.file,
                Child::Requirement(r) => r.origin.file,
            }
        }
        let mut out: Vec<DocumentSymbol> = program
            .top
            .locals
            .items
            .iter()
            .filter(|local| local.value.file == file)
            .map(|local| {
                let name = range(&local.value.name_span);
                let whole = Range {
                    start: name.start,
                    end: range(&local.value.expr.span).end,
                };
                symbol(local.name.clone(), SymbolKind::VARIABLE, whole, name, None)
            })
            .collect();
        out.extend(program.functions.iter().map(|f| {
            symbol(
                format!("function {}", f.name.value),
                SymbolKind::FUNCTION,
                range(&f.origin.span),
                range(&f.name.span),
                None,
            )
        }));
        out.extend(walk(&program.top, file, &range, &symbol));
        Some(out)
    }

    /// [`Self::folder_sources`], parsed into one program.
    fn folder_program(
        &self,
        dir: &PathBuf,
    ) -> (
        SourceMap,
        Vec<(FileId, PathBuf)>,
        fnhcl::syntax::model::Program,
    ) {
        let (map, paths) = self.folder_sources(dir);
        let parsed: Vec<fnhcl::syntax::ParsedFile> = paths
            .iter()
            .map(|(file, _)| fnhcl::syntax::ParsedFile {
                file: *file,
                body: fnhcl::syntax::parse_file(map.get(*file)).body,
            })
            .collect();
        let program = fnhcl::syntax::model::build(&parsed);
        (map, paths, program)
    }

    /// The `.hcl` files of `dir` (open documents as edited) in a source map.
    fn folder_sources(&self, dir: &PathBuf) -> (SourceMap, Vec<(FileId, PathBuf)>) {
        let mut names: Vec<PathBuf> = std::fs::read_dir(dir)
            .map(|entries| {
                entries
                    .filter_map(Result::ok)
                    .map(|e| e.path())
                    .filter(|p| p.extension().is_some_and(|e| e == "hcl") && p.is_file())
                    .collect()
            })
            .unwrap_or_default();
        for open in self.documents.keys() {
            if open.parent() == Some(dir.as_path()) && !names.contains(open) {
                names.push(open.clone());
            }
        }
        names.sort();
        let mut map = SourceMap::new();
        let mut out = Vec::new();
        for path in names {
            let Some(text) = self.text(&path) else {
                continue;
            };
            let name = path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            out.push((map.add(name, text), path));
        }
        (map, out)
    }

    fn text(&self, path: &Path) -> Option<String> {
        match self.documents.get(path) {
            Some(text) => Some(text.clone()),
            None => std::fs::read_to_string(path).ok(),
        }
    }

    fn notification(&mut self, notification: Notification) -> Vec<Notification> {
        let params = notification.params;
        let changed = match notification.method.as_str() {
            DidOpenTextDocument::METHOD => {
                let Ok(p) = serde_json::from_value::<lsp_types::DidOpenTextDocumentParams>(params)
                else {
                    return Vec::new();
                };
                let Some(path) = path_of(&p.text_document.uri) else {
                    return Vec::new();
                };
                self.documents.insert(path.clone(), p.text_document.text);
                path
            }
            DidChangeTextDocument::METHOD => {
                let Ok(p) =
                    serde_json::from_value::<lsp_types::DidChangeTextDocumentParams>(params)
                else {
                    return Vec::new();
                };
                let Some(path) = path_of(&p.text_document.uri) else {
                    return Vec::new();
                };
                let text = self.documents.entry(path.clone()).or_default();
                for change in p.content_changes {
                    apply(text, change);
                }
                path
            }
            DidCloseTextDocument::METHOD => {
                let Ok(p) = serde_json::from_value::<lsp_types::DidCloseTextDocumentParams>(params)
                else {
                    return Vec::new();
                };
                let Some(path) = path_of(&p.text_document.uri) else {
                    return Vec::new();
                };
                self.documents.remove(&path);
                path
            }
            DidSaveTextDocument::METHOD => {
                let Ok(p) = serde_json::from_value::<lsp_types::DidSaveTextDocumentParams>(params)
                else {
                    return Vec::new();
                };
                match path_of(&p.text_document.uri) {
                    Some(path) => path,
                    None => return Vec::new(),
                }
            }
            _ => return Vec::new(),
        };
        match changed.parent() {
            Some(dir) if changed.extension().is_some_and(|e| e == "hcl") => {
                self.check_folder(&dir.to_path_buf())
            }
            _ => Vec::new(),
        }
    }

    /// Checks the composition of `dir` (its `.hcl` files, open ones as edited) and returns
    /// one `publishDiagnostics` per file, empty ones for files that no longer have any.
    fn check_folder(&mut self, dir: &PathBuf) -> Vec<Notification> {
        let (mut map, sources) = self.folder_sources(dir);
        let mut files = Vec::new();
        let mut paths: BTreeMap<FileId, PathBuf> = BTreeMap::new();
        for (file, path) in sources {
            files.push(BundleFile {
                name: map.get(file).name().to_string(),
                file,
                path: Some(path.clone()),
            });
            paths.insert(file, path);
        }
        let config = Config::find(dir)
            .and_then(|file| Config::load(&mut map, &file).ok())
            .unwrap_or_default();
        let bundle = Bundle {
            files,
            origin: Origin::Directory(dir.clone()),
        };
        let map = Arc::new(map);
        let findings = check_bundle(&map, &bundle, &config);
        let mut by_file: BTreeMap<PathBuf, Vec<lsp_types::Diagnostic>> =
            paths.values().map(|p| (p.clone(), Vec::new())).collect();
        for d in &findings {
            let Some(primary) = &d.primary else { continue };
            let Some(path) = paths.get(&primary.span.file) else {
                continue;
            };
            let text = map.get(primary.span.file).text();
            by_file
                .entry(path.clone())
                .or_default()
                .push(lsp_diagnostic(
                    d,
                    text,
                    primary.span.start as usize,
                    primary.span.end as usize,
                ));
        }
        let previous = self
            .published
            .insert(dir.clone(), by_file.keys().cloned().collect());
        for stale in previous.unwrap_or_default() {
            by_file.entry(stale).or_default();
        }
        by_file
            .into_iter()
            .filter_map(|(path, diagnostics)| {
                let uri = uri_of(&path)?;
                Some(Notification::new(
                    PublishDiagnostics::METHOD.to_string(),
                    PublishDiagnosticsParams {
                        uri,
                        diagnostics,
                        version: None,
                    },
                ))
            })
            .collect()
    }
}

/// Applies one change: a range replaced, or the whole text.
fn apply(text: &mut String, change: TextDocumentContentChangeEvent) {
    match change.range {
        Some(range) => {
            let start = offset_of(text, range.start);
            let end = offset_of(text, range.end).max(start);
            text.replace_range(start..end, &change.text);
        }
        None => *text = change.text,
    }
}

fn lsp_diagnostic(d: &Diagnostic, text: &str, start: usize, end: usize) -> lsp_types::Diagnostic {
    let mut message = d.summary.clone();
    if let Some(detail) = &d.detail {
        message.push('\n');
        message.push_str(detail);
    }
    if let Some(help) = &d.help {
        message.push_str("\nhelp: ");
        message.push_str(help);
    }
    lsp_types::Diagnostic {
        range: Range {
            start: position_of(text, start),
            end: position_of(text, end),
        },
        severity: Some(match d.severity {
            Severity::Error => DiagnosticSeverity::ERROR,
            Severity::Warning => DiagnosticSeverity::WARNING,
            _ => DiagnosticSeverity::INFORMATION,
        }),
        code: Some(NumberOrString::String(d.code.as_str().to_string())),
        source: Some("fnhcl".into()),
        message,
        ..lsp_types::Diagnostic::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_count_utf16_units() {
        let text = "a\néé = 1\n𝄞x";
        assert_eq!(offset_of(text, Position::new(1, 2)), 2 + 4);
        assert_eq!(position_of(text, 2 + 4), Position::new(1, 2));
        // A character outside the BMP is two UTF-16 units.
        let x = text.find('x').unwrap();
        assert_eq!(position_of(text, x), Position::new(2, 2));
        assert_eq!(offset_of(text, Position::new(2, 2)), x);
        // Past the end of a line: its end.
        assert_eq!(offset_of(text, Position::new(0, 99)), 1);
    }

    #[test]
    fn incremental_changes_apply_in_order() {
        let mut text = "locals {\n  a = 1\n}\n".to_string();
        apply(
            &mut text,
            TextDocumentContentChangeEvent {
                range: Some(Range::new(Position::new(1, 6), Position::new(1, 7))),
                range_length: None,
                text: "42".into(),
            },
        );
        assert_eq!(text, "locals {\n  a = 42\n}\n");
    }
}

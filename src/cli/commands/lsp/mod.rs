//! `fnhcl lsp`: a language server over stdio (JSON-RPC, `lsp-server` as rust-analyzer uses
//! it). A composition is the `.hcl` files of a folder plus its `libraryFiles` (open documents
//! as edited); it is re-checked with every `check` rule on each change and its diagnostics
//! published per file. Requests read the same composition: formatting, hover, completion,
//! definition/references/highlight/rename, symbols, folding, code actions, and with an example
//! XR configured, evaluated values.
//!
//! Stale work is dropped: everything the client has already sent is read before anything is
//! computed, so a burst of edits is checked once, and requests the client cancelled meanwhile
//! are answered `RequestCanceled` without being computed.

mod actions;
mod body;
mod complete;
mod docs;
mod hover;
mod live;
mod navigate;
mod symbols;
mod text;
mod workspace;

use crate::cli::exit::ExitStatus;
use fnhcl::diagnostics::{Diagnostic, Severity};
use fnhcl::source::FileId;
use lsp_server::{Connection, Message, Notification, Request, RequestId, Response};
use lsp_types::notification::{
    Cancel, DidChangeTextDocument, DidChangeWatchedFiles, DidCloseTextDocument,
    DidOpenTextDocument, DidSaveTextDocument, Notification as _, PublishDiagnostics,
};
use lsp_types::request::{
    CodeActionRequest, CodeLensRequest, Completion, DocumentHighlightRequest,
    DocumentSymbolRequest, FoldingRangeRequest, Formatting, GotoDefinition, HoverRequest,
    InlayHintRequest, PrepareRenameRequest, References, Rename, Request as _,
    SemanticTokensFullRequest, SignatureHelpRequest,
};
use lsp_types::{
    DiagnosticSeverity, NumberOrString, Position, PublishDiagnosticsParams, ServerCapabilities,
    TextDocumentPositionParams, TextDocumentSyncCapability, TextDocumentSyncKind, TextEdit, Uri,
};
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::path::{Path, PathBuf};
use text::{offset_of, path_of, position_of, range_of, uri_of};
use workspace::{Composition, Workspace};

/// What the server can do, as told to the client.
fn capabilities() -> ServerCapabilities {
    use lsp_types::{
        CodeActionKind, CodeActionOptions, CodeActionProviderCapability, CodeLensOptions,
        CompletionOptions, HoverProviderCapability, OneOf, RenameOptions, SignatureHelpOptions,
    };
    ServerCapabilities {
        text_document_sync: Some(TextDocumentSyncCapability::Kind(
            TextDocumentSyncKind::INCREMENTAL,
        )),
        document_formatting_provider: Some(OneOf::Left(true)),
        definition_provider: Some(OneOf::Left(true)),
        references_provider: Some(OneOf::Left(true)),
        document_highlight_provider: Some(OneOf::Left(true)),
        rename_provider: Some(OneOf::Right(RenameOptions {
            prepare_provider: Some(true),
            work_done_progress_options: Default::default(),
        })),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        document_symbol_provider: Some(OneOf::Left(true)),
        folding_range_provider: Some(lsp_types::FoldingRangeProviderCapability::Simple(true)),
        completion_provider: Some(CompletionOptions {
            trigger_characters: Some(vec![".".into(), "\"".into()]),
            ..CompletionOptions::default()
        }),
        signature_help_provider: Some(SignatureHelpOptions {
            trigger_characters: Some(vec!["(".into(), ",".into()]),
            ..SignatureHelpOptions::default()
        }),
        code_action_provider: Some(CodeActionProviderCapability::Options(CodeActionOptions {
            code_action_kinds: Some(vec![
                CodeActionKind::QUICKFIX,
                CodeActionKind::SOURCE,
                CodeActionKind::new("source.fixAll.fnhcl"),
            ]),
            ..CodeActionOptions::default()
        })),
        inlay_hint_provider: Some(OneOf::Left(true)),
        semantic_tokens_provider: Some(
            lsp_types::SemanticTokensServerCapabilities::SemanticTokensOptions(
                lsp_types::SemanticTokensOptions {
                    legend: lsp_types::SemanticTokensLegend {
                        token_types: symbols::TOKEN_TYPES
                            .iter()
                            .map(|t| lsp_types::SemanticTokenType::new(t))
                            .collect(),
                        token_modifiers: symbols::TOKEN_MODIFIERS
                            .iter()
                            .map(|m| lsp_types::SemanticTokenModifier::new(m))
                            .collect(),
                    },
                    full: Some(lsp_types::SemanticTokensFullOptions::Bool(true)),
                    range: None,
                    ..lsp_types::SemanticTokensOptions::default()
                },
            ),
        ),
        code_lens_provider: Some(CodeLensOptions {
            resolve_provider: Some(false),
        }),
        ..ServerCapabilities::default()
    }
}

/// Runs the server until the client says `exit`.
pub fn run() -> std::io::Result<ExitStatus> {
    let (connection, io_threads) = Connection::stdio();
    serve(&connection)?;
    drop(connection);
    io_threads
        .join()
        .map_err(|e| std::io::Error::other(e.to_string()))?;
    Ok(ExitStatus::Success)
}

/// Initializes and answers until shutdown.
fn serve(connection: &Connection) -> std::io::Result<()> {
    let capabilities = serde_json::to_value(capabilities()).map_err(std::io::Error::other)?;
    let params = match connection.initialize(capabilities) {
        Ok(params) => params,
        Err(e) => return Err(std::io::Error::other(e.to_string())),
    };
    watch_files(connection, &params);
    let mut server = Server::default();
    while let Ok(first) = connection.receiver.recv() {
        // Everything already sent, so that edits made meanwhile are applied before anything is
        // computed and cancelled requests are never computed.
        let mut batch = vec![first];
        while let Ok(more) = connection.receiver.try_recv() {
            batch.push(more);
        }
        let mut requests = Vec::new();
        let mut dirty = BTreeSet::new();
        let mut cancelled: HashSet<RequestId> = HashSet::new();
        let mut exit = false;
        for message in batch {
            match message {
                Message::Request(request) => requests.push(request),
                Message::Notification(n) if n.method == Cancel::METHOD => {
                    if let Ok(p) = serde_json::from_value::<lsp_types::CancelParams>(n.params) {
                        cancelled.insert(match p.id {
                            NumberOrString::Number(n) => RequestId::from(n),
                            NumberOrString::String(s) => RequestId::from(s),
                        });
                    }
                }
                Message::Notification(n) if n.method == "exit" => exit = true,
                Message::Notification(n) => dirty.extend(server.notification(n)),
                Message::Response(_) => {}
            }
        }
        if std::mem::take(&mut server.settings_changed) {
            refresh(connection, &params);
        }
        for dir in dirty {
            // A bug must not take the editor's server down: the folder is left as it was.
            let checked = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                server.check_folder(&dir)
            }));
            for out in checked.unwrap_or_default() {
                send(connection, Message::Notification(out));
            }
        }
        for request in requests {
            if cancelled.contains(&request.id) {
                send(
                    connection,
                    Message::Response(Response::new_err(
                        request.id,
                        lsp_server::ErrorCode::RequestCanceled as i32,
                        "cancelled".into(),
                    )),
                );
                continue;
            }
            if request.method == "shutdown" {
                send(
                    connection,
                    Message::Response(Response::new_ok(request.id, ())),
                );
                if !exit {
                    wait_for_exit(connection);
                }
                return Ok(());
            }
            let id = request.id.clone();
            let method = request.method.clone();
            let response =
                std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| server.request(request)))
                    .unwrap_or_else(|_| {
                        Response::new_err(
                            id,
                            lsp_server::ErrorCode::InternalError as i32,
                            format!(
                                "fnhcl lsp failed answering {method} (a bug: please report it)"
                            ),
                        )
                    });
            send(connection, Message::Response(response));
        }
        if exit {
            return Ok(());
        }
    }
    Ok(())
}

/// Asks the client to report changes to compositions, configurations and schemas made
/// outside the editor (a checkout, a generator), when it can.
fn watch_files(connection: &Connection, params: &serde_json::Value) {
    let can = params
        .pointer("/capabilities/workspace/didChangeWatchedFiles/dynamicRegistration")
        .and_then(serde_json::Value::as_bool)
        .unwrap_or(false);
    if !can {
        return;
    }
    let watchers: Vec<serde_json::Value> = ["**/*.hcl", "**/*.{yaml,yml,json}", "**/.fnhcl.toml"]
        .into_iter()
        .map(|glob| serde_json::json!({ "globPattern": glob }))
        .collect();
    let register = lsp_types::RegistrationParams {
        registrations: vec![lsp_types::Registration {
            id: "fnhcl-watched-files".into(),
            method: DidChangeWatchedFiles::METHOD.into(),
            register_options: Some(serde_json::json!({ "watchers": watchers })),
        }],
    };
    send(
        connection,
        Message::Request(Request::new(
            RequestId::from("fnhcl-watch".to_string()),
            lsp_types::request::RegisterCapability::METHOD.into(),
            register,
        )),
    );
}

/// Asks the client to ask again for inlay hints and code lenses (live values depend on files
/// the editor does not track), when it can.
fn refresh(connection: &Connection, params: &serde_json::Value) {
    for (capability, method) in [
        (
            "/capabilities/workspace/inlayHint/refreshSupport",
            lsp_types::request::InlayHintRefreshRequest::METHOD,
        ),
        (
            "/capabilities/workspace/codeLens/refreshSupport",
            lsp_types::request::CodeLensRefresh::METHOD,
        ),
    ] {
        if params
            .pointer(capability)
            .and_then(serde_json::Value::as_bool)
            == Some(true)
        {
            send(
                connection,
                Message::Request(Request::new(
                    RequestId::from(format!("fnhcl-{method}")),
                    method.to_string(),
                    serde_json::Value::Null,
                )),
            );
        }
    }
}

/// After `shutdown`: waits (at most 30 s) for `exit`, refusing other requests.
fn wait_for_exit(connection: &Connection) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    loop {
        let left = deadline.saturating_duration_since(std::time::Instant::now());
        match connection.receiver.recv_timeout(left) {
            Ok(Message::Notification(n)) if n.method == "exit" => return,
            Ok(Message::Request(r)) => send(
                connection,
                Message::Response(Response::new_err(
                    r.id,
                    lsp_server::ErrorCode::InvalidRequest as i32,
                    "the server is shutting down".into(),
                )),
            ),
            Ok(_) => {}
            Err(_) => return,
        }
    }
}

fn send(connection: &Connection, message: Message) {
    // A client that went away ends the loop through the closed receiver.
    let _ = connection.sender.send(message);
}

#[derive(Default)]
struct Server {
    ws: Workspace,
    /// A configuration, schema or example file was written since the editor last asked for
    /// inlay hints and code lenses.
    settings_changed: bool,
    /// Files of each folder that were last given diagnostics (to clear them).
    published: HashMap<PathBuf, Vec<PathBuf>>,
}

/// A request's position: the composition it is in, the file and the byte offset.
struct At<'a> {
    /// The open documents and settings.
    pub ws: &'a Workspace,
    /// The composition of the file.
    pub comp: Composition,
    /// The file.
    pub file: FileId,
    /// The byte offset in the file.
    pub offset: usize,
}

impl At<'_> {
    /// The file's text.
    pub fn text(&self) -> &str {
        self.comp.text(self.file)
    }
}

/// Parses a request's parameters and answers with `f`'s result (`null` when it has none).
fn answer<P: DeserializeOwned, R: Serialize>(
    request: Request,
    f: impl FnOnce(P) -> Option<R>,
) -> Response {
    match serde_json::from_value::<P>(request.params) {
        Ok(params) => Response::new_ok(request.id, f(params)),
        Err(e) => Response::new_err(
            request.id,
            lsp_server::ErrorCode::InvalidParams as i32,
            e.to_string(),
        ),
    }
}

impl Server {
    /// The composition, file and offset of a document position.
    fn at(&self, uri: &Uri, position: Position) -> Option<At<'_>> {
        let path = path_of(uri)?;
        let comp = self.ws.composition_for(&path)?;
        let file = comp.file_of(&path)?;
        let offset = offset_of(comp.text(file), position);
        Some(At {
            ws: &self.ws,
            comp,
            file,
            offset,
        })
    }

    fn at_params(&self, p: &TextDocumentPositionParams) -> Option<At<'_>> {
        self.at(&p.text_document.uri, p.position)
    }

    fn request(&mut self, request: Request) -> Response {
        use lsp_types::*;
        match request.method.as_str() {
            Formatting::METHOD => answer(request, |p: DocumentFormattingParams| {
                actions::format(&self.ws, &path_of(&p.text_document.uri)?)
            }),
            GotoDefinition::METHOD => answer(request, |p: GotoDefinitionParams| {
                let at = self.at_params(&p.text_document_position_params)?;
                let places = navigate::places(&at)?;
                places.definition.map(GotoDefinitionResponse::Scalar)
            }),
            References::METHOD => answer(request, |p: ReferenceParams| {
                let at = self.at_params(&p.text_document_position)?;
                let places = navigate::places(&at)?;
                let mut out = Vec::new();
                if p.context.include_declaration {
                    out.extend(places.definition);
                }
                out.extend(places.uses);
                Some(out)
            }),
            DocumentHighlightRequest::METHOD => answer(request, |p: DocumentHighlightParams| {
                let at = self.at_params(&p.text_document_position_params)?;
                navigate::highlights(&at)
            }),
            PrepareRenameRequest::METHOD => answer(request, |p: TextDocumentPositionParams| {
                let at = self.at_params(&p)?;
                navigate::prepare_rename(&at)
            }),
            Rename::METHOD => {
                let new_name = request.params["newName"].as_str().unwrap_or_default();
                if !fnhcl::syntax::schema::is_identifier(new_name) {
                    return Response::new_err(
                        request.id,
                        lsp_server::ErrorCode::InvalidParams as i32,
                        format!(
                            "`{new_name}` is not a valid name: a letter or `_`, then letters, \
                             digits, `_` or `-`"
                        ),
                    );
                }
                answer(request, |p: RenameParams| {
                    let at = self.at_params(&p.text_document_position)?;
                    navigate::rename(&at, &p.new_name)
                })
            }
            Completion::METHOD => answer(request, |p: CompletionParams| {
                let at = self.at_params(&p.text_document_position)?;
                complete::complete(&at).map(CompletionResponse::Array)
            }),
            SignatureHelpRequest::METHOD => answer(request, |p: SignatureHelpParams| {
                let at = self.at_params(&p.text_document_position_params)?;
                hover::signature_help(&at)
            }),
            HoverRequest::METHOD => answer(request, |p: HoverParams| {
                let at = self.at_params(&p.text_document_position_params)?;
                hover::hover(&at)
            }),
            DocumentSymbolRequest::METHOD => answer(request, |p: DocumentSymbolParams| {
                let at = self.at(&p.text_document.uri, Position::default())?;
                symbols::symbols(&at).map(DocumentSymbolResponse::Nested)
            }),
            FoldingRangeRequest::METHOD => answer(request, |p: FoldingRangeParams| {
                let at = self.at(&p.text_document.uri, Position::default())?;
                Some(symbols::folding(&at))
            }),
            CodeActionRequest::METHOD => answer(request, |p: CodeActionParams| {
                let at = self.at(&p.text_document.uri, p.range.start)?;
                Some(actions::code_actions(&at, &p))
            }),
            SemanticTokensFullRequest::METHOD => answer(request, |p: SemanticTokensParams| {
                let at = self.at(&p.text_document.uri, Position::default())?;
                Some(SemanticTokensResult::Tokens(symbols::semantic_tokens(&at)))
            }),
            InlayHintRequest::METHOD => answer(request, |p: InlayHintParams| {
                let at = self.at(&p.text_document.uri, Position::default())?;
                Some(live::inlay_hints(&at, p.range))
            }),
            CodeLensRequest::METHOD => answer(request, |p: CodeLensParams| {
                let at = self.at(&p.text_document.uri, Position::default())?;
                Some(live::code_lenses(&at))
            }),
            _ => Response::new_err(
                request.id,
                lsp_server::ErrorCode::MethodNotFound as i32,
                format!("fnhcl lsp does not answer {}", request.method),
            ),
        }
    }

    /// Applies a notification; returns the composition folders to re-check.
    fn notification(&mut self, notification: Notification) -> Vec<PathBuf> {
        use lsp_types::*;
        fn parse<P: DeserializeOwned>(n: Notification) -> Option<P> {
            serde_json::from_value(n.params).ok()
        }
        let method = notification.method.clone();
        let changed: Vec<PathBuf> = match notification.method.as_str() {
            DidOpenTextDocument::METHOD => {
                let Some(p) = parse::<DidOpenTextDocumentParams>(notification) else {
                    return Vec::new();
                };
                let Some(path) = path_of(&p.text_document.uri) else {
                    return Vec::new();
                };
                self.ws.documents.insert(path.clone(), p.text_document.text);
                vec![path]
            }
            DidChangeTextDocument::METHOD => {
                let Some(p) = parse::<DidChangeTextDocumentParams>(notification) else {
                    return Vec::new();
                };
                let Some(path) = path_of(&p.text_document.uri) else {
                    return Vec::new();
                };
                let text = self.ws.documents.entry(path.clone()).or_default();
                for change in p.content_changes {
                    text::apply(text, change);
                }
                vec![path]
            }
            DidCloseTextDocument::METHOD => {
                let Some(p) = parse::<DidCloseTextDocumentParams>(notification) else {
                    return Vec::new();
                };
                let Some(path) = path_of(&p.text_document.uri) else {
                    return Vec::new();
                };
                self.ws.documents.remove(&path);
                vec![path]
            }
            DidSaveTextDocument::METHOD => {
                let Some(p) = parse::<DidSaveTextDocumentParams>(notification) else {
                    return Vec::new();
                };
                path_of(&p.text_document.uri).into_iter().collect()
            }
            DidChangeWatchedFiles::METHOD => {
                let Some(p) = parse::<DidChangeWatchedFilesParams>(notification) else {
                    return Vec::new();
                };
                p.changes.iter().filter_map(|c| path_of(&c.uri)).collect()
            }
            _ => return Vec::new(),
        };
        // Other files matter once written: an unsaved configuration or schema is not read.
        let written = matches!(
            method.as_str(),
            DidSaveTextDocument::METHOD | DidChangeWatchedFiles::METHOD
        );
        let mut dirs = Vec::new();
        for path in changed {
            if path.extension().is_some_and(|e| e == "hcl") {
                dirs.extend(self.ws.folders_of(&path));
            } else if written
                && path
                    .extension()
                    .is_some_and(|e| e == "toml" || e == "yaml" || e == "yml" || e == "json")
            {
                self.settings_changed = true;
                // A configuration, schema, composition.yaml or example changed: every folder
                // seen so far is read again.
                self.ws.forget_settings();
                dirs.extend(self.published.keys().cloned());
            }
        }
        dirs
    }

    /// Checks the composition of `dir` and returns one `publishDiagnostics` per file, empty
    /// ones for files that no longer have any.
    fn check_folder(&mut self, dir: &Path) -> Vec<Notification> {
        let comp = self.ws.composition(dir);
        let settings = self.ws.settings(dir);
        let findings = comp.findings(&settings.config);
        let mut by_file: BTreeMap<PathBuf, Vec<lsp_types::Diagnostic>> = comp
            .files
            .iter()
            .filter_map(|f| f.path.clone())
            .map(|p| (p, Vec::new()))
            .collect();
        for d in findings {
            let Some(primary) = &d.primary else { continue };
            let Some(path) = comp.path(primary.span.file) else {
                continue;
            };
            let text = comp.text(primary.span.file);
            by_file
                .entry(path.to_path_buf())
                .or_default()
                .push(lsp_diagnostic(
                    d,
                    text,
                    primary.span.start as usize,
                    primary.span.end as usize,
                ));
        }
        // Problems with `.fnhcl.toml` or the schemas go on the configuration file.
        for d in &settings.problems {
            let (path, range) = match &d.primary {
                Some(primary) => {
                    let file = settings.map.get(primary.span.file);
                    (
                        PathBuf::from(file.name()),
                        (primary.span.start as usize, primary.span.end as usize),
                    )
                }
                None => match &settings.config.path {
                    Some(path) => (path.clone(), (0, 0)),
                    None => continue,
                },
            };
            let path = if path.is_absolute() {
                path
            } else {
                std::env::current_dir().unwrap_or_default().join(path)
            };
            let text = std::fs::read_to_string(&path).unwrap_or_default();
            by_file
                .entry(path)
                .or_default()
                .push(lsp_diagnostic(d, &text, range.0, range.1));
        }
        let previous = self
            .published
            .insert(dir.to_path_buf(), by_file.keys().cloned().collect());
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

/// A finding as an LSP diagnostic: its code, message, detail and hint.
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
        range: range_of(text, start, end),
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

/// The built-in function table, built once (building it registers every function: requests
/// that look up many names must not build it per name).
pub(super) fn builtins() -> &'static fnhcl::eval::functions::FunctionTable {
    static TABLE: std::sync::OnceLock<fnhcl::eval::functions::FunctionTable> =
        std::sync::OnceLock::new();
    TABLE.get_or_init(fnhcl::eval::functions::builtins)
}

/// One edit replacing the whole of `text` with `new_text`.
pub(super) fn whole_text_edit(text: &str, new_text: String) -> TextEdit {
    TextEdit {
        range: lsp_types::Range {
            start: Position::new(0, 0),
            end: position_of(text, text.len()),
        },
        new_text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Everything the client sent before the server looked is one batch: twenty edits are
    /// checked once, and a request cancelled in the same batch is never computed.
    #[test]
    fn stale_work_is_dropped() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("main.hcl");
        std::fs::write(&path, "locals {\n  a = 1\n}\n").unwrap();
        let uri = uri_of(&path).unwrap();
        let (server, client) = Connection::memory();
        let request = |id: i32, method: &str, params: serde_json::Value| {
            Message::Request(Request::new(id.into(), method.to_string(), params))
        };
        let notify = |method: &str, params: serde_json::Value| {
            Message::Notification(Notification::new(method.to_string(), params))
        };
        let out = &client.sender;
        out.send(request(1, "initialize", json!({"capabilities": {}})))
            .unwrap();
        out.send(notify("initialized", json!({}))).unwrap();
        out.send(notify(
            DidOpenTextDocument::METHOD,
            json!({"textDocument": {"uri": uri, "languageId": "hcl", "version": 1, "text": "locals {\n  a = 1\n}\n"}}),
        ))
        .unwrap();
        for version in 2..22 {
            out.send(notify(
                DidChangeTextDocument::METHOD,
                json!({"textDocument": {"uri": uri, "version": version}, "contentChanges": [{"text": format!("locals {{\n  a = {version}\n}}\n")}]}),
            ))
            .unwrap();
        }
        let position =
            json!({"textDocument": {"uri": uri}, "position": {"line": 1, "character": 2}});
        out.send(request(2, HoverRequest::METHOD, position.clone()))
            .unwrap();
        out.send(notify(Cancel::METHOD, json!({"id": 2}))).unwrap();
        out.send(request(3, DocumentHighlightRequest::METHOD, position))
            .unwrap();
        out.send(request(4, "shutdown", serde_json::Value::Null))
            .unwrap();
        out.send(notify("exit", serde_json::Value::Null)).unwrap();
        serve(&server).unwrap();
        let got: Vec<Message> = client.receiver.try_iter().collect();
        let published: Vec<&Notification> = got
            .iter()
            .filter_map(|m| match m {
                Message::Notification(n) if n.method == PublishDiagnostics::METHOD => Some(n),
                _ => None,
            })
            .collect();
        assert_eq!(published.len(), 1, "{got:?}");
        let responses: HashMap<i32, &Response> = got
            .iter()
            .filter_map(|m| match m {
                Message::Response(r) => Some((r.id.to_string().parse().unwrap(), r)),
                _ => None,
            })
            .collect();
        assert_eq!(
            responses[&2].error.as_ref().map(|e| e.code),
            Some(lsp_server::ErrorCode::RequestCanceled as i32)
        );
        // The highlight saw the last edit's text: `a` is defined on line 2.
        let highlights = responses[&3].result.clone().unwrap();
        assert_eq!(
            highlights[0]["range"]["start"],
            json!({"line": 1, "character": 2})
        );
        assert!(responses[&4].error.is_none());
    }
}

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

pub mod convert;

use crate::ide::workspace::Workspace;
use crate::ide::{self, At};
use convert::{offset_of, path_of, uri_of};
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
    NumberOrString, Position, PublishDiagnosticsParams, ServerCapabilities,
    TextDocumentPositionParams, TextDocumentSyncCapability, TextDocumentSyncKind, Uri,
};
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::path::{Path, PathBuf};

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
                        token_types: ide::symbols::TOKEN_TYPES
                            .iter()
                            .map(|t| lsp_types::SemanticTokenType::new(t))
                            .collect(),
                        token_modifiers: ide::symbols::TOKEN_MODIFIERS
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

/// Runs the server on stdin and stdout until the client says `exit`.
pub fn run() -> std::io::Result<()> {
    let (connection, io_threads) = Connection::stdio();
    serve(&connection)?;
    drop(connection);
    io_threads
        .join()
        .map_err(|e| std::io::Error::other(e.to_string()))
}

/// Initializes and answers on `connection` until shutdown.
pub fn serve(connection: &Connection) -> std::io::Result<()> {
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
        let mut at = At::new(&self.ws, &path, 0)?;
        at.offset = offset_of(at.text(), position);
        Some(at)
    }

    fn at_params(&self, p: &TextDocumentPositionParams) -> Option<At<'_>> {
        self.at(&p.text_document.uri, p.position)
    }

    fn request(&mut self, request: Request) -> Response {
        use lsp_types::*;
        match request.method.as_str() {
            Formatting::METHOD => answer(request, |p: DocumentFormattingParams| {
                let path = path_of(&p.text_document.uri)?;
                let edits = ide::actions::format(&self.ws, &path)?;
                let text = self.ws.text(&path).unwrap_or_default();
                Some(
                    edits
                        .into_iter()
                        .map(|e| convert::text_edit(&text, e))
                        .collect::<Vec<_>>(),
                )
            }),
            GotoDefinition::METHOD => answer(request, |p: GotoDefinitionParams| {
                let at = self.at_params(&p.text_document_position_params)?;
                let places = ide::navigate::places(&at)?;
                let definition = places.definition.as_ref()?;
                convert::location(&at.comp, definition).map(GotoDefinitionResponse::Scalar)
            }),
            References::METHOD => answer(request, |p: ReferenceParams| {
                let at = self.at_params(&p.text_document_position)?;
                let places = ide::navigate::places(&at)?;
                let mut out = Vec::new();
                if p.context.include_declaration {
                    out.extend(places.definition.iter());
                }
                out.extend(places.uses.iter());
                Some(
                    out.into_iter()
                        .filter_map(|place| convert::location(&at.comp, place))
                        .collect::<Vec<_>>(),
                )
            }),
            DocumentHighlightRequest::METHOD => answer(request, |p: DocumentHighlightParams| {
                let at = self.at_params(&p.text_document_position_params)?;
                let text = at.text();
                let found = ide::navigate::highlights(&at)?;
                Some(
                    found
                        .into_iter()
                        .map(|(range, kind)| DocumentHighlight {
                            range: convert::range_of(text, range.start, range.end),
                            kind: Some(match kind {
                                ide::types::HighlightKind::Write => DocumentHighlightKind::WRITE,
                                ide::types::HighlightKind::Read => DocumentHighlightKind::READ,
                            }),
                        })
                        .collect::<Vec<_>>(),
                )
            }),
            PrepareRenameRequest::METHOD => answer(request, |p: TextDocumentPositionParams| {
                let at = self.at_params(&p)?;
                let (range, name) = ide::navigate::prepare_rename(&at)?;
                Some(PrepareRenameResponse::RangeWithPlaceholder {
                    range: convert::range_of(at.text(), range.start, range.end),
                    placeholder: name,
                })
            }),
            Rename::METHOD => {
                let new_name = request.params["newName"].as_str().unwrap_or_default();
                if !crate::syntax::schema::is_identifier(new_name) {
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
                    let change = ide::navigate::rename(&at, &p.new_name)?;
                    Some(convert::workspace_edit(&at.comp, change))
                })
            }
            Completion::METHOD => answer(request, |p: CompletionParams| {
                let at = self.at_params(&p.text_document_position)?;
                let items = ide::complete::complete(&at)?;
                let text = at.text();
                Some(CompletionResponse::Array(
                    items
                        .into_iter()
                        .map(|i| convert::completion(text, i))
                        .collect(),
                ))
            }),
            SignatureHelpRequest::METHOD => answer(request, |p: SignatureHelpParams| {
                let at = self.at_params(&p.text_document_position_params)?;
                ide::hover::signature_help(&at).map(convert::signature_help)
            }),
            HoverRequest::METHOD => answer(request, |p: HoverParams| {
                let at = self.at_params(&p.text_document_position_params)?;
                let info = ide::hover::hover(&at)?;
                Some(convert::hover(at.text(), info))
            }),
            DocumentSymbolRequest::METHOD => answer(request, |p: DocumentSymbolParams| {
                let at = self.at(&p.text_document.uri, Position::default())?;
                let symbols = ide::symbols::symbols(&at)?;
                let text = at.text();
                Some(DocumentSymbolResponse::Nested(
                    symbols
                        .into_iter()
                        .map(|s| convert::symbol(text, s))
                        .collect(),
                ))
            }),
            FoldingRangeRequest::METHOD => answer(request, |p: FoldingRangeParams| {
                let at = self.at(&p.text_document.uri, Position::default())?;
                Some(
                    ide::symbols::folding(&at)
                        .into_iter()
                        .map(convert::fold)
                        .collect::<Vec<_>>(),
                )
            }),
            CodeActionRequest::METHOD => answer(request, |p: CodeActionParams| {
                let at = self.at(&p.text_document.uri, p.range.start)?;
                let text = at.text();
                let from = offset_of(text, p.range.start);
                let to = offset_of(text, p.range.end);
                let only: Option<Vec<String>> = p
                    .context
                    .only
                    .as_ref()
                    .map(|kinds| kinds.iter().map(|k| k.as_str().to_string()).collect());
                let actions = ide::actions::code_actions(&at, from, to, only.as_deref());
                Some(
                    actions
                        .into_iter()
                        .map(|a| convert::code_action(text, &p.text_document.uri, a))
                        .collect::<Vec<_>>(),
                )
            }),
            SemanticTokensFullRequest::METHOD => answer(request, |p: SemanticTokensParams| {
                let at = self.at(&p.text_document.uri, Position::default())?;
                let tokens = ide::symbols::semantic_tokens(&at);
                Some(SemanticTokensResult::Tokens(convert::semantic_tokens(
                    at.text(),
                    tokens,
                )))
            }),
            InlayHintRequest::METHOD => answer(request, |p: InlayHintParams| {
                let at = self.at(&p.text_document.uri, Position::default())?;
                let notes = ide::live::block_notes(&at);
                Some(convert::inlay_hints(at.text(), notes, p.range))
            }),
            CodeLensRequest::METHOD => answer(request, |p: CodeLensParams| {
                let at = self.at(&p.text_document.uri, Position::default())?;
                let notes = ide::live::block_notes(&at);
                Some(convert::code_lenses(at.text(), notes))
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
                    convert::apply(text, change);
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
                .push(convert::diagnostic(
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
                .push(convert::diagnostic(d, &text, range.0, range.1));
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

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
mod server;
pub mod transport;

use crate::ide::{self};
use crate::source::pointer::Pointer;
use lsp_server::{Connection, Message, Request, RequestId, Response};
use lsp_types::notification::{Cancel, DidChangeWatchedFiles, Notification as _};
use lsp_types::request::Request as _;
use lsp_types::{
    NumberOrString, ServerCapabilities, TextDocumentSyncCapability, TextDocumentSyncKind,
};
use server::Server;
use std::collections::{BTreeSet, HashSet};

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

/// Runs the server on stdin and stdout until the client says `exit`. A client whose framing
/// breaks (a malformed or oversized header) ends the session with that error.
pub fn run() -> std::io::Result<()> {
    let (connection, io) = transport::stdio()?;
    let served = serve(&connection);
    drop(connection);
    io.finish()?;
    served
}

/// Plays a whole session: the bytes a client sent (framed messages) in, the bytes the server
/// wrote out. Everything is read before the server starts, over an in-memory connection;
/// for tests and fuzzing of the transport and the message handling.
pub fn session(input: &[u8]) -> Vec<u8> {
    let (server, client) = Connection::memory();
    let Connection { sender, receiver } = client;
    let _ = transport::pump(input, |m| sender.send(m).is_ok());
    drop(sender);
    let _ = serve(&server);
    drop(server);
    let mut out = Vec::new();
    for message in receiver.try_iter() {
        let _ = message.write(&mut out);
    }
    out
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
        .at("/capabilities/workspace/didChangeWatchedFiles/dynamicRegistration")
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
        if params.at(capability).and_then(serde_json::Value::as_bool) == Some(true) {
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

#[cfg(test)]
mod tests {
    use super::convert::uri_of;
    use super::*;
    use lsp_server::Notification;
    use lsp_types::notification::{DidChangeTextDocument, DidOpenTextDocument, PublishDiagnostics};
    use lsp_types::request::{DocumentHighlightRequest, HoverRequest};
    use serde_json::json;
    use std::collections::HashMap;

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

//! Requests and notifications: each request's position turned into a byte offset, the `ide`
//! function that answers it, and its answer turned into LSP's types; edits applied to the open
//! documents; a folder's findings published per file.

use super::convert::{self, LineIndex, offset_of, path_of, uri_of};
use crate::ide::workspace::Workspace;
use crate::ide::{self, At};
use lsp_server::{Notification, Request, Response};
use lsp_types::notification::{
    DidChangeTextDocument, DidChangeWatchedFiles, DidCloseTextDocument, DidOpenTextDocument,
    DidSaveTextDocument, Notification as _, PublishDiagnostics,
};
use lsp_types::request::{
    CodeActionRequest, CodeLensRequest, Completion, DocumentHighlightRequest,
    DocumentSymbolRequest, FoldingRangeRequest, Formatting, GotoDefinition, HoverRequest,
    InlayHintRequest, PrepareRenameRequest, References, Rename, Request as _,
    SemanticTokensFullRequest, SignatureHelpRequest,
};
use lsp_types::{Position, PublishDiagnosticsParams, TextDocumentPositionParams, Uri};
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

/// The server's state between messages: the workspace and what was published.
#[derive(Default)]
pub(super) struct Server {
    ws: Workspace,
    /// A configuration, schema or example file was written since the editor last asked for
    /// inlay hints and code lenses.
    pub settings_changed: bool,
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

    /// Answers a request.
    pub fn request(&mut self, request: Request) -> Response {
        use lsp_types::*;
        match request.method.as_str() {
            Formatting::METHOD => answer(request, |p: DocumentFormattingParams| {
                let path = path_of(&p.text_document.uri)?;
                let edits = ide::actions::format(&self.ws, &path)?;
                let text = self.ws.text(&path).unwrap_or_default();
                let lines = LineIndex::new(&text);
                Some(
                    edits
                        .into_iter()
                        .map(|e| convert::text_edit(&lines, e))
                        .collect::<Vec<_>>(),
                )
            }),
            GotoDefinition::METHOD => answer(request, |p: GotoDefinitionParams| {
                let at = self.at_params(&p.text_document_position_params)?;
                let places = ide::navigate::places(&at)?;
                let definition = places.definition.as_ref()?;
                convert::locations(&at.comp, [definition])
                    .pop()
                    .map(GotoDefinitionResponse::Scalar)
            }),
            References::METHOD => answer(request, |p: ReferenceParams| {
                let at = self.at_params(&p.text_document_position)?;
                let places = ide::navigate::places(&at)?;
                let mut out = Vec::new();
                if p.context.include_declaration {
                    out.extend(places.definition.iter());
                }
                out.extend(places.uses.iter());
                Some(convert::locations(&at.comp, out))
            }),
            DocumentHighlightRequest::METHOD => answer(request, |p: DocumentHighlightParams| {
                let at = self.at_params(&p.text_document_position_params)?;
                let lines = LineIndex::new(at.text());
                let found = ide::navigate::highlights(&at)?;
                Some(
                    found
                        .into_iter()
                        .map(|(range, kind)| DocumentHighlight {
                            range: lines.range(range.start, range.end),
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
                let id = request.id.clone();
                let params = match serde_json::from_value::<RenameParams>(request.params) {
                    Ok(params) => params,
                    Err(e) => {
                        return Response::new_err(
                            id,
                            lsp_server::ErrorCode::InvalidParams as i32,
                            e.to_string(),
                        );
                    }
                };
                let refused = |reason| {
                    Response::new_err(
                        id.clone(),
                        lsp_server::ErrorCode::InvalidParams as i32,
                        reason,
                    )
                };
                let new_name = &params.new_name;
                if !crate::syntax::schema::is_identifier(new_name) {
                    return refused(format!(
                        "`{new_name}` is not a valid name: a letter or `_`, then letters, \
                         digits, `_` or `-`"
                    ));
                }
                let Some(at) = self.at_params(&params.text_document_position) else {
                    return Response::new_ok(id, serde_json::Value::Null);
                };
                match ide::navigate::rename(&at, new_name) {
                    Some(Ok(change)) => {
                        Response::new_ok(id, convert::workspace_edit(&at.comp, change))
                    }
                    Some(Err(reason)) => refused(reason),
                    None => Response::new_ok(id, serde_json::Value::Null),
                }
            }
            Completion::METHOD => answer(request, |p: CompletionParams| {
                let place = &p.text_document_position;
                if let Some(path) =
                    path_of(&place.text_document.uri).filter(|path| ide::testfile::is_test(path))
                {
                    let text = self.ws.text(&path)?;
                    let lines = LineIndex::new(&text);
                    let offset = offset_of(&text, place.position);
                    let items = ide::testfile::complete(&self.ws, &path, offset)?;
                    return Some(CompletionResponse::Array(
                        items
                            .into_iter()
                            .map(|i| convert::completion(&lines, i))
                            .collect(),
                    ));
                }
                let at = self.at_params(&p.text_document_position)?;
                let items = ide::complete::complete(&at)?;
                let lines = LineIndex::new(at.text());
                Some(CompletionResponse::Array(
                    items
                        .into_iter()
                        .map(|i| convert::completion(&lines, i))
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
                let lines = LineIndex::new(at.text());
                Some(DocumentSymbolResponse::Nested(
                    symbols
                        .into_iter()
                        .map(|s| convert::symbol(&lines, s))
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
                let lines = LineIndex::new(text);
                Some(
                    actions
                        .into_iter()
                        .map(|a| convert::code_action(&lines, &p.text_document.uri, a))
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
                let mut notes = ide::live::block_notes(&at);
                notes.extend(ide::coverage::block_notes(&at));
                Some(convert::inlay_hints(at.text(), notes, p.range))
            }),
            CodeLensRequest::METHOD => answer(request, |p: CodeLensParams| {
                let at = self.at(&p.text_document.uri, Position::default())?;
                let mut notes = ide::live::block_notes(&at);
                notes.extend(ide::coverage::block_notes(&at));
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
    pub fn notification(&mut self, notification: Notification) -> Vec<PathBuf> {
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
            } else if !written && crate::source::loader::is_yaml(&path) {
                // A Composition as edited: its folder's patch-and-transform findings.
                dirs.extend(path.parent().map(Path::to_path_buf));
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
    pub fn check_folder(&mut self, dir: &Path) -> Vec<Notification> {
        let comp = self.ws.composition(dir);
        let settings = self.ws.settings(dir);
        let findings = comp.findings(&settings.config);
        // One line index per file: a file with many findings is converted in linear time.
        let mut indexes: HashMap<crate::source::FileId, LineIndex> = HashMap::new();
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
            let lines = indexes
                .entry(primary.span.file)
                .or_insert_with(|| LineIndex::new(comp.text(primary.span.file)));
            by_file
                .entry(path.to_path_buf())
                .or_default()
                .push(convert::diagnostic(
                    d,
                    lines,
                    primary.span.start as usize,
                    primary.span.end as usize,
                ));
        }
        // Test files and patch-and-transform Compositions of the folder are no part of its
        // composition: checked on their own.
        let tests = ide::testfile::folder(&self.ws, dir);
        let compositions = ide::pt::folder(&self.ws, dir);
        for test in tests.into_iter().chain(compositions) {
            let lines = LineIndex::new(&test.text);
            let converted = test
                .diagnostics
                .iter()
                .filter_map(|d| {
                    let primary = d.primary.as_ref()?;
                    let (start, end) = (primary.span.start as usize, primary.span.end as usize);
                    Some(convert::diagnostic(d, &lines, start, end))
                })
                .collect();
            by_file.insert(test.path, converted);
        }
        // Problems with `.fnhcl.toml` or the schemas go on the configuration file.
        for d in &settings.problems {
            // The text the problem's span points into was read with the settings: the file is
            // not read again (it could be anything by now).
            let (path, text, range) = match &d.primary {
                Some(primary) => {
                    let file = settings.map.get(primary.span.file);
                    (
                        PathBuf::from(file.name()),
                        file.text(),
                        (primary.span.start as usize, primary.span.end as usize),
                    )
                }
                None => match &settings.config.path {
                    Some(path) => (path.clone(), "", (0, 0)),
                    None => continue,
                },
            };
            let path = if path.is_absolute() {
                path
            } else {
                std::env::current_dir().unwrap_or_default().join(path)
            };
            let lines = LineIndex::new(text);
            by_file
                .entry(path)
                .or_default()
                .push(convert::diagnostic(d, &lines, range.0, range.1));
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

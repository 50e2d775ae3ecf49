//! Structure-aware sessions for the language server's fuzz target: a description (read by
//! `arbitrary`) of documents opened, edited and closed and of requests at any position, framed
//! as an editor frames them between `initialize` and `exit`. Positions and ranges take any
//! `u32`, texts are seed compositions or anything, URIs include odd ones.

use arbitrary::Arbitrary;
use serde_json::{Value, json};

/// The most operations one session runs (each request may check a whole composition).
const MAX_OPS: usize = 48;

/// Compositions worth analysing (their folder does not exist: only open documents are read).
const SEEDS: &[&str] = &[
    "locals {\n  a = 1\n  b = a + 1\n}\n",
    "locals {\n  name = req.composite.metadata.name\n}\n\nresource bucket {\n  body = {\n    apiVersion = \"s3.aws.upbound.io/v1beta1\"\n    kind       = \"Bucket\"\n    metadata   = { name = name }\n  }\n}\n",
    "function label {\n  arg name {\n    description = \"the base name\"\n  }\n  body = \"${name}-x\"\n}\n\nresource r {\n  condition = regoin != \"\"\n  body = { data = { l = invoke(\"label\", { name = \"x\" }), zones = [for z in [\"a\"] : \"${z}\"] } }\n}\n",
    "resources things {\n  for_each = range(3)\n  name     = \"thing-${each.key}\"\n  template {\n    locals {\n      x = each.value\n    }\n    body = { apiVersion = \"v1\", kind = \"ConfigMap\", data = { v = tostring(x) } }\n  }\n}\n",
    "group {\n  condition = true\n  resource a {\n    body = { apiVersion = \"v1\", kind = \"ConfigMap\" }\n    ready {\n      value = self.resource != null\n    }\n  }\n}\ncomposite status {\n  body = { ok = req.resource.a != null }\n}\n",
    "locals {\n  s = <<-EOT\n    ${a}\n    %{ for x in [1] }${x}%{ endfor }\n  EOT\n  a = \"é𝄞\"\n}\n",
    "locals {\n  broken = [\n  x = {\n",
];

/// A document's text.
#[derive(Arbitrary, Debug)]
pub enum Text {
    Seed(u8),
    Any(String),
    /// A seed with a string inserted at a byte offset (clamped to a character boundary).
    Spliced(u8, u16, String),
}

impl Text {
    fn text(&self) -> String {
        match self {
            Text::Seed(n) => SEEDS[*n as usize % SEEDS.len()].to_string(),
            Text::Any(s) => s.clone(),
            Text::Spliced(n, at, s) => {
                let mut text = SEEDS[*n as usize % SEEDS.len()].to_string();
                let mut at = *at as usize % (text.len() + 1);
                while !text.is_char_boundary(at) {
                    at -= 1;
                }
                text.insert_str(at, s);
                text
            }
        }
    }
}

/// A document.
#[derive(Arbitrary, Debug, Clone, Copy)]
pub enum Doc {
    Main,
    Other,
    Nested,
    /// The same folder's configuration (not `.hcl`).
    Config,
    /// URIs the server must refuse or survive.
    Odd(u8),
}

impl Doc {
    fn uri(self) -> String {
        let base = "file:///nonexistent-fnhcl-fuzz";
        match self {
            Doc::Main => format!("{base}/main.hcl"),
            Doc::Other => format!("{base}/other.hcl"),
            Doc::Nested => format!("{base}/lib/x%20y.hcl"),
            Doc::Config => format!("{base}/.fnhcl.toml"),
            Doc::Odd(n) => [
                "file://",
                "file:///",
                "untitled:Untitled-1",
                "file:///nonexistent-fnhcl-fuzz/%ZZ%.hcl",
                "file:///nonexistent-fnhcl-fuzz/../../x.hcl",
                "file:///nonexistent-fnhcl-fuzz/%00.hcl",
                "http://example.com/a.hcl",
                "file:///nonexistent-fnhcl-fuzz/é.hcl",
            ][n as usize % 8]
                .to_string(),
        }
    }
}

/// A request that takes a position.
#[derive(Arbitrary, Debug, Clone, Copy)]
pub enum At {
    Hover,
    Completion,
    Definition,
    References,
    Highlight,
    Signature,
    PrepareRename,
}

/// A request on a whole document.
#[derive(Arbitrary, Debug, Clone, Copy)]
pub enum Whole {
    Formatting,
    Symbols,
    Folding,
    Tokens,
    Lens,
}

/// One thing the editor does.
#[derive(Arbitrary, Debug)]
pub enum Op {
    Open(Doc, Text),
    /// A ranged edit (`None`: the whole text replaced).
    Change(Doc, Option<(u32, u32, u32, u32)>, Text),
    Close(Doc),
    Save(Doc),
    Watched(Doc, u8),
    Request(At, Doc, u32, u32),
    Whole(Whole, Doc),
    Actions(Doc, u32, u32, u32, u32, Option<String>),
    Inlay(Doc, u32, u32, u32, u32),
    Rename(Doc, u32, u32, String),
    /// Cancels a request by its id.
    Cancel(u16),
    /// A method the server does not know, with any parameters.
    Unknown(bool, String),
    /// A body that is not JSON-RPC, well framed.
    Junk(String),
}

/// A whole session.
#[derive(Arbitrary, Debug)]
pub struct Session {
    pub ops: Vec<Op>,
    /// Whether it ends with `shutdown` and `exit`.
    pub shutdown: bool,
}

fn position(line: u32, character: u32) -> Value {
    json!({"line": line, "character": character})
}

fn range(a: u32, b: u32, c: u32, d: u32) -> Value {
    json!({"start": position(a, b), "end": position(c, d)})
}

impl Session {
    /// The bytes an editor would send.
    pub fn bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        let mut id = 1;
        let frame = |body: &str, out: &mut Vec<u8>| {
            out.extend_from_slice(format!("Content-Length: {}\r\n\r\n", body.len()).as_bytes());
            out.extend_from_slice(body.as_bytes());
        };
        let mut send = |method: &str, params: Value, request: bool, out: &mut Vec<u8>| {
            let message = if request {
                id += 1;
                json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
            } else {
                json!({"jsonrpc": "2.0", "method": method, "params": params})
            };
            frame(&message.to_string(), out);
        };
        send(
            "initialize",
            json!({"processId": null, "rootUri": null, "capabilities": {"workspace": {"inlayHint": {"refreshSupport": true}, "didChangeWatchedFiles": {"dynamicRegistration": true}}}}),
            true,
            &mut out,
        );
        send("initialized", json!({}), false, &mut out);
        for op in self.ops.iter().take(MAX_OPS) {
            let doc = |d: &Doc| json!({"uri": d.uri()});
            match op {
                Op::Open(d, text) => send(
                    "textDocument/didOpen",
                    json!({"textDocument": {"uri": d.uri(), "languageId": "hcl", "version": 1, "text": text.text()}}),
                    false,
                    &mut out,
                ),
                Op::Change(d, r, text) => {
                    let change = match r {
                        Some((a, b, c, e)) => {
                            json!({"range": range(*a, *b, *c, *e), "text": text.text()})
                        }
                        None => json!({"text": text.text()}),
                    };
                    send(
                        "textDocument/didChange",
                        json!({"textDocument": {"uri": d.uri(), "version": 2}, "contentChanges": [change]}),
                        false,
                        &mut out,
                    );
                }
                Op::Close(d) => send(
                    "textDocument/didClose",
                    json!({"textDocument": doc(d)}),
                    false,
                    &mut out,
                ),
                Op::Save(d) => send(
                    "textDocument/didSave",
                    json!({"textDocument": doc(d)}),
                    false,
                    &mut out,
                ),
                Op::Watched(d, kind) => send(
                    "workspace/didChangeWatchedFiles",
                    json!({"changes": [{"uri": d.uri(), "type": 1 + kind % 3}]}),
                    false,
                    &mut out,
                ),
                Op::Request(method, d, line, character) => {
                    let method = match method {
                        At::Hover => "textDocument/hover",
                        At::Completion => "textDocument/completion",
                        At::Definition => "textDocument/definition",
                        At::References => "textDocument/references",
                        At::Highlight => "textDocument/documentHighlight",
                        At::Signature => "textDocument/signatureHelp",
                        At::PrepareRename => "textDocument/prepareRename",
                    };
                    send(
                        method,
                        json!({"textDocument": doc(d), "position": position(*line, *character), "context": {"includeDeclaration": true}}),
                        true,
                        &mut out,
                    );
                }
                Op::Whole(method, d) => {
                    let method = match method {
                        Whole::Formatting => "textDocument/formatting",
                        Whole::Symbols => "textDocument/documentSymbol",
                        Whole::Folding => "textDocument/foldingRange",
                        Whole::Tokens => "textDocument/semanticTokens/full",
                        Whole::Lens => "textDocument/codeLens",
                    };
                    send(
                        method,
                        json!({"textDocument": doc(d), "options": {"tabSize": 2, "insertSpaces": true}}),
                        true,
                        &mut out,
                    );
                }
                Op::Actions(d, a, b, c, e, only) => {
                    let mut context = json!({"diagnostics": []});
                    if let Some(only) = only {
                        context["only"] = json!([only]);
                    }
                    send(
                        "textDocument/codeAction",
                        json!({"textDocument": doc(d), "range": range(*a, *b, *c, *e), "context": context}),
                        true,
                        &mut out,
                    );
                }
                Op::Inlay(d, a, b, c, e) => send(
                    "textDocument/inlayHint",
                    json!({"textDocument": doc(d), "range": range(*a, *b, *c, *e)}),
                    true,
                    &mut out,
                ),
                Op::Rename(d, line, character, name) => send(
                    "textDocument/rename",
                    json!({"textDocument": doc(d), "position": position(*line, *character), "newName": name}),
                    true,
                    &mut out,
                ),
                Op::Cancel(n) => send("$/cancelRequest", json!({"id": n}), false, &mut out),
                Op::Unknown(request, method) => {
                    send(method, json!({"x": method}), *request, &mut out)
                }
                Op::Junk(body) => frame(body, &mut out),
            }
        }
        if self.shutdown {
            send("shutdown", Value::Null, true, &mut out);
            send("exit", Value::Null, false, &mut out);
        }
        out
    }
}

//! `fnhcl lsp` driven over stdio with JSON-RPC, as an editor drives it: initialize, open a
//! document, diagnostics, an edit that fixes it, formatting, shutdown. Every wait is bounded;
//! the server is killed if the test fails.

use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

struct Server {
    child: Child,
    stdin: ChildStdin,
    messages: Receiver<Value>,
    next_id: i64,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Server {
    fn start() -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_fnhcl"))
            .arg("lsp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("fnhcl lsp starts");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, messages) = channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            loop {
                let mut length = 0usize;
                loop {
                    let mut line = String::new();
                    if reader.read_line(&mut line).unwrap_or(0) == 0 {
                        return;
                    }
                    let line = line.trim_end();
                    if line.is_empty() {
                        break;
                    }
                    if let Some(n) = line.strip_prefix("Content-Length: ") {
                        length = n.parse().unwrap_or(0);
                    }
                }
                let mut body = vec![0; length];
                if reader.read_exact(&mut body).is_err() {
                    return;
                }
                if tx.send(serde_json::from_slice(&body).unwrap()).is_err() {
                    return;
                }
            }
        });
        Server {
            child,
            stdin,
            messages,
            next_id: 0,
        }
    }

    fn send(&mut self, message: Value) {
        let body = message.to_string();
        write!(self.stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).unwrap();
        self.stdin.flush().unwrap();
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    /// Sends a request and waits (at most 10 s) for its response.
    fn request(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        loop {
            let message = self.next();
            if message.get("id") == Some(&json!(id)) {
                return message;
            }
        }
    }

    fn next(&mut self) -> Value {
        self.messages
            .recv_timeout(Duration::from_secs(10))
            .expect("the server answers within 10 s")
    }

    /// The next diagnostics published for `uri`.
    fn diagnostics(&mut self, uri: &str) -> Vec<Value> {
        loop {
            let message = self.next();
            if message["method"] == "textDocument/publishDiagnostics"
                && message["params"]["uri"] == uri
            {
                return message["params"]["diagnostics"].as_array().unwrap().clone();
            }
        }
    }
}

#[test]
fn an_editor_session() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    let path = root.join("main.hcl");
    let text = "locals {\n  unused = 1\n  used   = 2\n}\n\nresource r {\n  body = {\n    apiVersion = \"v1\"\n    kind       = \"ConfigMap\"\n    data       = { n = \"${used}\" }\n  }\n}\n";
    std::fs::write(&path, text).unwrap();
    let uri = format!("file://{}", path.display());
    let mut server = Server::start();
    let init = server.request(
        "initialize",
        json!({"processId": null, "rootUri": format!("file://{}", root.display()), "capabilities": {}}),
    );
    assert_eq!(init["result"]["capabilities"]["textDocumentSync"], json!(2));
    assert_eq!(
        init["result"]["capabilities"]["documentFormattingProvider"],
        json!(true)
    );
    server.notify("initialized", json!({}));
    server.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": uri, "languageId": "hcl", "version": 1, "text": text}}),
    );
    let diagnostics = server.diagnostics(&uri);
    assert_eq!(diagnostics.len(), 1, "{diagnostics:#?}");
    assert_eq!(diagnostics[0]["code"], "L601");
    assert_eq!(
        diagnostics[0]["range"],
        json!({"start": {"line": 1, "character": 2}, "end": {"line": 1, "character": 8}})
    );
    // Go to the definition of `used` from its use in the template, and its references.
    let definition = server.request(
        "textDocument/definition",
        json!({"textDocument": {"uri": uri}, "position": {"line": 9, "character": 27}}),
    );
    assert_eq!(
        definition["result"],
        json!({"uri": uri, "range": {"start": {"line": 2, "character": 2}, "end": {"line": 2, "character": 6}}})
    );
    let references = server.request(
        "textDocument/references",
        json!({"textDocument": {"uri": uri}, "position": {"line": 2, "character": 3}, "context": {"includeDeclaration": false}}),
    );
    assert_eq!(
        references["result"],
        json!([{"uri": uri, "range": {"start": {"line": 9, "character": 26}, "end": {"line": 9, "character": 30}}}])
    );
    // Hover: a local's definition at a reference to it.
    let hover = server.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": uri}, "position": {"line": 9, "character": 27}}),
    );
    let value = hover["result"]["contents"]["value"].as_str().unwrap();
    assert!(
        value.contains("used   = 2") && value.contains("1 reference(s)"),
        "{value}"
    );
    // Symbols: the locals and the resource.
    let symbols = server.request(
        "textDocument/documentSymbol",
        json!({"textDocument": {"uri": uri}}),
    );
    let names: Vec<&str> = symbols["result"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["unused", "used", "resource r"]);
    // Rename a local: the definition and every reference.
    let rename = server.request(
        "textDocument/rename",
        json!({"textDocument": {"uri": uri}, "position": {"line": 2, "character": 3}, "newName": "count"}),
    );
    let edits = rename["result"]["changes"][&uri].as_array().unwrap();
    assert_eq!(edits.len(), 2, "{edits:#?}");
    assert!(edits.iter().all(|e| e["newText"] == "count"));
    // An edit that uses the local: no more findings.
    server.notify(
        "textDocument/didChange",
        json!({
            "textDocument": {"uri": uri, "version": 2},
            "contentChanges": [{
                "range": {"start": {"line": 9, "character": 32}, "end": {"line": 9, "character": 32}},
                "text": ", m = unused"
            }]
        }),
    );
    assert_eq!(server.diagnostics(&uri), Vec::<Value>::new());
    // The edited text is not formatted (`n = …, m = …` in a one-line object is, but the
    // alignment of `unused`/`used` is): formatting returns one edit with fmt's text.
    let formatted = server.request(
        "textDocument/formatting",
        json!({"textDocument": {"uri": uri}, "options": {"tabSize": 2, "insertSpaces": true}}),
    );
    let edits = formatted["result"].as_array().unwrap();
    assert!(edits.len() <= 1, "{edits:#?}");
    // A syntax error is reported at its place.
    server.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 3}, "contentChanges": [{"text": "locals {\n  a = \n}\n"}]}),
    );
    let diagnostics = server.diagnostics(&uri);
    assert!(
        diagnostics.iter().any(|d| d["code"] == "S001"),
        "{diagnostics:#?}"
    );
    // Hover on a built-in function: its signature.
    server.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 4}, "contentChanges": [{"text": "locals {\n  a = upper(\"x\")\n}\n"}]}),
    );
    server.diagnostics(&uri);
    let hover = server.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": uri}, "position": {"line": 1, "character": 7}}),
    );
    let value = hover["result"]["contents"]["value"].as_str().unwrap();
    assert!(value.contains("upper(str string)"), "{value}");
    // Completion: a block's attributes and blocks by the schema, names in an expression,
    // `req`'s members after `req.`.
    server.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 5}, "contentChanges": [{"text": "resource r {\n  \n}\nlocals {\n  a = 1\n  b = \n  c = req.\n}\n"}]}),
    );
    server.diagnostics(&uri);
    let labels = |server: &mut Server, line: u32, character: u32| -> Vec<String> {
        let result = server.request(
            "textDocument/completion",
            json!({"textDocument": {"uri": uri}, "position": {"line": line, "character": character}}),
        );
        result["result"]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| i["label"].as_str().unwrap().to_string())
            .collect()
    };
    let in_resource = labels(&mut server, 1, 2);
    for want in [
        "body",
        "condition",
        "ready",
        "locals",
        "composite",
        "context",
    ] {
        assert!(
            in_resource.iter().any(|l| l == want),
            "{want} in {in_resource:?}"
        );
    }
    assert!(
        !in_resource.iter().any(|l| l == "function"),
        "{in_resource:?}"
    );
    let in_expression = labels(&mut server, 5, 6);
    for want in ["a", "req", "upper", "jsonencode"] {
        assert!(
            in_expression.iter().any(|l| l == want),
            "{want} in {in_expression:?}"
        );
    }
    let after_req = labels(&mut server, 6, 10);
    assert!(after_req.iter().any(|l| l == "composite"), "{after_req:?}");
    let shutdown = server.request("shutdown", Value::Null);
    assert_eq!(shutdown["result"], Value::Null);
    server.notify("exit", Value::Null);
    let status = wait(&mut server.child);
    assert_eq!(status, Some(0));
}

fn wait(child: &mut Child) -> Option<i32> {
    for _ in 0..100 {
        if let Ok(Some(status)) = child.try_wait() {
            return status.code();
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    None
}

//! `fnhcl lsp` driven over stdio with JSON-RPC, as an editor drives it: initialize, open a
//! document, diagnostics, an edit that fixes it, formatting, shutdown. Every wait is bounded;
//! the server is killed if the test fails.
//!
//! `tests/fixtures/lsp/CASE/` are editor sessions: the case's files are copied to a temporary
//! folder and its `session.txt` is played, one command a line (positions `FILE:LINE:COL`,
//! 1-based):
//!
//! ```text
//! open FILE                     didOpen (the file's text)
//! change FILE:L:C-L:C TEXT      didChange replacing the range (`\n` for a newline)
//! diagnostics FILE              the next diagnostics published for FILE
//! write FILE TEXT               FILE written on disk (`\\n` for a newline), reported as a
//!                               watched-file change
//! hover | completion | definition | references | highlight | signature | prepare FILE:L:C
//! rename FILE:L:C NAME
//! format | symbols | folding | inlay | lens | tokens FILE
//! actions FILE:L:C-L:C          code actions for the range (with the file's diagnostics)
//! ```
//!
//! Each command and its answer (paths as `$ROOT`) make the transcript, compared with
//! `snapshots/lsp/CASE.snap`.

use serde_json::{Value, json};
use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

struct Server {
    child: Child,
    stdin: ChildStdin,
    messages: Receiver<Value>,
    next_id: i64,
    /// Diagnostics published and not yet asked for, by URI.
    published: HashMap<String, Vec<Value>>,
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
            published: HashMap::new(),
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
            self.keep(message);
        }
    }

    /// Keeps published diagnostics for [`Self::diagnostics`].
    fn keep(&mut self, message: Value) {
        if message["method"] == "textDocument/publishDiagnostics" {
            let uri = message["params"]["uri"]
                .as_str()
                .unwrap_or_default()
                .to_string();
            let list = message["params"]["diagnostics"].as_array().cloned();
            self.published.insert(uri, list.unwrap_or_default());
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
            if let Some(found) = self.published.remove(uri) {
                return found;
            }
            let message = self.next();
            self.keep(message);
        }
    }

    fn initialize(&mut self, root: &Path) {
        let init = self.request(
            "initialize",
            json!({"processId": null, "rootUri": format!("file://{}", root.display()), "capabilities": {}}),
        );
        assert!(init.get("result").is_some(), "{init}");
        self.notify("initialized", json!({}));
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
        value.contains("used   = 2") && value.contains("1 reference"),
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

/// Copies a fixture folder (recursively).
fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

/// `FILE:L:C` (1-based) as a URI and an LSP position; `FILE:L:C-L:C` as a range.
fn place(root: &Path, arg: &str) -> (String, Value) {
    let (file, rest) = arg.split_once(':').unwrap_or((arg, ""));
    let uri = format!("file://{}", root.join(file).display());
    let position = |text: &str| -> Value {
        let (line, col) = text.split_once(':').expect("LINE:COL");
        json!({"line": line.parse::<u32>().unwrap() - 1, "character": col.parse::<u32>().unwrap() - 1})
    };
    let at = match rest.split_once('-') {
        _ if rest.is_empty() => Value::Null,
        Some((start, end)) => json!({"start": position(start), "end": position(end)}),
        None => position(rest),
    };
    (uri, at)
}

/// One completion item a line: label, kind, what it inserts, its detail.
fn completion_lines(result: &Value) -> String {
    let items = result
        .as_array()
        .or_else(|| result["items"].as_array())
        .cloned()
        .unwrap_or_default();
    let mut out = String::new();
    let mut builtins = 0;
    for item in items {
        // The built-in functions are the same list everywhere: counted, not listed.
        if item["kind"] == 3 && item["detail"].as_str().is_some_and(|d| d.contains('(')) {
            builtins += 1;
            continue;
        }
        out.push_str(&format!("- {}", item["label"].as_str().unwrap_or_default()));
        if let Some(kind) = item["kind"].as_u64() {
            out.push_str(&format!(" [kind {kind}]"));
        }
        if let Some(insert) = item["insertText"].as_str() {
            out.push_str(&format!(" inserts {insert:?}"));
        }
        if let Some(detail) = item["detail"].as_str() {
            out.push_str(&format!(" — {detail}"));
        }
        out.push('\n');
    }
    if builtins > 0 {
        out.push_str(&format!("- … and {builtins} built-in functions\n"));
    }
    out
}

/// Semantic tokens decoded, one a line: `L:C type[+modifiers] text` (the legend is the
/// server's: see `initialize`).
fn token_lines(result: &Value, text: &str) -> String {
    const TYPES: &[&str] = &[
        "keyword",
        "type",
        "property",
        "variable",
        "parameter",
        "namespace",
        "function",
    ];
    const MODIFIERS: &[&str] = &["declaration", "defaultLibrary"];
    let data: Vec<u64> = result["data"]
        .as_array()
        .map(|d| d.iter().filter_map(Value::as_u64).collect())
        .unwrap_or_default();
    let lines: Vec<&str> = text.lines().collect();
    let (mut line, mut col) = (0u64, 0u64);
    let mut out = String::new();
    for t in data.chunks(5) {
        if t[0] > 0 {
            line += t[0];
            col = t[1];
        } else {
            col += t[1];
        }
        let words: String = lines
            .get(line as usize)
            .map(|l| l.chars().skip(col as usize).take(t[2] as usize).collect())
            .unwrap_or_default();
        let mut kind = TYPES.get(t[3] as usize).copied().unwrap_or("?").to_string();
        for (i, m) in MODIFIERS.iter().enumerate() {
            if t[4] & (1 << i) != 0 {
                kind.push('+');
                kind.push_str(m);
            }
        }
        out.push_str(&format!("{}:{} {kind} {words}\n", line + 1, col + 1));
    }
    out
}

/// Ranges written `L:C-L:C` (1-based), positions `L:C`, so that transcripts stay readable.
fn compact(value: Value) -> Value {
    let position = |p: &Value| -> Option<String> {
        Some(format!(
            "{}:{}",
            p.get("line")?.as_u64()? + 1,
            p.get("character")?.as_u64()? + 1
        ))
    };
    match value {
        Value::Object(map) => {
            if map.len() == 2
                && let (Some(start), Some(end)) = (
                    map.get("start").and_then(position),
                    map.get("end").and_then(position),
                )
            {
                return Value::String(format!("{start}-{end}"));
            }
            if map.len() == 2
                && let Some(at) = position(&Value::Object(map.clone()))
            {
                return Value::String(at);
            }
            Value::Object(map.into_iter().map(|(k, v)| (k, compact(v))).collect())
        }
        Value::Array(items) => Value::Array(items.into_iter().map(compact).collect()),
        other => other,
    }
}

/// Plays one session and returns its transcript.
fn play(case: &Path) -> String {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    copy_tree(case, &root);
    let script = std::fs::read_to_string(root.join("session.txt")).unwrap();
    let mut server = Server::start();
    server.initialize(&root);
    let mut transcript = String::new();
    for line in script.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (command, rest) = line.split_once(' ').unwrap_or((line, ""));
        let (target, extra) = rest.split_once(' ').unwrap_or((rest, ""));
        let (uri, at) = place(&root, target);
        let doc = json!({"uri": uri});
        let result = match command {
            "open" => {
                let text = std::fs::read_to_string(root.join(target)).unwrap();
                server.notify(
                    "textDocument/didOpen",
                    json!({"textDocument": {"uri": uri, "languageId": "hcl", "version": 1, "text": text}}),
                );
                continue;
            }
            "change" => {
                // Diagnostics asked for after a change are the change's: everything the
                // server sent before it is read (a request answered in order) and dropped.
                server.request("fnhcl/sync", Value::Null);
                server.published.clear();
                let text = extra.replace("\\n", "\n");
                server.notify(
                    "textDocument/didChange",
                    json!({"textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"range": at, "text": text}]}),
                );
                continue;
            }
            "write" => {
                server.request("fnhcl/sync", Value::Null);
                server.published.clear();
                let path = root.join(target);
                std::fs::create_dir_all(path.parent().unwrap()).unwrap();
                std::fs::write(&path, extra.replace("\\n", "\n")).unwrap();
                server.notify(
                    "workspace/didChangeWatchedFiles",
                    json!({"changes": [{"uri": uri, "type": 1}]}),
                );
                continue;
            }
            "diagnostics" => Value::Array(server.diagnostics(&uri)),
            "hover" | "completion" | "definition" | "references" | "highlight" | "signature"
            | "prepare" => {
                let method = match command {
                    "hover" => "textDocument/hover",
                    "completion" => "textDocument/completion",
                    "definition" => "textDocument/definition",
                    "references" => "textDocument/references",
                    "highlight" => "textDocument/documentHighlight",
                    "signature" => "textDocument/signatureHelp",
                    _ => "textDocument/prepareRename",
                };
                let mut params = json!({"textDocument": doc, "position": at});
                if command == "references" {
                    params["context"] = json!({"includeDeclaration": true});
                }
                let answer = server.request(method, params);
                assert!(answer.get("error").is_none(), "{line}: {answer}");
                answer["result"].clone()
            }
            "rename" => {
                let answer = server.request(
                    "textDocument/rename",
                    json!({"textDocument": doc, "position": at, "newName": extra}),
                );
                match answer.get("error") {
                    Some(error) => json!({ "error": error["message"] }),
                    None => answer["result"].clone(),
                }
            }
            "format" => server.request(
                "textDocument/formatting",
                json!({"textDocument": doc, "options": {"tabSize": 2, "insertSpaces": true}}),
            )["result"]
                .clone(),
            "symbols" => server.request(
                "textDocument/documentSymbol",
                json!({"textDocument": doc}),
            )["result"]
                .clone(),
            "folding" => server.request(
                "textDocument/foldingRange",
                json!({"textDocument": doc}),
            )["result"]
                .clone(),
            "inlay" => server.request(
                "textDocument/inlayHint",
                json!({"textDocument": doc, "range": {"start": {"line": 0, "character": 0}, "end": {"line": 100000, "character": 0}}}),
            )["result"]
                .clone(),
            "tokens" => server.request(
                "textDocument/semanticTokens/full",
                json!({"textDocument": doc}),
            )["result"]
                .clone(),
            "lens" => server.request(
                "textDocument/codeLens",
                json!({"textDocument": doc}),
            )["result"]
                .clone(),
            "actions" => {
                let diagnostics = server.published.get(&uri).cloned().unwrap_or_default();
                server.request(
                    "textDocument/codeAction",
                    json!({"textDocument": doc, "range": at, "context": {"diagnostics": diagnostics}}),
                )["result"]
                    .clone()
            }
            other => panic!("unknown session command {other:?} in {}", case.display()),
        };
        let shown = match command {
            "completion" => completion_lines(&result),
            "tokens" => token_lines(
                &result,
                &std::fs::read_to_string(root.join(target)).unwrap(),
            ),
            "hover" => match result["contents"]["value"].as_str() {
                Some(markdown) => format!("{markdown}\n"),
                None => format!("{result}\n"),
            },
            _ => format!(
                "{}\n",
                serde_json::to_string_pretty(&compact(result)).unwrap()
            ),
        };
        transcript.push_str(&format!("> {line}\n{shown}\n"));
    }
    let shutdown = server.request("shutdown", Value::Null);
    assert_eq!(shutdown["result"], Value::Null);
    server.notify("exit", Value::Null);
    assert_eq!(wait(&mut server.child), Some(0));
    transcript.replace(&root.display().to_string(), "$ROOT")
}

#[test]
fn fixture_sessions() {
    let cases = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/lsp");
    let mut names: Vec<_> = std::fs::read_dir(&cases)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert!(!names.is_empty());
    for name in names {
        let transcript = play(&cases.join(&name));
        insta::with_settings!({snapshot_path => "../snapshots/lsp", prepend_module_to_snapshot => false, description => format!("tests/fixtures/lsp/{name}/session.txt")}, {
            insta::assert_snapshot!(name.clone(), transcript);
        });
    }
}

/// Every position request at every token start of every session fixture's `.hcl` files (and
/// at each line's end) is answered without an internal error: no request panics, whatever is
/// under the cursor.
#[test]
fn every_request_at_every_token_answers() {
    let cases = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/lsp");
    let mut names: Vec<_> = std::fs::read_dir(&cases)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    names.sort();
    for case in names {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        copy_tree(&case, &root);
        let mut server = Server::start();
        server.initialize(&root);
        let files: Vec<_> = walk_hcl(&root);
        for path in files {
            let text = std::fs::read_to_string(&path).unwrap();
            let uri = format!("file://{}", path.display());
            server.notify(
                "textDocument/didOpen",
                json!({"textDocument": {"uri": uri, "languageId": "hcl", "version": 1, "text": text}}),
            );
            let doc = json!({"uri": uri});
            for method in [
                "textDocument/documentSymbol",
                "textDocument/foldingRange",
                "textDocument/semanticTokens/full",
                "textDocument/codeLens",
            ] {
                let answer = server.request(method, json!({"textDocument": doc}));
                assert!(answer.get("error").is_none(), "{method} {uri}: {answer}");
            }
            for (line, content) in text.lines().enumerate() {
                let chars: Vec<char> = content.chars().collect();
                let mut columns: Vec<usize> = (0..chars.len())
                    .filter(|&i| {
                        i == 0 || chars[i - 1].is_alphanumeric() != chars[i].is_alphanumeric()
                    })
                    .collect();
                columns.push(chars.len());
                for col in columns {
                    let position = json!({"line": line, "character": col});
                    for method in [
                        "textDocument/hover",
                        "textDocument/completion",
                        "textDocument/definition",
                        "textDocument/documentHighlight",
                        "textDocument/signatureHelp",
                        "textDocument/prepareRename",
                    ] {
                        let answer = server
                            .request(method, json!({"textDocument": doc, "position": position}));
                        assert!(
                            answer.get("error").is_none(),
                            "{method} at {}:{}:{}: {answer}",
                            path.display(),
                            line + 1,
                            col + 1
                        );
                    }
                    let answer = server.request(
                        "textDocument/codeAction",
                        json!({"textDocument": doc, "range": {"start": position, "end": position}, "context": {"diagnostics": []}}),
                    );
                    assert!(answer.get("error").is_none(), "codeAction: {answer}");
                }
            }
        }
        let shutdown = server.request("shutdown", Value::Null);
        assert_eq!(shutdown["result"], Value::Null);
        server.notify("exit", Value::Null);
        assert_eq!(wait(&mut server.child), Some(0));
    }
}

/// The `.hcl` files below a folder.
fn walk_hcl(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            out.extend(walk_hcl(&path));
        } else if path.extension().is_some_and(|e| e == "hcl") {
            out.push(path);
        }
    }
    out.sort();
    out
}

/// Runs `fnhcl lsp` on `input` (stdin closed after it): its exit code (`None`: killed by a
/// signal or still running after 5 s) and its standard error.
fn run_raw(input: &[u8]) -> (Option<i32>, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_fnhcl"))
        .arg("lsp")
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("fnhcl lsp starts");
    let mut stdin = child.stdin.take().unwrap();
    // The server may stop reading early: a refused write is expected.
    let _ = stdin.write_all(input);
    drop(stdin);
    let mut stderr = child.stderr.take().unwrap();
    let code = wait(&mut child);
    let _ = child.kill();
    let _ = child.wait();
    let mut text = String::new();
    let _ = stderr.read_to_string(&mut text);
    (code, text)
}

fn framed(body: &str) -> String {
    format!("Content-Length: {}\r\n\r\n{body}", body.len())
}

/// Broken framing ends the session with an error naming it (exit 2), never an abort: a
/// claimed size far past the cap (once allocated before reading, SIGABRT), a header line with
/// no end, a header without `: `, before and after `initialize`.
#[test]
fn broken_framing_is_refused_with_an_error() {
    let init =
        framed(r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}"#);
    let huge = "Content-Length: 1000000000000000000\r\n\r\n{}";
    let endless = "A".repeat(1 << 20);
    for (input, message) in [
        (
            huge.to_string(),
            "Content-Length \"1000000000000000000\" is not a size of at most 64 MiB",
        ),
        (format!("{init}{huge}"), "is not a size of at most 64 MiB"),
        (endless, "a line longer than 1024 bytes"),
        (
            format!("{init}Content-Length 2\r\n\r\n{{}}"),
            "malformed header",
        ),
    ] {
        let (code, stderr) = run_raw(input.as_bytes());
        assert_eq!(code, Some(2), "{stderr}");
        assert!(stderr.contains(message), "{stderr}");
        assert!(
            !stderr.contains("panicked") && !stderr.contains("memory allocation"),
            "{stderr}"
        );
    }
}

/// The server keeps answering after a body that is not JSON-RPC, requests whose positions
/// are far past the text (or negative), and 10,000 edits sent without waiting; and a whole
/// session — formatting, code actions, renames included — never writes a file.
#[test]
fn hostile_messages_are_survived_and_nothing_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    let text = "locals {\n  a = 1\n  unused = 2\n}\nresource r {\n  body = { apiVersion = \"v1\", kind = \"ConfigMap\", data = { a = a } }\n}\n";
    std::fs::write(root.join("main.hcl"), "locals {\na=1\n}\n").unwrap();
    std::fs::write(
        root.join(".fnhcl.toml"),
        "[rules]\nunformatted = \"warning\"\n",
    )
    .unwrap();
    let tree = |root: &Path| -> Vec<(std::path::PathBuf, Vec<u8>, Option<std::time::SystemTime>)> {
        let mut out: Vec<_> = std::fs::read_dir(root)
            .unwrap()
            .map(|e| {
                let p = e.unwrap().path();
                let meta = std::fs::metadata(&p).unwrap();
                (
                    p.clone(),
                    std::fs::read(&p).unwrap_or_default(),
                    meta.modified().ok(),
                )
            })
            .collect();
        out.sort();
        out
    };
    let before = tree(&root);
    let mut server = Server::start();
    server.initialize(&root);
    let uri = format!("file://{}/main.hcl", root.display());
    let doc = json!({"uri": uri});
    server.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": uri, "languageId": "hcl", "version": 1, "text": text}}),
    );
    for body in [
        "{bad}",
        "[]",
        "{}",
        "null",
        r#"{"jsonrpc":"2.0","id":{},"method":"x"}"#,
    ] {
        write!(server.stdin, "{}", framed(body)).unwrap();
    }
    for (line, character) in [
        (json!(1_000_000_000u32), json!(1_000_000_000u32)),
        (json!(u32::MAX), json!(0)),
        (json!(1), json!(u32::MAX)),
        (json!(-1), json!(-1)),
    ] {
        let position = json!({"line": line, "character": character});
        for method in [
            "textDocument/hover",
            "textDocument/completion",
            "textDocument/definition",
            "textDocument/signatureHelp",
            "textDocument/prepareRename",
        ] {
            let answer = server.request(method, json!({"textDocument": doc, "position": position}));
            let code = answer["error"]["code"].as_i64();
            // Answered: a result, or invalid parameters for a negative position.
            assert!(
                code.is_none() || code == Some(-32602),
                "{method} {position}: {answer}"
            );
        }
        let range = json!({"start": position, "end": position});
        let answer = server.request(
            "textDocument/codeAction",
            json!({"textDocument": doc, "range": range, "context": {"diagnostics": []}}),
        );
        assert!(
            answer.get("result").is_some() || answer["error"]["code"] == -32602,
            "{answer}"
        );
        server.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"range": range, "text": ""}]}),
        );
    }
    // 10,000 edits, each typing one character at the end of line 2, with no wait.
    for i in 0..10_000u32 {
        server.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": uri, "version": 3 + i}, "contentChanges": [{"range": {"start": {"line": 1, "character": 7 + i}, "end": {"line": 1, "character": 7 + i}}, "text": "0"}]}),
        );
    }
    let hover = server.request(
        "textDocument/hover",
        json!({"textDocument": doc, "position": {"line": 1, "character": 2}}),
    );
    assert!(
        hover["result"]["contents"]["value"]
            .as_str()
            .is_some_and(|v| v.contains(&format!("a = 1{}", "0".repeat(10_000)))),
        "{hover}"
    );
    for (method, params) in [
        (
            "textDocument/formatting",
            json!({"textDocument": doc, "options": {"tabSize": 2, "insertSpaces": true}}),
        ),
        (
            "textDocument/rename",
            json!({"textDocument": doc, "position": {"line": 1, "character": 2}, "newName": "b"}),
        ),
        (
            "textDocument/codeAction",
            json!({"textDocument": doc, "range": {"start": {"line": 2, "character": 2}, "end": {"line": 2, "character": 2}}, "context": {"diagnostics": []}}),
        ),
    ] {
        let answer = server.request(method, params);
        assert!(answer.get("result").is_some(), "{method}: {answer}");
    }
    let shutdown = server.request("shutdown", Value::Null);
    assert_eq!(shutdown["result"], Value::Null);
    server.notify("exit", Value::Null);
    assert_eq!(wait(&mut server.child), Some(0));
    assert_eq!(tree(&root), before, "the server wrote a file");
}

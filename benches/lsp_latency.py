#!/usr/bin/env python3
"""fnhcl lsp latency (issue 20): time from didChange to the publishDiagnostics that follows,
and of hover, completion and definition requests, on the largest example and on generated
compositions of 2,400 and 24,000 lines (200 and 2,000 resources with locals).

Usage: cargo build --release && python3 benches/lsp_latency.py target/release/fnhcl
"""
import json, subprocess, sys, time, os, tempfile, statistics
binary = sys.argv[1]
def frame(p, msg):
    body = json.dumps(msg).encode()
    p.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body); p.stdin.flush()
def read(p):
    length = 0
    while True:
        line = p.stdout.readline()
        if not line: return None
        line = line.strip()
        if not line: break
        if line.startswith(b"Content-Length:"): length = int(line.split(b":")[1])
    return json.loads(p.stdout.read(length))
def bench(path, text, edits=30, live=False):
    p = subprocess.Popen([binary, "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    frame(p, {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"processId":None,"capabilities":{}}})
    read(p)
    frame(p, {"jsonrpc":"2.0","method":"initialized","params":{}})
    uri = "file://" + os.path.abspath(path)
    frame(p, {"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":uri,"languageId":"hcl","version":1,"text":text}}})
    while True:
        m = read(p)
        if m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri: break
    times = []
    requests = {}
    def ask(method, params, n=20):
        out = []
        for i in range(n):
            t = time.perf_counter()
            frame(p, {"jsonrpc":"2.0","id":100+i,"method":method,"params":params})
            while True:
                m = read(p)
                if m.get("id") == 100+i: break
            out.append((time.perf_counter() - t) * 1000)
        out.sort()
        return statistics.median(out)
    at = {"textDocument":{"uri":uri},"position":probe(text)}
    requests["hover"] = ask("textDocument/hover", at)
    requests["completion"] = ask("textDocument/completion", at)
    requests["definition"] = ask("textDocument/definition", at)
    for v in range(edits):
        t = time.perf_counter()
        frame(p, {"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":uri,"version":v+2},"contentChanges":[{"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":0}},"text":"# edit\n" if v % 2 == 0 else ""}]}})
        while True:
            m = read(p)
            if m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri: break
        times.append((time.perf_counter() - t) * 1000)
        if live:
            # The example evaluated again for the edited text (its result is cached until then).
            t = time.perf_counter()
            frame(p, {"jsonrpc":"2.0","id":500+v,"method":"textDocument/inlayHint","params":{"textDocument":{"uri":uri},"range":{"start":{"line":0,"character":0},"end":{"line":len(text.splitlines())+1,"character":0}}}})
            while True:
                m = read(p)
                if m.get("id") == 500+v: break
            requests.setdefault("inlay hints after an edit", []).append((time.perf_counter() - t) * 1000)
    frame(p, {"jsonrpc":"2.0","id":2,"method":"shutdown","params":None}); read(p)
    frame(p, {"jsonrpc":"2.0","method":"exit","params":None}); p.wait(5)
    times.sort()
    requests = {k: (statistics.median(v) if isinstance(v, list) else v) for k, v in requests.items()}
    return statistics.median(times), times[int(len(times)*0.9)], requests
def probe(text):
    """The position of the last reference to a local (`= name…` in a body), else 0:0."""
    lines = text.split("\n")
    for i in range(len(lines) - 1, -1, -1):
        j = lines[i].find("n = name")
        if j >= 0: return {"line": i, "character": j + 5}
    return {"line": 0, "character": 0}
def show(label, result):
    m, p90, r = result
    rq = ", ".join(f"{k} {v:.1f} ms" for k, v in r.items())
    print(f"{label}: didChange→diagnostics median {m:.1f} ms, p90 {p90:.1f} ms; requests (median): {rq}")
ex = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "examples", "subnets-collection")
files = sorted(f for f in os.listdir(ex) if f.endswith(".hcl"))
big = max(files, key=lambda f: os.path.getsize(os.path.join(ex, f)))
text = open(os.path.join(ex, big)).read()
show(f"largest example ({big}, {text.count(chr(10))} lines)", bench(os.path.join(ex, big), text))
for count in (200, 2000):
  d = tempfile.mkdtemp()
  blocks = []
  for i in range(count):
    blocks.append(f'''locals {{
  name{i} = "res-{i}"
}}

resource r{i} {{
  body = {{
    apiVersion = "v1"
    kind       = "ConfigMap"
    data       = {{ n = name{i} }}
  }}
}}
''')
  text = "\n".join(blocks)
  path = os.path.join(d, "main.hcl"); open(path, "w").write(text)
  show(f"generated composition ({text.count(chr(10))} lines, {count} resources)", bench(path, text, edits=30 if count == 200 else 10))
  # Live values: the same composition with an example XR.
  open(os.path.join(d, "xr.yaml"), "w").write("apiVersion: example.org/v1\nkind: XApp\nmetadata:\n  name: app\nspec: {}\n")
  open(os.path.join(d, ".fnhcl.toml"), "w").write('[example]\nxr = "xr.yaml"\n')
  show(f"  with an [example] (live values)", bench(path, text, edits=30 if count == 200 else 10, live=True))

#!/usr/bin/env python3
"""Builds the seed directories the evaluator's fuzz targets start from.

Writes fuzz/seeds-run/{eval,program,inputs}/ (git-ignored) from this repository's fixtures and
examples and, when ../shared/conformance is beside the repository, from its cases (read here,
never committed). Text seeds get the leading even byte that `fnhcl_fuzz::input_text` reads as
"the rest is text". Run from anywhere: python3 fuzz/seed.py
"""
import hashlib, json, pathlib, sys

root = pathlib.Path(__file__).resolve().parent.parent
shared = root.parent / "shared" / "conformance"
out = root / "fuzz" / "seeds-run"


def put(target, data):
    d = out / target
    d.mkdir(parents=True, exist_ok=True)
    (d / hashlib.sha1(data).hexdigest()).write_bytes(data)


def exprs(node):
    if isinstance(node, dict):
        for k, v in node.items():
            if k in ("expr", "expression") and isinstance(v, str):
                yield v
            else:
                yield from exprs(v)
    elif isinstance(node, list):
        for v in node:
            yield from exprs(v)


def walk(base, pattern):
    return sorted(p for p in base.glob(pattern) if p.is_file()) if base.exists() else []


counts = {}
for f in walk(root / "tests/fixtures", "**/*.json") + walk(shared / "functions", "*.json"):
    try:
        doc = json.loads(f.read_text())
    except (ValueError, UnicodeDecodeError):
        continue
    for e in exprs(doc):
        put("eval", b"\0" + e.encode())
for base in (root / "tests/fixtures", root / "examples", shared):
    for f in walk(base, "**/*.hcl"):
        put("program", b"\0" + f.read_bytes())
    for f in walk(base, "**/*.yaml") + walk(base, "**/*.json"):
        if f.stat().st_size <= 64 * 1024:
            put("inputs", f.read_bytes())
for target in ("eval", "program", "inputs"):
    print(target, len(list((out / target).iterdir())))

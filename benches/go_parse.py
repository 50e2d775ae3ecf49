#!/usr/bin/env python3
"""Go's HCL parser (hclsyntax, through the PyPI package pygohcl) on the parse benchmark's input.

    cargo bench --bench parse -- --write-input /tmp/bench.hcl
    python3 benches/go_parse.py /tmp/bench.hcl

pygohcl exposes no parse-only entry point. Its Go function `Parse` parses the file with
hclsyntax and then converts the body to JSON (literal expressions evaluated, the others kept as
source text); `pygohcl.loads` adds the UTF-8 encode, the FFI copy and Python's `json.loads`.
Both are timed: `Parse` (the lightest thing pygohcl offers, the comparison to use) and `loads`.
Either way this measures more than lexing and parsing, so it flatters fnhcl.

A third row approximates Go's lex+parse alone: the same input with one syntax error appended
at the very end, so `Parse` parses the whole file, fails, and returns before the conversion
(it then only formats that one diagnostic).

Timing is as in benches/parse.rs: 0.5 s warm-up, then repeated runs for 3 s, median per run,
throughput in decimal MB/s (1 MB = 1e6 bytes).
"""

import statistics
import sys
import time

import pygohcl

WARM_UP = 0.5
MEASURE = 3.0


# Appended for the parse-only approximation: a missing expression right before the end.
TRAILING_ERROR = b"\n__bench_trailing_error__ =\n"


def go_parse(data: bytes) -> str | None:
    """pygohcl's Go `Parse`: hclsyntax parse plus Go-side conversion to JSON when the input
    is valid. Returns the error text, or None."""
    buf = pygohcl.ffi.new("char[]", data)
    ret = pygohcl.lib.Parse(buf, 0)
    if ret.err != pygohcl.ffi.NULL:
        err = pygohcl.ffi.string(ret.err).decode("utf8")
        pygohcl.lib.FreePtr(ret.err)
        return err
    pygohcl.lib.FreePtr(ret.json)
    return None


def report(name: str, size: int, f) -> None:
    start = time.perf_counter()
    while time.perf_counter() - start < WARM_UP:
        f()
    samples = []
    start = time.perf_counter()
    while time.perf_counter() - start < MEASURE or len(samples) < 5:
        t = time.perf_counter_ns()
        f()
        samples.append(time.perf_counter_ns() - t)
    median = statistics.median(samples) / 1e9
    print(
        f"{name:<28} median {median * 1e3:8.3f} ms/iter  {size / 1e6 / median:8.1f} MB/s"
        f"  ({len(samples)} iterations, min {min(samples) / 1e6:.3f} ms,"
        f" max {max(samples) / 1e6:.3f} ms)"
    )


def main() -> int:
    if len(sys.argv) != 2:
        print(f"usage: {sys.argv[0]} INPUT.hcl", file=sys.stderr)
        return 2
    with open(sys.argv[1], "rb") as f:
        data = f.read()
    text = data.decode("utf8")

    # The input must parse without errors (pygohcl raises on any error diagnostic).
    try:
        pygohcl.loads(text)
    except pygohcl.HCLParseError as e:
        print(f"Go's HCL parser rejects the input: {e}", file=sys.stderr)
        return 1
    broken = data + TRAILING_ERROR
    err = go_parse(broken)
    # Exactly one error, on the appended line (the last one).
    last_line = broken.count(b"\n")
    if err is None or err.count("tmp.hcl:") != 1 or f"tmp.hcl:{last_line}," not in err:
        print(f"unexpected result for the input with a trailing error: {err}", file=sys.stderr)
        return 1
    print(f"input: {len(data)} bytes ({len(data) / 1e6:.3f} MB), Go hclsyntax (pygohcl): no errors")
    print("note: pygohcl has no parse-only entry point; its Parse also converts the body to JSON")
    print("      in Go, and loads adds Python's json.loads, so those rows measure more than parsing;")
    print("      'parse only (approx.)' parses the input plus one trailing syntax error, which makes")
    print("      Parse stop before the conversion")

    report("Go Parse (parse + to JSON)", len(data), lambda: go_parse(data))
    report("Go parse only (approx.)", len(data), lambda: go_parse(broken))
    report("pygohcl.loads (+ json.loads)", len(data), lambda: pygohcl.loads(text))
    return 0


if __name__ == "__main__":
    sys.exit(main())

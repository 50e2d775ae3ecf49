#!/usr/bin/env python3
"""Compare fnhcl's syntax diagnostics with Go HCL's (through PyPI pygohcl) for fixture files.

Usage: tests/tools/syntax_oracle.py [--write] DIR...
For each DIR/input.hcl, prints Go's diagnostics and ours as `range: summary; detail` lines.
Go stops reporting after its first error in a file (a recovery flag); fnhcl reports the first
error of each top-level item. So Go's lines must all appear among ours. With --write,
saves our lines as DIR/expected.txt once that holds. Development only: needs
`pip install pygohcl==1.2.9`; never run in CI.
"""
import json, os, subprocess, sys

FNHCL = os.environ.get("FNHCL", os.path.join(os.path.dirname(__file__), "../../target/debug/fnhcl"))

def go_diags(path):
    import pygohcl
    text = open(path, encoding="utf-8", newline="").read()
    try:
        pygohcl.loads(text)
        return []
    except Exception as e:  # pygohcl raises HCLParseError("invalid HCL: a, b")
        msg = str(e)
        prefix = "invalid HCL: "
        msg = msg[len(prefix):] if msg.startswith(prefix) else msg
        # Diagnostics are joined with ", " and each starts with the file name.
        parts, cur = [], ""
        for piece in msg.split(", tmp.hcl:"):
            parts.append(piece if not parts else "tmp.hcl:" + piece)
        return [p.replace("tmp.hcl:", "input.hcl:") for p in parts]

def our_diags(case_dir):
    out = subprocess.run([FNHCL, "-q", "check", "--format", "json", "input.hcl"], cwd=case_dir,
                         capture_output=True, text=True)
    report = json.loads(out.stdout)
    lines = []
    for d in report["diagnostics"]:
        if d["line"] == d["endLine"]:
            rng = f'{d["file"]}:{d["line"]},{d["column"]}-{d["endColumn"]}'
        else:
            rng = f'{d["file"]}:{d["line"]},{d["column"]}-{d["endLine"]},{d["endColumn"]}'
        lines.append(f'{rng}: {d["summary"]}; {d["detail"]}' if d["detail"] else f'{rng}: {d["summary"]}')
    return lines

def main():
    write = "--write" in sys.argv
    dirs = [a for a in sys.argv[1:] if not a.startswith("-")]
    bad = 0
    for case in dirs:
        go, ours = go_diags(os.path.join(case, "input.hcl")), our_diags(case)
        # fnhcl sorts diagnostics by position; Go lists lexical ones first.
        remaining = list(ours)
        ok = True
        for g in go:
            if g in remaining:
                remaining.remove(g)
            else:
                ok = False
        status = "ok  " if ok else "DIFF"
        if not ok or "-v" in sys.argv:
            bad += not ok
            print(f"{status} {case}\n  go:   " + "\n        ".join(go) + "\n  ours: " + "\n        ".join(ours))
        if ok and write:
            with open(os.path.join(case, "expected.txt"), "w") as f:
                f.write("".join(line + "\n" for line in ours))
    print(f"{len(dirs) - bad} agree, {bad} differ")
    sys.exit(1 if bad else 0)

main()

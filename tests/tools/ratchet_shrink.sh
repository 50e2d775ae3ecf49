#!/usr/bin/env bash
# Removes from tests/known-failures.txt every case the harness says passes now.
# Development helper: run it after making cases pass, then review the diff.
set -uo pipefail
cd "$(dirname "$0")/../.."
cargo test --test fixtures 2>&1 | sed -n 's/^`\([^`]*\)` passes now.*/\1/p' > /tmp/fnhcl-passing.txt
python3 - <<'PY'
passing = set(open("/tmp/fnhcl-passing.txt").read().split())
path = "tests/known-failures.txt"
lines = open(path).read().splitlines(keepends=True)
kept = [l for l in lines if not (l.split() and l.split()[0] in passing)]
open(path, "w").writelines(kept)
print(f"removed {len(lines) - len(kept)} entries")
PY

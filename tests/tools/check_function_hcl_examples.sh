#!/usr/bin/env bash
# Runs `fnhcl check` over function-hcl's own examples (development only, never in CI: the
# examples are another project's files and are not copied here).
# Usage: tests/tools/check_function_hcl_examples.sh FUNCTION_HCL_CHECKOUT [REV]
#   FUNCTION_HCL_CHECKOUT: a clone of gotwarlost/function-hcl (or a bare git dir of it);
#   REV: the revision to read, default v0.2.0's commit ee529ce.
# Prints each example's findings and a summary; exits 1 if any example has an error.
set -euo pipefail
repo="${1:?usage: $0 FUNCTION_HCL_CHECKOUT [REV]}"
rev="${2:-ee529ce}"
bin="$(cd "$(dirname "$0")/../.." && pwd)/target/debug/fnhcl"
[ -x "$bin" ] || { echo "build first: cargo build" >&2; exit 2; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
git -C "$repo" archive "$rev" function/example function/internal/evaluator/testdata | tar -x -C "$work"
for f in "$work"/function/internal/evaluator/testdata/*.hcl; do
  mkdir -p "$work/testdata/$(basename "$f" .hcl)"
  cp "$f" "$work/testdata/$(basename "$f" .hcl)/main.hcl"
done
failed=0 total=0 clean=0
for dir in "$work"/function/example/*/src "$work"/testdata/*; do
  total=$((total + 1))
  out="$("$bin" check -q --format json "$dir" || true)"
  errors=$(printf '%s' "$out" | python3 -c 'import json,sys; print(json.load(sys.stdin)["summary"]["errors"])')
  findings=$(printf '%s' "$out" | python3 -c 'import json,sys; d=json.load(sys.stdin)["diagnostics"]; print("; ".join("%s %s %s:%s %s" % (x["code"], x["rule"], x["line"], x["column"], x["summary"]) for x in d))')
  name="${dir#"$work"/}"
  if [ -z "$findings" ]; then clean=$((clean + 1)); echo "clean     $name"; else echo "findings  $name: $findings"; fi
  [ "$errors" = 0 ] || failed=1
done
echo "$total programs: $clean without findings, $((total - clean)) with findings"
exit "$failed"

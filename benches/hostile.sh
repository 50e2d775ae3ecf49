#!/usr/bin/env bash
# Hostile inputs (issue 16): for each, the command fnhcl is given, its exit code, wall time and
# peak memory (GNU time's maximum resident set size). Every row should end with a diagnostic
# (exit 1 or 2, or 0 where Go answers too), in well under 2 s and 512 MiB. Inputs are generated
# here from a few lines each; nothing large is committed.
#
# Usage: cargo build --release && benches/hostile.sh
# FNHCL_BIN another binary; HOSTILE_INPUTS=DIR keeps the generated inputs in DIR.
set -euo pipefail
cd "$(dirname "$0")/.."
bin="${FNHCL_BIN:-$(pwd)/target/release/fnhcl}"
[ -x "$bin" ] || { echo "build first: cargo build --release" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "needs GNU time at /usr/bin/time" >&2; exit 2; }
if [ -n "${HOSTILE_INPUTS:-}" ]; then
  work="$HOSTILE_INPUTS"
  mkdir -p "$work"
else
  work="$(mktemp -d)"
  trap 'rm -rf "$work"' EXIT
fi

python3 - "$work" <<'PY'
import os, sys
w = sys.argv[1]
def put(case, name, text):
    os.makedirs(os.path.join(w, case), exist_ok=True)
    with open(os.path.join(w, case, name), "w") as f:
        f.write(text)
xr = "apiVersion: example.org/v1\nkind: XApp\nmetadata:\n  name: app\n"
def local(case, expr):
    put(case, "expr", expr)
    put(case, "main.hcl", "locals {\n  x = %s\n}\ncomposite status {\n  body = { x = x }\n}\n" % expr)
    put(case, "xr.yaml", xr)
local("splats", "[1]" + "[*]" * 11000)
local("operators", "1" + "+1" * 20000)
local("if-directives", '"' + "%{if true}" * 12000 + "a" + "%{endif}" * 12000 + '"')
local("for-directives", '"' + "%{for i in [1]}" * 5000 + "a" + "%{endfor}" * 5000 + '"')
local("jsondecode-deep", 'jsondecode(replace(format("%50000s", ""), " ", "["))')
local("setproduct", "setproduct(range(1024), range(1024), range(1024))")
laughs = "a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n" + "".join(
    "%s: &%s [%s]\n" % (n, n, ", ".join(["*" + p] * 9)) for p, n in zip("abcdefgh", "bcdefghi"))
local("yamldecode-laughs", "length(yamldecode(<<EOT\n%sEOT\n)" % laughs)
local("huge-number", '"${1e100000000}"')
local("tostring-huge", "tostring(1e10000000)")
local("exponent-overflow", "1e1000000000 + 1")
local("jsonencode-chain", "length(" + "jsonencode(" * 30 + '"\\""' + ")" * 31)
local("format-width", 'format("%999999999d", 1)')
put("template-doubling", "main.hcl", "locals {\n  a0 = \"xxxx\"\n" + "".join("  a%d = \"${a%d}${a%d}\"\n" % (i, i - 1, i - 1) for i in range(1, 30)) + "}\ncomposite status {\n  body = { n = length(a29) }\n}\n")
put("template-doubling", "xr.yaml", xr)
put("flatten-doubling", "main.hcl", "locals {\n  a0 = [1]\n" + "".join("  a%d = flatten([a%d, a%d])\n" % (i, i - 1, i - 1) for i in range(1, 30)) + "}\ncomposite status {\n  body = { n = length(a29) }\n}\n")
put("flatten-doubling", "xr.yaml", xr)
put("xr-aliases", "main.hcl", "composite status {\n  body = { a = 1 }\n}\n")
put("xr-aliases", "xr.yaml", xr + "spec:\n  base: &x [%s]\n  uses:\n%s" % (",".join(["1"] * 3000), "  - *x\n" * 3000))
put("fmt-blocks", "main.hcl", "".join("locals {\n  a%d = { k: %d }\n}\n" % (i, i) for i in range(300000)))
put("syntax-errors", "main.hcl", "".join("locals {\n  a%d = = \n}\n" % i for i in range(20000)))
put("locals-chain", "main.hcl", "locals {\n  a0 = 1\n" + "".join("  a%d = [a%d]\n" % (i, i - 1) for i in range(1, 10000)) + "}\ncomposite status {\n  body = { d = length(a9999) }\n}\n")
put("locals-chain", "xr.yaml", xr)
# Issue 28: three `for` nested over range(1024), summed (a billion additions) and kept (a
# billion elements); the element budget ends both.
local("nested-sums", "sum([for i in range(1024) : sum([for j in range(1024) : sum([for k in range(1024) : i + j + k])])])")
local("nested-fors", "length([for i in range(1024) : [for j in range(1024) : [for k in range(1024) : k]]])")
# A heredoc of 100,000 lines (one literal token each, joined into one literal): 12 s while the
# join removed each line from the list one at a time.
local("long-heredoc", "length(<<EOT\n%sEOT\n)" % "".join("line %d\n" % i for i in range(100000)))
PY

# One command: its exit code, wall time and peak memory (GNU time writes them to a file).
timed() {
  local name="$1"; shift
  set +e
  /usr/bin/time -o "$work/.time" -f "%e %M" "$@" >/dev/null 2>&1
  local code=$?
  set -e
  read -r secs kb < <(tail -n 1 "$work/.time")
  printf '%-28s exit %-3s %7s s %8.1f MiB\n' "$name" "$code" "$secs" "$(awk "BEGIN { print $kb / 1024 }")"
}

echo "input                        exit    time      peak memory"
for case in splats operators if-directives for-directives jsondecode-deep setproduct \
  yamldecode-laughs huge-number tostring-huge exponent-overflow jsonencode-chain format-width \
  template-doubling flatten-doubling xr-aliases locals-chain nested-sums nested-fors long-heredoc; do
  timed "$case (render)" "$bin" render "$work/$case/xr.yaml" "$work/$case"
  # An argument is at most 128 KiB (Linux's MAX_ARG_STRLEN): longer expressions only render.
  if [ -f "$work/$case/expr" ] && [ "$(wc -c < "$work/$case/expr")" -lt 131000 ]; then
    timed "$case (eval)" "$bin" eval "$(cat "$work/$case/expr")"
  fi
done
for case in nested-sums nested-fors; do
  timed "$case (check)" "$bin" check "$work/$case"
done
for case in splats operators if-directives long-heredoc; do
  timed "$case (check)" "$bin" check "$work/$case"
  timed "$case (fmt)" "$bin" fmt --check "$work/$case"
done
timed "fmt-blocks (fmt)" "$bin" fmt --check "$work/fmt-blocks"
timed "syntax-errors (check)" "$bin" --color never check "$work/syntax-errors"

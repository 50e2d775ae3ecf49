#!/usr/bin/env bash
# Kill test of `fnhcl fmt` (issue 16): format a large tree, kill fmt at a random moment with
# SIGINT, SIGTERM or SIGKILL, then check that every file is whole (its original or its
# formatted text) and that no temporary file is left — at once for SIGINT/SIGTERM, after a
# second `fmt` run for SIGKILL. Development only (not in CI).
#
# Usage: cargo build --release && tests/tools/kill_fmt.sh [ROUNDS]   (FNHCL_BIN another binary)
set -euo pipefail
cd "$(dirname "$0")/../.."
bin="${FNHCL_BIN:-$(pwd)/target/release/fnhcl}"
rounds="${1:-30}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
python3 - "$work/orig" <<'PY'
import os, sys
root = sys.argv[1]
for d in range(20):
    os.makedirs(f"{root}/d{d}", exist_ok=True)
    for f in range(40):
        with open(f"{root}/d{d}/f{f}.hcl", "w") as out:
            out.write("".join(f"locals {{\n  a{i}={{k:{i}}}\n}}\n" for i in range(300)))
PY
cp -r "$work/orig" "$work/formatted"
"$bin" fmt -q "$work/formatted"
start=$(date +%s%N); "$bin" fmt -q "$(cp -r "$work/orig" "$work/timing" && echo "$work/timing")"; end=$(date +%s%N)
full_ms=$(( (end - start) / 1000000 ))
echo "one full run: ${full_ms} ms over $(find "$work/orig" -name '*.hcl' | wc -l) files"
bad=0
for round in $(seq 1 "$rounds"); do
  rm -rf "$work/tree"
  cp -r "$work/orig" "$work/tree"
  signal=$(shuf -n1 -e INT TERM KILL)
  delay_ms=$(( RANDOM % (full_ms + 1) ))
  "$bin" fmt -q "$work/tree" & pid=$!
  sleep "$(awk -v m="$delay_ms" 'BEGIN{printf "%.3f", m/1000}')"
  kill -s "$signal" "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  if [ "$signal" = KILL ]; then
    "$bin" fmt -q "$work/tree" >/dev/null 2>&1 || true
    # After the second run every file must be formatted.
    if ! diff -r -q "$work/formatted" "$work/tree" >/dev/null; then
      echo "round $round ($signal at ${delay_ms} ms): files differ after the second run"; bad=1
    fi
  fi
  temps=$(find "$work/tree" -name '.fnhcl-*.tmp' | wc -l)
  if [ "$temps" != 0 ]; then
    echo "round $round ($signal at ${delay_ms} ms): $temps temporary files left"; bad=1
  fi
  while IFS= read -r f; do
    rel="${f#"$work/tree/"}"
    if ! cmp -s "$f" "$work/orig/$rel" && ! cmp -s "$f" "$work/formatted/$rel"; then
      echo "round $round ($signal at ${delay_ms} ms): $rel is neither original nor formatted"; bad=1
    fi
  done < <(find "$work/tree" -name '*.hcl')
done
[ "$bad" = 0 ] && echo "kill test: $rounds rounds, every file whole, no temporary file left"
exit "$bad"

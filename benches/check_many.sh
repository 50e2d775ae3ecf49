#!/usr/bin/env bash
# `fnhcl check` over N composition directories (default 1,000): wall, user and sys time of the
# whole process. Both cores should be busy: user+sys above wall.
# Usage: cargo build --release && benches/check_many.sh [N] [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
n="${1:-1000}"
runs="${2:-5}"
bin="target/release/fnhcl"
[ -x "$bin" ] || { echo "build first: cargo build --release" >&2; exit 2; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# Each composition: one of the two examples (every file, composition.yaml included) and a file
# with a user function, a local calling it and a status block, so that every stage (analyzer,
# probe, lints) has work to do.
for i in $(seq 1 "$n"); do
  dir="$work/compositions/team-$((i % 37))/app-$i"
  mkdir -p "$dir"
  if [ $((i % 2)) -eq 0 ]; then
    cp examples/subnets-collection/*.hcl examples/subnets-collection/composition.yaml "$dir/"
  else
    cp examples/bucket-with-status/*.hcl "$dir/"
  fi
  cat > "$dir/functions.hcl" <<HCL
function label$i {
  arg name {}
  arg suffix {
    default = "app"
  }
  body = "\${name}-\${suffix}"
}

locals {
  app_label$i = invoke("label$i", { name = "x$i" })
}

composite status {
  body = {
    label$i = app_label$i
  }
}
HCL
done
files=$(find "$work/compositions" -name '*.hcl' | wc -l)
bytes=$(find "$work/compositions" -name '*.hcl' -exec cat {} + | wc -c)
echo "$n compositions, $files files, $bytes bytes"
"$bin" check -q "$work/compositions" > /dev/null || true
for _ in $(seq 1 "$runs"); do
  /usr/bin/time -f "wall %e s  user %U s  sys %S s  max RSS %M KB" \
    "$bin" check -q --format json "$work/compositions" > "$work/out.json" || true
done 2>&1
python3 - "$work/out.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
print("findings:", r["summary"])
PY

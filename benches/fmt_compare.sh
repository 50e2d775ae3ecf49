#!/usr/bin/env bash
# fnhcl fmt against Go's hclwrite.Format (the npm @cdktf/hcl-tools WASM build) on the same
# ~1 MB generated program: wall time (median of RUNS) and peak memory (GNU time's max RSS).
# Usage: cargo build --release && benches/fmt_compare.sh [RUNS]
# Needs node with @cdktf/hcl-tools installed in $HCLFMT_DIR (default ~/hclfmt), see
# ../shared/tools/README.md.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-10}
dir=${HCLFMT_DIR:-$HOME/hclfmt}
input=$(mktemp --suffix .hcl)
trap 'rm -f "$input" "$input".go "$input".rs' EXIT
cargo bench --bench parse -- --write-input "$input" >/dev/null 2>&1
go_fmt() {
  node -e 'require(process.argv[1] + "/node_modules/@cdktf/hcl-tools").format(require("fs").readFileSync(0, "utf8")).then(s => process.stdout.write(s))' "$dir" < "$input"
}
rs_fmt() { target/release/fnhcl fmt --normalize-literals=false - < "$input"; }
go_fmt > "$input".go
rs_fmt > "$input".rs
cmp -s "$input".go "$input".rs && echo "outputs: byte-identical" || echo "outputs: DIFFER"
measure() {
  local name=$1 fn=$2 times=() mem
  for _ in $(seq "$runs"); do
    local start end
    start=$(date +%s%N); $fn >/dev/null; end=$(date +%s%N)
    times+=($(( (end - start) / 1000 )))
  done
  mem=$( { /usr/bin/time -f '%M' bash -c "$(declare -f "$fn"); input=$input; dir=$dir; $fn >/dev/null"; } 2>&1 | tail -1)
  local median
  median=$(printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
  printf '%-28s median %8.2f ms   peak RSS %7d KB\n' "$name" "$(echo "$median / 1000" | bc -l)" "$mem"
}
echo "input: $(wc -c < "$input") bytes"
measure "fnhcl fmt" rs_fmt
measure "hclwrite.Format (WASM)" go_fmt

#!/usr/bin/env bash
# Whole-process wall time of `fnhcl render` on the shipped examples (release build).
# Usage: cargo build --release && benches/render_wall.sh [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-200}
bin=target/release/fnhcl
run_case() {
  local name=$1; shift
  local start end
  start=$(date +%s%N)
  for _ in $(seq "$runs"); do "$bin" "$@" >/dev/null 2>&1; done
  end=$(date +%s%N)
  awk -v n="$runs" -v ns=$((end - start)) -v name="$name" \
    'BEGIN { printf "%-24s %6.2f ms per render (%d runs)\n", name, ns / n / 1e6, n }'
}
run_case bucket-with-status render examples/bucket-with-status/xr.yaml examples/bucket-with-status \
  -o examples/bucket-with-status/observed.yaml -r -c
run_case subnets-collection render examples/subnets-collection/xr.yaml \
  examples/subnets-collection/composition-pipeline.yaml \
  -e examples/subnets-collection/extra-resources.yaml -r -c

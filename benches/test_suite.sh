#!/usr/bin/env bash
# `fnhcl test` over a generated suite of 1,000 cases (release build): 500 cases of each example
# composition (bucket-with-status with observed resources, subnets-collection with extra
# resources), their expected.yaml written once by `--update`, then several timed runs; prints
# each run's wall time and the median.
# Usage: cargo build --release && benches/test_suite.sh [RUNS] [CASES_PER_EXAMPLE]
# KEEP=1 leaves the generated suite (fnhcl-suite.* in $TMPDIR) behind for profiling.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-7}
per=${2:-500}
bin=${FNHCL:-target/release/fnhcl}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/fnhcl-suite.XXXXXX")
[ -n "${KEEP:-}" ] || trap 'rm -rf "$tmp"' EXIT
for example in bucket-with-status subnets-collection; do
  mkdir -p "$tmp/$example/tests"
  cp examples/$example/*.hcl "$tmp/$example/"
done
regions=(eu-central-1 eu-west-1 us-east-1 us-west-2)
for i in $(seq "$per"); do
  region=${regions[$((i % 4))]}
  case=$tmp/bucket-with-status/tests/case-$i
  mkdir "$case"
  sed -e "s/billing-reports/bucket-$i/g" -e "s/eu-central-1/$region/g" \
    examples/bucket-with-status/xr.yaml >"$case/xr.yaml"
  # Every other case has its bucket observed (ready, with status).
  if ((i % 2)); then
    sed -e "s/billing-reports/bucket-$i/g" -e "s/eu-central-1/$region/g" \
      examples/bucket-with-status/observed.yaml | sed '/ownerReferences:/,/blockOwnerDeletion/d' >"$case/observed.yaml"
  fi
  case=$tmp/subnets-collection/tests/case-$i
  mkdir "$case"
  sed -e "s/checkout/net-$i/g" examples/subnets-collection/tests/from-environment/xr.yaml >"$case/xr.yaml"
  cp examples/subnets-collection/tests/from-environment/extra-resources.yaml "$case/"
done
"$bin" test "$tmp" --update >/dev/null
"$bin" test "$tmp" | tail -1
times=()
for _ in $(seq "$runs"); do
  start=$(date +%s%N)
  "$bin" test "$tmp" >/dev/null
  end=$(date +%s%N)
  times+=($(((end - start) / 1000000)))
done
sorted=$(printf '%s\n' "${times[@]}" | sort -n)
median=$(echo "$sorted" | sed -n "$(((runs + 1) / 2))p")
echo "runs (ms): ${times[*]}"
echo "median: $median ms for $((2 * per)) cases"

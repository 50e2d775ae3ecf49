#!/usr/bin/env bash
# How evaluation grows with input size (issue 14): whole `fnhcl render` processes on generated
# compositions, printing wall time, time per member/local and peak memory, so growth shows in
# one run. Inputs are generated here; nothing large is committed.
#
#   collection M: one `resources` collection over M members listed in the XR, each template
#                 reading `req.resource[self.name]`, with M observed members (M = 100, 1000, 4000)
#   locals N:     N locals in one scope (templates, for expressions, arithmetic), each reading
#                 earlier ones (N = 4000, 16000, 64000)
#   lookup K:     100,000 locals each reading one key of an object of K keys in the XR, by
#                 attribute and by index (K = 10, 10000): the time per read (the render's time
#                 less that of the same render without the reads) should not grow with K
#   timeout:      `--timeout 1s` on a composition that evaluates for about 10 s (11 million
#                 expressions): the row's time is how long the render takes to stop
#
# Usage: cargo build --release && benches/scaling.sh [RUNS]   (each row: the best of RUNS, default 3)
# COLLECTION_SIZES="100 1000", LOCALS_SIZES="4000" and LOOKUP_SIZES="10" choose other sizes; FNHCL_BIN another binary;
# TIMEOUT_ROW=0 leaves out the timeout row; SCALING_INPUTS=DIR keeps the generated inputs in DIR
# (to profile one: `fnhcl render DIR/collection-1000/xr.yaml DIR/collection-1000/hcl
# -o DIR/collection-1000/observed.yaml`).
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-3}"
bin="${FNHCL_BIN:-$(pwd)/target/release/fnhcl}"
[ -x "$bin" ] || { echo "build first: cargo build --release" >&2; exit 2; }
if [ -n "${SCALING_INPUTS:-}" ]; then
  work="$SCALING_INPUTS"
  mkdir -p "$work"
else
  work="$(mktemp -d)"
  trap 'rm -rf "$work"' EXIT
fi

cat > "$work/xr.yaml" <<'YAML'
apiVersion: example.fnhcl.dev/v1alpha1
kind: XScale
metadata:
  name: scale
spec:
  region: eu-west-1
YAML

collection() { # M DIR
  python3 - "$1" "$2" <<'PY'
import os, sys
m, d = int(sys.argv[1]), sys.argv[2]
os.makedirs(f"{d}/hcl", exist_ok=True)
with open(f"{d}/hcl/main.hcl", "w") as f:
    f.write(f'''resources member {{
  for_each = req.composite.spec.members
  template {{
    locals {{
      seen = try(req.resource[self.name].status.atProvider.id, "pending")
    }}
    body = {{
      apiVersion = "example.fnhcl.dev/v1"
      kind       = "Member"
      metadata = {{
        name = "${{req.composite.metadata.name}}-${{each.key}}"
      }}
      spec = {{
        forProvider = {{
          region = req.composite.spec.region
          index  = each.value
          seen   = seen
        }}
      }}
    }}
  }}
}}
''')
with open(f"{d}/xr.yaml", "w") as f:
    f.write("apiVersion: example.fnhcl.dev/v1alpha1\nkind: XScale\nmetadata:\n  name: scale\nspec:\n  region: eu-west-1\n  members:\n")
    f.write("".join(f"  - m{i}\n" for i in range(m)))
with open(f"{d}/observed.yaml", "w") as f:
    for i in range(m):
        f.write(f'''---
apiVersion: example.fnhcl.dev/v1
kind: Member
metadata:
  name: scale-{i}
  annotations:
    crossplane.io/composition-resource-name: member-{i}
    hcl.fn.crossplane.io/collection-base-name: member
    hcl.fn.crossplane.io/collection-index: s{i:06d}
status:
  atProvider:
    id: id-{i}
''')
PY
}

locals_scope() { # N DIR
  python3 - "$1" "$2" <<'PY'
import os, sys
n, d = int(sys.argv[1]), sys.argv[2]
os.makedirs(f"{d}/hcl", exist_ok=True)
with open(f"{d}/hcl/main.hcl", "w") as f:
    f.write("locals {\n  l0 = 1\n")
    for i in range(1, n):
        kind = i % 3
        if kind == 0:
            f.write(f'  l{i} = "${{l{i-1}}}-{i}"\n')
        elif kind == 1:
            f.write(f'  l{i} = [for x in range(3) : x + {i}]\n')
        else:
            f.write(f'  l{i} = length(l{i-1}) + {i} * 2\n')
    f.write("}\n")
    f.write(f'composite status {{\n  body = {{ last = l{n-1} }}\n}}\n')
PY
}

lookup() { # K DIR READS
  python3 - "$1" "$2" "$3" <<'PY'
import os, sys
k, d, reads = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])
os.makedirs(f"{d}/hcl", exist_ok=True)
with open(f"{d}/xr.yaml", "w") as f:
    f.write("apiVersion: example.fnhcl.dev/v1alpha1\nkind: XScale\nmetadata:\n  name: scale\nspec:\n  entries:\n")
    f.write("".join(f"    k{i}: {{value: {i}}}\n" for i in range(k)))
with open(f"{d}/hcl/main.hcl", "w") as f:
    f.write("locals {\n  entries = req.composite.spec.entries\n")
    for i in range(reads):
        if i % 2:
            f.write(f'  r{i} = entries["k{i % k}"].value\n')
        else:
            f.write(f"  r{i} = req.composite.spec.entries.k{i % k}.value\n")
    f.write("}\n")
    last = f"r{reads - 1}" if reads else "entries"
    f.write(f"composite status {{\n  body = {{ last = {last} }}\n}}\n")
PY
}

slow() { # DIR
  mkdir -p "$1/hcl"
  cat > "$1/hcl/main.hcl" <<'HCL'
locals {
  sums = [for i in range(1000) : sum([for j in range(1000) : sum([for k in range(11) : i * j + k])])]
}
composite status {
  body = { total = sum(sums) }
}
HCL
}

# Sets `best` (seconds) and `mem` (KB) for the fastest of RUNS renders of DIR.
time_render() { # DIR ARGS...
  local dir="$1"
  shift
  best=""
  mem=""
  for _ in $(seq 1 "$runs"); do
    local t0="$EPOCHREALTIME"
    /usr/bin/time -f "%M" -o "$work/time" "$bin" render "$dir/xr.yaml" "$dir/hcl" "$@" -q >/dev/null \
      2>"$work/stderr" || grep -q "context deadline exceeded" "$work/stderr" || {
      cat "$work/stderr" >&2
      exit 1
    }
    local t1="$EPOCHREALTIME"
    local secs kb
    secs="$(awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.4f", b - a}')"
    # (time writes "Command exited with non-zero status" first when the render fails)
    kb="$(tail -n 1 "$work/time")"
    if [ -z "$best" ] || awk "BEGIN{exit !($secs < $best)}"; then best="$secs"; mem="$kb"; fi
  done
}

row() { # LABEL SECONDS PER-ITEM-TEXT KB
  awk -v l="$1" -v s="$2" -v per="$3" -v k="$4" \
    'BEGIN{printf "| %-18s | %8.3f s | %13s | %7.1f MB |\n", l, s, per, k/1024}'
}

measure() { # LABEL COUNT DIR ARGS...
  local label="$1" count="$2" dir="$3"
  shift 3
  time_render "$dir" "$@"
  local per="–"
  [ "$count" -gt 0 ] && per="$(awk -v s="$best" -v n="$count" 'BEGIN{printf "%.1f µs", s*1e6/n}')"
  row "$label" "$best" "$per" "$mem"
}

echo "| workload | wall (best of $runs) | per member/local | peak memory |"
echo "| --- | --- | --- | --- |"
for m in ${COLLECTION_SIZES-100 1000 4000}; do
  d="$work/collection-$m"
  collection "$m" "$d"
  measure "collection M=$m" "$m" "$d" -o "$d/observed.yaml"
done
for n in ${LOCALS_SIZES-4000 16000 64000}; do
  d="$work/locals-$n"
  locals_scope "$n" "$d"
  cp "$work/xr.yaml" "$d/xr.yaml"
  measure "locals N=$n" "$n" "$d"
done
for k in ${LOOKUP_SIZES-10 10000}; do
  # The time per read leaves out loading the XR: the same render without the reads.
  lookup "$k" "$work/lookup-$k-none" 0
  time_render "$work/lookup-$k-none"
  base="$best"
  d="$work/lookup-$k"
  lookup "$k" "$d" 100000
  time_render "$d"
  row "lookup K=$k" "$best" "$(awk -v s="$best" -v b="$base" 'BEGIN{printf "%.2f µs", (s-b)*1e6/100000}')" "$mem"
done
if [ "${TIMEOUT_ROW:-1}" = 1 ]; then
  d="$work/timeout"
  slow "$d"
  cp "$work/xr.yaml" "$d/xr.yaml"
  measure "timeout 1s" 0 "$d" --timeout 1s
fi

#!/usr/bin/env bash
# fnhcl's fixed costs and the workloads issue 34 names, side by side with the Go tools when
# they are installed, in one run: each row is the median wall time of RUNS runs and the peak
# resident memory of one more, and a ratio where a peer ran the same work.
#
#   startup       `fnhcl --version`: time, peak RSS, minor page faults, the binary's size and
#                 dynamic relocations (`readelf -r`)
#   render        `fnhcl render` of examples/bucket-with-status
#   fmt SIZE      `fnhcl fmt -` of a generated program of 100 KB, 1 MB and 10 MB, against Go's
#                 `hclfmt` (hashicorp/hcl v2's cmd/hclfmt, built from Debian's
#                 golang-github-hashicorp-hcl-v2-dev with golang-go; found as `hclfmt` on PATH
#                 or $HCLFMT); the outputs are compared byte for byte
#   observed 4000 `fnhcl render` of a collection of 4,000 members, all observed: the peak RSS
#                 per member (less that of the same render with nothing observed)
#   locals 4000   4,000 locals (a `for`, `format`, `jsonencode`, `cidrsubnet` each) evaluated
#                 by `fnhcl eval --hcl`, against PyPI `tfparse` (Go's HCL, go-cty and
#                 Terraform's functions) loading the same locals as a Terraform module, its
#                 import time subtracted
#
# Usage: cargo build --release && benches/side_by_side.sh [RUNS]   (default 10)
# FNHCL_BIN names another binary. Nothing generated is kept.
set -euo pipefail
[ -n "${EPOCHREALTIME:-}" ] || { echo "needs bash 5 (EPOCHREALTIME)" >&2; exit 2; }
cd "$(dirname "$0")/.."
runs="${1:-10}"
bin="${FNHCL_BIN:-$(pwd)/target/release/fnhcl}"
[ -x "$bin" ] || { echo "build first: cargo build --release" >&2; exit 2; }
hclfmt="${HCLFMT:-$(command -v hclfmt || true)}"
have_tfparse=$(python3 -c 'import tfparse' 2>/dev/null && echo yes || echo no)
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# Median wall time in milliseconds of RUNS runs of "$@" (stdout and stderr dropped). The clock
# is bash's own EPOCHREALTIME: a `date` process per reading would add its start-up to every run.
median_ms() {
  local times=() start end
  for _ in $(seq "$runs"); do
    start=${EPOCHREALTIME/./}
    "$@" >/dev/null 2>&1 || true
    end=${EPOCHREALTIME/./}
    times+=($(( end - start )))
  done
  printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {printf "%.2f", a[int((NR+1)/2)] / 1000}'
}

# Peak RSS (KB) of one run of "$@".
peak_kb() {
  /usr/bin/time -f '%M' -o "$work/time.out" "$@" >/dev/null 2>&1 || true
  tail -1 "$work/time.out"
}

# Minor page faults of one run of "$@".
faults() {
  /usr/bin/time -f '%R' -o "$work/time.out" "$@" >/dev/null 2>&1 || true
  tail -1 "$work/time.out"
}

row() { printf '%-34s %12s %12s   %s\n' "$@"; }

echo "fnhcl: $("$bin" --version)   peers: hclfmt=${hclfmt:-absent} tfparse=$have_tfparse   runs=$runs"
row "workload" "time (ms)" "peak RSS KB" "notes"

# --- startup -------------------------------------------------------------------------------
relocations=$(readelf -r "$bin" 2>/dev/null | grep -c '^[0-9a-f]\{12\}' || true)
size=$(stat -c %s "$bin")
row "fnhcl --version" "$(median_ms "$bin" --version)" "$(peak_kb "$bin" --version)" \
  "$(faults "$bin" --version) minor faults, $relocations relocations, $((size / 1024)) KB binary"

# --- render of the example -----------------------------------------------------------------
ex=examples/bucket-with-status
row "render bucket-with-status" "$(median_ms "$bin" render "$ex/xr.yaml" "$ex")" \
  "$(peak_kb "$bin" render "$ex/xr.yaml" "$ex")" ""

# --- fmt -----------------------------------------------------------------------------------
# A program of about SIZE bytes in the style of a composition, badly aligned so that the
# formatter has work on every line.
gen_hcl() { # BYTES PATH
  python3 - "$1" "$2" <<'PY'
import sys
size, path = int(sys.argv[1]), sys.argv[2]
out, i = [], 0
total = 0
while total < size:
    block = f'''resource "bucket_{i}" {{
  body = {{
    apiVersion = "s3.aws.upbound.io/v1beta1"
    kind = "Bucket"
    metadata = {{
      name = "b-${{req.composite.metadata.name}}-{i}"
      labels = {{ team = "platform", index = "{i}" }}
    }}
    spec = {{
      forProvider = {{
        region = req.composite.spec.region
        tags = merge(local.common_tags, {{ Name = format("bucket-%d", {i}) }})
        count_of_things = length([for z in local.zones : z if z != "x"]) * {i}
      }}
    }}
  }}
}}

'''
    out.append(block)
    total += len(block)
    i += 1
open(path, "w").write("".join(out))
PY
}
for size in 100000 1000000 10000000; do
  input="$work/fmt-$size.hcl"
  gen_hcl "$size" "$input"
  label="fmt - of $((size / 1000)) KB"
  rs_time=$(median_ms sh -c "\"$bin\" fmt - < \"$input\"")
  rs_mem=$(peak_kb sh -c "exec \"$bin\" fmt - < \"$input\"")
  row "$label: fnhcl" "$rs_time" "$rs_mem" ""
  if [ -n "$hclfmt" ]; then
    go_time=$(median_ms sh -c "\"$hclfmt\" < \"$input\"")
    go_mem=$(peak_kb sh -c "exec \"$hclfmt\" < \"$input\"")
    "$bin" fmt - < "$input" > "$work/rs.out"
    "$hclfmt" < "$input" > "$work/go.out"
    same=$(cmp -s "$work/rs.out" "$work/go.out" && echo "byte-identical" || echo "OUTPUTS DIFFER")
    row "$label: Go hclfmt" "$go_time" "$go_mem" \
      "$same; fnhcl $(awk -v a="$go_time" -v b="$rs_time" 'BEGIN {printf "%.1f", a / b}')x faster, $(awk -v a="$rs_mem" -v b="$go_mem" 'BEGIN {printf "%.2f", a / b}') of its memory"
  fi
done

# --- render with 4,000 observed members ----------------------------------------------------
collection() { # M DIR OBSERVED(0|1)
  python3 - "$1" "$2" "$3" <<'PY'
import os, sys
m, d, observed = int(sys.argv[1]), sys.argv[2], sys.argv[3] == "1"
os.makedirs(f"{d}/hcl", exist_ok=True)
open(f"{d}/hcl/main.hcl", "w").write('''resources member {
  for_each = req.composite.spec.members
  template {
    body = {
      apiVersion = "v1"
      kind       = "ConfigMap"
      data = {
        name  = each.value
        ready = try(req.resources.member[each.key].status.ready, "no")
      }
    }
  }
}
''')
names = [f"m{i}" for i in range(m)]
with open(f"{d}/xr.yaml", "w") as f:
    f.write("apiVersion: example.fnhcl.dev/v1alpha1\nkind: XScale\nmetadata:\n  name: scale\nspec:\n  members:\n")
    f.writelines(f"  - {n}\n" for n in names)
with open(f"{d}/observed.yaml", "w") as f:
    for i, n in enumerate(names if observed else []):
        f.write(f"---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: scale-{n}\n  annotations:\n    crossplane.io/composition-resource-name: member-{i}\n"
                f"data:\n  name: {n}\n  payload: {'x' * 200}\nstatus:\n  ready: \"yes\"\n")
PY
}
collection 4000 "$work/observed" 1
collection 4000 "$work/unobserved" 0
o="$work/observed"
u="$work/unobserved"
with_kb=$(peak_kb "$bin" render "$o/xr.yaml" "$o/hcl" -o "$o/observed.yaml" -q)
without_kb=$(peak_kb "$bin" render "$u/xr.yaml" "$u/hcl" -o "$u/observed.yaml" -q)
row "render, 4,000 observed members" "$(median_ms "$bin" render "$o/xr.yaml" "$o/hcl" -o "$o/observed.yaml" -q)" \
  "$with_kb" "$(( (with_kb - without_kb) * 1000 / 4000 )) bytes per observed member"

# --- 4,000 locals --------------------------------------------------------------------------
mkdir -p "$work/locals"
python3 - "$work/locals" <<'PY'
import sys
d = sys.argv[1]
lines = ["locals {"]
for i in range(4000):
    lines.append(f'  l{i} = jsonencode([for x in ["a", "b", "c"] : format("%s-%d-%s", x, {i}, cidrsubnet("10.0.0.0/8", 16, {i}))])')
lines.append("}")
text = "\n".join(lines) + "\n"
open(f"{d}/main.hcl", "w").write(text)
open(f"{d}/main.tf", "w").write(text)
PY
rs_time=$(median_ms "$bin" eval --hcl "$work/locals" 'l3999')
row "4,000 locals: fnhcl eval --hcl" "$rs_time" "$(peak_kb "$bin" eval --hcl "$work/locals" 'l3999')" ""
if [ "$have_tfparse" = yes ]; then
  import_ms=$(median_ms python3 -c 'import tfparse')
  load_ms=$(median_ms python3 -c "import tfparse; tfparse.load_from_path('$work/locals')")
  net=$(awk -v a="$load_ms" -v b="$import_ms" 'BEGIN {printf "%.2f", a - b}')
  row "4,000 locals: tfparse (Go HCL)" "$net" "-" \
    "import ${import_ms} ms subtracted; fnhcl $(awk -v a="$net" -v b="$rs_time" 'BEGIN {printf "%.1f", a / b}')x faster"
fi

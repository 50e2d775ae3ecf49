#!/usr/bin/env bash
# Development only (never in CI: it builds fnhcl in release mode from scratch, minutes on two
# cores). What a new user does: clone the repository, install with the exact command README.md
# shows, then run every command README.md, examples/README.md and the pages of docs/ show with
# the installed binary (tests/readme.rs with FNHCL_BIN), and the benchmark commands of
# docs/development.md.
#
#   tests/tools/fresh_clone.sh            # install + the documents' commands
#   tests/tools/fresh_clone.sh --benches  # and the benchmark commands
#
# Fails when the install prints any warning or a documented command fails or prints something
# else.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
git clone -q "$repo" "$work/fnhcl"
cd "$work/fnhcl"

install=$(grep -m1 '^cargo install' README.md)
[ "$install" = "cargo install --locked --path ." ] || { echo "README's install command is now: $install"; exit 1; }
echo "== $install (CARGO_INSTALL_ROOT=$work/root)"
start=$(date +%s)
export PATH="$work/root/bin:$PATH"   # as a user's ~/.cargo/bin is (cargo warns otherwise)
CARGO_INSTALL_ROOT="$work/root" CARGO_TARGET_DIR="$work/target" $install 2> "$work/install.log" || { cat "$work/install.log"; exit 1; }
echo "   installed in $(( $(date +%s) - start )) s"
if grep -i -E '^(warning|error)' "$work/install.log"; then
    echo "the install printed warnings (above)"
    exit 1
fi
"$work/root/bin/fnhcl" --version

echo "== documented commands with the installed binary"
(cd "$repo" && FNHCL_BIN="$work/root/bin/fnhcl" cargo test --locked -q --test readme)

if [ "${1:-}" = "--benches" ]; then
    echo "== benchmark commands"
    CARGO_TARGET_DIR="$work/target" cargo bench --locked --bench parse
    CARGO_TARGET_DIR="$work/target" cargo bench --locked --bench parse -- --write-input /tmp/bench.hcl
    if python3 -c 'import pygohcl' 2>/dev/null; then
        python3 benches/go_parse.py /tmp/bench.hcl
    else
        echo "(pygohcl is not installed: pip install pygohcl==1.2.9 to run benches/go_parse.py)"
    fi
fi
echo "fresh clone: OK"

#!/usr/bin/env bash
# Rust euclid 0.20 (impls/rust, built by scripts/build-rust from Debian's crates): the adapter answers a known
# case in f32 and f64, its worst cases replay, and `list` shows the crate's version. SKIP (exit 77) when the
# adapter was not built (no Debian cargo or librust-euclid-dev).
# Usage: adapters_euclid.test.sh BUILD_DIR SOURCE_DIR
source "$(dirname "$0")/lib.sh" "$@"
adapter="$build/rust/qc-euclid-adapter"
[ -x "$adapter" ] ||
  skip "the Rust euclid adapter is not built ($adapter; scripts/build-rust needs Debian's cargo and librust-euclid-dev)"
keep_going
source "$src/tests/adapter_lib.sh"
"$qc" list --plugin-cmd "$adapter" 2>&1 | grep -Eq '^euclid-slerp.f64 +plugin +slerp +0\.20\.' || fail "list does not show euclid-slerp.f64 with version 0.20.x"
known_case "$adapter" euclid-slerp f32
known_case "$adapter" euclid-slerp f64
replay_worst "$adapter" 'euclid-*' euclid
[ "$failures" -eq 0 ] && echo "Rust euclid adapter: all checks passed"
finish

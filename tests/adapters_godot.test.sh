#!/usr/bin/env bash
# Godot 3.2 (impls/godot, Debian godot3-server, over the text wire): Quat.slerp, Quat.slerpni and Quat.cubic_slerp answer a known
# case, the worst cases replay, and `list` shows the engine's version. SKIP (exit 77) without godot3-server.
# Godot starts in over a second, and its text wire costs much more per case than the binary one: the run is small
# (smaller by default, label `heavy`: 40 cases per region and 60 per property; 100 and 300 at full size).
# Usage: adapters_godot.test.sh BUILD_DIR SOURCE_DIR
source "$(dirname "$0")/lib.sh" "$@"
command -v godot3-server >/dev/null ||
  skip "the Godot adapter: godot3-server is not installed (Debian godot3-server, scripts/packages.txt full profile)"
adapter="sh $src/impls/godot/godot-adapter"
keep_going
source "$src/tests/adapter_lib.sh"
"$qc" list --plugin-cmd "$adapter" 2>&1 | grep -Eq '^godot-slerp.f32 +plugin +slerp +3\.' || fail "list does not show godot-slerp.f32 with a 3.x version"
known_case "$adapter" godot-slerp f32
known_case "$adapter" godot-slerpni f32
known_case "$adapter" godot-cubic f32 --squad  # Quat.cubic_slerp over the protocol's squad op
CASES="$(sized 40 100)" replay_worst "$adapter" 'godot-*' godot
# slerpni's documented deviation (its hello's `known` lines) becomes conform's verdict "known", not "fail".
"$qc" conform --plugin-cmd "$adapter" --impl 'godot-slerpni' --cases "$(sized 60 300)" --out "$tmp/conform" >/dev/null 2>&1
grep -q '^godot-slerpni.f32,slerp,shortest-arc,known' "$tmp/conform/conformance.csv" || fail "conform: slerpni's shortest-arc is not 'known': $(grep shortest-arc "$tmp/conform/conformance.csv")"
[ "$failures" -eq 0 ] && echo "Godot adapter: all checks passed"
finish

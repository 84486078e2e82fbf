#!/usr/bin/env bash
# The JavaScript libraries of issue 30 (ogl, wgpu-matrix, @thi.ng/matrices, Quaternion.js; pinned in
# impls/js/package-lock.json): each adapter answers a known case in each precision it offers, its worst cases
# replay, and `list` shows the package's version. SKIP (exit 77) without node or impls/js/node_modules.
# Usage: adapters_js_more.test.sh BUILD_DIR SOURCE_DIR
source "$(dirname "$0")/lib.sh" "$@"
js="$src/impls/js"
{ command -v node >/dev/null && [ -d "$js/node_modules/ogl" ]; } ||
  skip "the JavaScript adapters: node or $js/node_modules (scripts/setup runs npm ci there) is missing"
keep_going
source "$src/tests/adapter_lib.sh"
for spec in ogl:ogl-slerp:f64 wgpu-matrix:wgpu-slerp:f32 wgpu-matrix:wgpu-slerp:f64 thing-matrices:thing-mixq:f64 \
            quaternion:quaternionjs-slerp:f64; do
  IFS=: read -r file family prec <<<"$spec"
  known_case "node $js/$file.js" "$family" "$prec"
done
for prec in f32 f64; do known_case "node $js/wgpu-matrix.js" wgpu-sqlerp "$prec" --squad; done  # quat.sqlerp
for spec in ogl:ogl:ogl wgpu-matrix:wgpu:wgpu-matrix thing-matrices:thing:@thi.ng/matrices quaternion:quaternionjs:quaternion; do
  IFS=: read -r file prefix package <<<"$spec"
  version=$(node -p "require('$js/node_modules/$package/package.json').version")
  "$qc" list --plugin-cmd "node $js/$file.js" 2>&1 | grep -Eq "^$prefix-[a-z]+\.f64 +plugin +slerp +$version\$" || fail "list does not show $prefix-* with version $version"
  CASES=200 replay_worst "node $js/$file.js" "$prefix-*" "$file"
done
[ "$failures" -eq 0 ] && echo "JavaScript adapters (issue 30): all checks passed"
finish

#!/usr/bin/env bash
# The docs stay navigable: every relative link and anchor in README.md and docs/*.md resolves, every
# generated block has its generator, and the README's command synopsis lists exactly the subcommands and
# options of `quatcheck --help` (scripts/check_docs.py). Negative controls: a copy of the docs with a dead
# anchor, a dead file link, a synopsis missing a flag, a stale flag, and a block without a generator must
# each be reported with its FILE:LINE and exit 1.
# Usage: bash tests/doc_check.test.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build="$(cd "$1" && pwd)"
src="$(cd "$2" && pwd)"
qc="$build/quatcheck"
fail() { echo "FAIL: $*" >&2; exit 1; }

python3 "$src/scripts/check_docs.py" --root "$src" --quatcheck "$qc" || fail "the docs have problems (listed above)"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
copy() {
  rm -rf "$work/t" && mkdir -p "$work/t/scripts"
  cp -r "$src/README.md" "$src/docs" "$work/t/"
  cp -r "$src/scripts/readme" "$work/t/scripts/"
}
# expect DESCRIPTION PATTERN: the checker must exit 1 and print a line matching PATTERN
expect() {
  local out rc
  set +e
  out="$(python3 "$src/scripts/check_docs.py" --root "$work/t" --quatcheck "$qc" 2>/dev/null)"
  rc=$?
  set -e
  [ "$rc" -eq 1 ] || fail "negative control '$1': exit $rc, expected 1"
  grep -Eq "$2" <<<"$out" || { echo "$out"; fail "negative control '$1': no line matching $2"; }
  echo "caught: $1"
}

copy
python3 "$src/scripts/check_docs.py" --root "$work/t" --quatcheck "$qc" >/dev/null || fail "an unchanged copy must pass"

copy
sed -i '0,/(docs\/timing.md#sharded-runs)/s//(docs\/timing.md#sharded-runz)/' "$work/t/README.md"
expect "dead anchor" '^README.md:[0-9]+: link docs/timing.md#sharded-runz: no heading #sharded-runz'

copy
echo 'See [nowhere](no-such-page.md).' >>"$work/t/docs/metrics.md"
expect "dead file" '^docs/metrics.md:[0-9]+: link no-such-page.md: no file'

copy
sed -i 's/ \[--fail-on-timing\]//' "$work/t/README.md"
expect "flag missing from the synopsis" '^README.md:[0-9]+: `quatcheck compare` synopsis lacks --fail-on-timing'

copy
sed -i 's/^quatcheck list    \[--summary\]/quatcheck list    [--summary] [--colour]/' "$work/t/README.md"
expect "stale flag in the synopsis" '`quatcheck list` synopsis has --colour'

copy
printf '<!-- generated:nosuch -->\n<!-- /generated:nosuch -->\n' >>"$work/t/docs/results.md"
expect "block without a generator" '^docs/results.md:[0-9]+: block nosuch has no generator'

echo "doc_check: ok"

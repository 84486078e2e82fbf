#!/usr/bin/env bash
# The docs stay navigable: every relative link and anchor in README.md and docs/*.md resolves, every
# generated block has its generator, and the README's command synopsis lists exactly the subcommands and
# options of `quatcheck --help` (scripts/check_docs.py). Negative controls: a copy of the docs with a dead
# anchor, a dead file link, a synopsis missing a flag, a stale flag, and a block without a generator must
# each be reported with its FILE:LINE and exit 1.
# Usage: bash tests/doc_check.test.sh BUILD_DIR SOURCE_DIR
source "$(dirname "$0")/lib.sh" "$@"

python3 "$src/scripts/check_docs.py" --root "$src" --quatcheck "$qc" || fail "the docs have problems (listed above)"

copy() {
  rm -rf "$tmp/t" && mkdir -p "$tmp/t/scripts"
  cp -r "$src/README.md" "$src/docs" "$tmp/t/"
  cp -r "$src/scripts/readme" "$tmp/t/scripts/"
}
# caught DESCRIPTION PATTERN: the checker must exit 1 and print a line matching PATTERN
caught() {
  local out rc
  set +e
  out="$(python3 "$src/scripts/check_docs.py" --root "$tmp/t" --quatcheck "$qc" 2>/dev/null)"
  rc=$?
  set -e
  [ "$rc" -eq 1 ] || fail "negative control '$1': exit $rc, expected 1"
  grep -Eq "$2" <<<"$out" || { echo "$out"; fail "negative control '$1': no line matching $2"; }
  echo "caught: $1"
}

copy
python3 "$src/scripts/check_docs.py" --root "$tmp/t" --quatcheck "$qc" >/dev/null || fail "an unchanged copy must pass"

copy
sed -i '0,/(docs\/timing.md#sharded-runs)/s//(docs\/timing.md#sharded-runz)/' "$tmp/t/README.md"
caught "dead anchor" '^README.md:[0-9]+: link docs/timing.md#sharded-runz: no heading #sharded-runz'

copy
echo 'See [nowhere](no-such-page.md).' >>"$tmp/t/docs/metrics.md"
caught "dead file" '^docs/metrics.md:[0-9]+: link no-such-page.md: no file'

copy
sed -i 's/ \[--fail-on-timing\]//' "$tmp/t/README.md"
caught "flag missing from the synopsis" '^README.md:[0-9]+: `quatcheck compare` synopsis lacks --fail-on-timing'

copy
sed -i 's/^quatcheck list    \[--summary\]/quatcheck list    [--summary] [--colour]/' "$tmp/t/README.md"
caught "stale flag in the synopsis" '`quatcheck list` synopsis has --colour'

copy
printf '<!-- generated:nosuch -->\n<!-- /generated:nosuch -->\n' >>"$tmp/t/docs/results.md"
caught "block without a generator" '^docs/results.md:[0-9]+: block nosuch has no generator'

echo "doc_check: ok"

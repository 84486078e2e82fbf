# shellcheck shell=bash disable=SC2034  # sourced: the tests use the variables it sets
# The preamble of every script test (tests/NAME.test.sh, run as `bash tests/NAME.test.sh BUILD_DIR SOURCE_DIR`).
# A test starts with
#     source "$(dirname "$0")/lib.sh" "$@"
# and gets, with `set -euo pipefail`:
#   build, src   the build and source folders, absolute (SOURCE_DIR defaults to the folder above tests/)
#   qc           the quatcheck binary of the build
#   tmp          a fresh temporary folder, removed when the test exits (`at_exit CMD` runs CMD before that)
#   fail MSG     prints "FAIL: MSG" and exits 1
#   skip MSG     prints "SKIP: MSG" and exits 77, which CTest shows as skipped (SKIP_RETURN_CODE), never passed
#   pass MSG     prints "ok   MSG"
#   expect [-F] STATUS PATTERN CMD...
#                CMD exits STATUS and prints exactly one stderr line, matching the extended regular expression
#                PATTERN (with -F: containing the text PATTERN); its stdout is discarded
#   wait_for SECONDS CMD...
#                runs CMD every 0.05 s until it succeeds (status 0) or SECONDS have passed (status 1): a test that
#                signals a process waits this way for the phase it means to test, not for a fixed time
#   catches_term PID
#                PID has a handler for SIGTERM (the SigCgt mask of /proc/PID/status)
#   full         1 when the test runs at its full size (QC_TEST_FULL=1: the `full` CTest label, `scripts/test
#                --full`), else 0; heavy tests (label `heavy`) run small by default
#   sized SMALL FULL
#                prints SMALL, or FULL when full is 1: `--cases "$(sized 500 3000)"`
#   fixture_report
#                r=$tmp/r, a report folder for fixture CSVs holding the build's schema.json, and QC_QUATCHECK
#                exported (the report scripts ask it for what the schema does not say)
# A test that goes on after a failed check to report every failure calls `keep_going` first: -e is off, fail
# counts instead of exiting, and `finish` at the end prints the count and exits 1 when any check failed.
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: bash $0 BUILD_DIR [SOURCE_DIR]" >&2; exit 2; }
build="$(cd "$1" && pwd)"
src="$(cd "${2:-$(dirname "${BASH_SOURCE[0]}")/..}" && pwd)"
qc="$build/quatcheck"
tmp="$(mktemp -d "${TMPDIR:-/tmp}/qc-$(basename "$0" .test.sh).XXXXXX")"
qc_at_exit=()
at_exit() { qc_at_exit+=("$*"); }
qc_cleanup() {
  local c
  for c in "${qc_at_exit[@]}"; do eval "$c" || true; done
  rm -rf "$tmp"
}
trap qc_cleanup EXIT

full=0
[[ ${QC_TEST_FULL:-0} == 1 ]] && full=1
sized() { if ((full)); then echo "$2"; else echo "$1"; fi; }

failures=0
qc_keep_going=0
keep_going() { set +e; qc_keep_going=1; }
fail() {
  echo "FAIL: $*"
  ((qc_keep_going)) || exit 1
  failures=$((failures + 1))
}
finish() {
  echo "$(basename "$0" .test.sh): $failures failure(s)"
  [[ $failures -eq 0 ]] || exit 1
  exit 0
}
skip() { echo "SKIP: $*"; exit 77; }
wait_for() {
  local ticks=$(($1 * 20))
  shift
  until "$@"; do
    ((ticks-- > 0)) || return 1
    sleep 0.05
  done
}
catches_term() {
  local mask
  mask=$(awk '/^SigCgt:/ { print $2 }' "/proc/$1/status" 2>/dev/null) && [ -n "$mask" ] && (((0x$mask >> 14) & 1))
}
pass() { echo "ok   $*"; }

expect() {
  local grep_as=-E
  if [ "$1" = -F ]; then grep_as=-F; shift; fi
  local want="$1" pattern="$2" got=0
  shift 2
  "$@" >/dev/null 2>"$tmp/expect.err" || got=$?
  if [[ $got -ne $want || $(wc -l <"$tmp/expect.err") -ne 1 ]] || ! grep -q "$grep_as" -- "$pattern" "$tmp/expect.err"; then
    fail "$(printf '%q ' "$@" | cut -c1-200)-> exit $got (want $want, one stderr line matching /$pattern/): $(head -3 "$tmp/expect.err")"
  else
    pass "exit $got  $(cut -c1-160 "$tmp/expect.err")"
  fi
}

fixture_report() {
  export QC_QUATCHECK="$qc"
  r="$tmp/r"
  mkdir -p "$r"
  "$qc" tables >"$r/schema.json"
}

#!/usr/bin/env bash
# Every printed command runs as printed (issue 38 item 3): a report folder is made with a shared-library plugin
# (impls/examples/example_plugin.c, built as qc_example_plugin) and a process plugin (impls/process/c_adapter.c,
# built as BUILD/process/c_adapter, with squad) by run, conform, squad, report and findings, and a compare of two
# copies of it with a planted regression. Then every `quatcheck ...` command the tool wrote is collected:
#   - the `reproduce` column of every CSV of the folder (conformance.csv, squad tables, ...);
#   - report.html and cards/*.html: every <pre> block with a line starting with `quatcheck ` (run as one
#     script: the card's replay block is a grep into a file, then quatcheck replay of it) and every <code>
#     that starts with `quatcheck ` (the grey line's commands that add the studies the folder lacks);
#   - findings/*/README.md and compare's compare.md: every line of a fenced code block that starts with
#     `quatcheck `, and every `quatcheck SUBCOMMAND ...` after a "reproduce...: " to the end of its line (a
#     command named in the prose, `quatcheck findings --factor`, is a mention, not a command);
#   - compare's junit.xml: its text (not its tags' attributes), every `quatcheck SUBCOMMAND ...` to the end of
#     its line;
# and each is run in a fresh `sh -c` from a new empty working directory, with the build's quatcheck first on
# PATH. It must exit 0 or 1 (a verdict), never 2 (a usage or input error: an unknown implementation, a file
# that is not there) nor anything else. A command still running after QC_COMMAND_TIMEOUT seconds (default 15, 45 at
# full size: the study commands of the grey line, bench and threshold, take minutes) got past its arguments, its
# plugins and its selection, where a usage error stops at once: it is stopped and counted as started, and listed.
# Each failing command is printed with its source, its exit status and the first lines of its stderr.
# Negative control: the card's replay command as it was printed before issue 38 (without --plugin) exits 2
# and the same runner flags it.
# Usage: bash tests/commands_run.test.sh BUILD_DIR SOURCE_DIR
source "$(dirname "$0")/lib.sh" "$@"
keep_going
so="$build/impls/examples/example_plugin.so"
adapter="$build/process/c_adapter"
[ -f "$so" ] || { echo "FAIL: $so not built (target qc_example_plugin)"; exit 1; }
[ -x "$adapter" ] || { echo "FAIL: $adapter not built (target qc_c_adapter)"; exit 1; }
timeout_s="${QC_COMMAND_TIMEOUT:-$(sized 15 45)}"
plugins=(--plugin "$so" --plugin-cmd "$adapter ok squad")
sel=(--impl example-slerp --impl proc-seed-c)
mkdir -p "$tmp/work" && cd "$tmp/work"

# ---- the report folder ----
"$qc" run "${plugins[@]}" "${sel[@]}" --cases 200 --seed 3 --jobs 2 --out r 2>run.err || { cat run.err; fail "run"; }
rc=0; "$qc" conform "${plugins[@]}" "${sel[@]}" --cases 30 --seed 3 --jobs 2 --out r >conform.out 2>&1 || rc=$?
[ "$rc" -le 1 ] || { tail -3 conform.out; fail "conform exited $rc"; }
rc=0; "$qc" squad "${plugins[@]}" --impl proc-seed-squad --tracks 4 --seed 3 --jobs 2 --out r >squad.out 2>&1 || rc=$?
[ "$rc" -le 1 ] || { tail -3 squad.out; fail "squad exited $rc"; }
"$qc" report r 2>report.err || { cat report.err; fail "report"; }
"$qc" findings r >/dev/null 2>findings.err || { cat findings.err; fail "findings"; }
# compare: the current folder a copy with two rows made worse (one per plugin), so that compare prints the
# commands of its regressions into junit.xml and compare.md.
cp -a r base && cp -a r cur
python3 - cur/summary.csv <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
for r in rows:
    if r["impl"] in ("example-slerp.f64", "proc-seed-c.f32") and r["region"] == "uniform":
        r["max_angle_err_rad"] = repr(float(r["max_angle_err_rad"]) * 1000)
w = csv.DictWriter(open(sys.argv[1], "w", newline=""), fieldnames=list(rows[0]), lineterminator="\n")
w.writeheader(); w.writerows(rows)
PY
rc=0; "$qc" compare base cur --out cmp >compare.out 2>&1 || rc=$?
[ "$rc" -eq 1 ] || { tail -3 compare.out; fail "compare of a planted regression exited $rc (want 1)"; }

# ---- collect: one record per command, "SOURCE<TAB>COMMAND" with the command's newlines as \n ----
collect() {
  python3 - "$@" <<'PY'
import csv, glob, html, os, re, sys
sub = ("replay|run|conform|squad|curves|bench|threshold|findings|leaderboard|sweep|report|list|compare|merge|"
       "publish|tables")
out = []
def add(source, cmd):
    cmd = cmd.strip()
    if cmd:
        out.append((source, cmd))
for folder in sys.argv[1:]:
    for path in sorted(glob.glob(os.path.join(folder, "**", "*.csv"), recursive=True)):
        with open(path, newline="") as f:
            for n, r in enumerate(csv.DictReader(f), start=2):
                if r.get("reproduce"):
                    add(f"{path}:{n} reproduce", r["reproduce"])
    for path in sorted(glob.glob(os.path.join(folder, "*.html")) + glob.glob(os.path.join(folder, "cards", "*.html"))):
        text = open(path, encoding="utf-8").read()
        for m in re.finditer(r"<pre[^>]*>(.*?)</pre>", text, re.S):
            block = html.unescape(m.group(1))
            if any(line.strip().startswith("quatcheck ") for line in block.splitlines()):
                add(f"{path} <pre>", block)
        for m in re.finditer(r"<code>(quatcheck .*?)</code>", text, re.S):
            add(f"{path} <code>", html.unescape(m.group(1)))
    docs = sorted(glob.glob(os.path.join(folder, "findings", "*", "README.md")) + glob.glob(os.path.join(folder, "compare.md")))
    for path in docs:
        fence = False
        for n, line in enumerate(open(path, encoding="utf-8").read().splitlines(), start=1):
            if line.lstrip().startswith("```"):
                fence = not fence
                continue
            if fence and line.strip().startswith("quatcheck "):
                add(f"{path}:{n}", line)
            elif not fence:
                for m in re.finditer(r"reproduce[^:`]*: (quatcheck (?:%s)\b[^`]*)" % sub, line):
                    add(f"{path}:{n}", m.group(1))
    for path in glob.glob(os.path.join(folder, "junit.xml")):
        raw = open(path, encoding="utf-8").read()
        text = html.unescape(re.sub(r"<[^>]*>", "\n", raw))  # the text of the elements, not their attributes
        for n, line in enumerate(text.splitlines(), start=1):
            for m in re.finditer(r"(?<![\w./-])(quatcheck (?:%s)\b.*)" % sub, line):
                add(f"{path} text line {n}", m.group(1))
seen = set()
for source, cmd in out:
    if cmd in seen:
        continue
    seen.add(cmd)
    print(source + "\t" + cmd.replace("\\", "\\\\").replace("\n", "\\n"))
PY
}

# run_all FILE: runs every record of FILE as `sh -c` from a fresh folder; prints each that fails; returns the
# number of failures.
run_all() {
  local source cmd n=0 bad=0 started=0 rc d
  while IFS=$'\t' read -r source cmd; do
    cmd="$(printf '%b' "$cmd")"
    n=$((n + 1))
    d="$tmp/elsewhere/$n"
    mkdir -p "$d"
    rc=0
    (cd "$d" && PATH="$build:$PATH" timeout -s TERM "$timeout_s" sh -c "$cmd" >"$d/out" 2>"$d/err") || rc=$?
    case "$rc" in
      0|1) ;;
      124) started=$((started + 1)); echo "     (still running after ${timeout_s} s, stopped: $(printf '%s' "$cmd" | head -1 | cut -c1-150))" ;;
      *) bad=$((bad + 1))
         echo "FAILING COMMAND (exit $rc, from $source):"
         printf '%s\n' "$cmd" | sed 's/^/    /'
         head -3 "$d/err" | sed 's/^/    stderr: /' ;;
    esac
  done <"$1"
  echo "$n command(s) run, $bad failed (exit 2 or other), $started stopped while running"
  return "$bad"
}

collect r cmp >commands.tsv
cut -f1 commands.tsv | sed -E 's/:[0-9]+ reproduce$/ reproduce/; s/:[0-9]+$//; s/ text line [0-9]+$//; s/(cards\/)[^ ]*\.html/\1*.html/' |
  sort | uniq -c | sed 's/^/  /'
for what in "reproduce" "cards/.*<pre>" "html <code>" "findings/.*README.md" "junit.xml"; do
  grep -Eq "$what" commands.tsv || fail "no command collected from $what"
done
grep -q 'quatcheck replay' commands.tsv || fail "no card replay command collected"
if run_all commands.tsv; then pass "every printed command exits 0 or 1"; else fail "printed commands that do not run as printed (above)"; fi

# ---- negative control: the card's replay command of before issue 38 (no --plugin) must be caught ----
grep -E '^(impl,|example-slerp\.f64,)' r/worst_cases.csv >"$tmp/old.worst.csv"
printf 'old card\tquatcheck replay %s\n' "$tmp/old.worst.csv" >old.tsv
printf 'old card, relative\tgrep -E %s worst_cases.csv > mine.csv\\nquatcheck replay mine.csv\n' "'^(impl,|example-slerp\\.f64,)'" >>old.tsv
if run_all old.tsv >old.out; then cat old.out; fail "negative control: the old replay command without --plugin passed"
else grep -q 'exit 2' old.out && pass "negative control: the old replay command is caught: $(grep -m1 stderr: old.out | cut -c1-120)" ||
  { cat old.out; fail "negative control: caught, but not as exit 2"; }
fi
finish

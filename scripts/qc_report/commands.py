"""The quatcheck commands the pages print, and the one grey line that lists the studies a folder does not have.

Every command printed runs as printed (issue 38 item 3): from any working directory (the report folder is
named by its absolute path) and with the --plugin / --plugin-cmd arguments that load the implementations it
names (run.json records how each was loaded, its `origin`, as harness/tables/rows.cpp load_words reads it).
Every word is quoted with shlex.quote."""
import html
import os
import shlex


def load_words(origin):
    """The arguments that load an implementation of this origin: none for a built-in, --plugin PATH for a
    shared library (a path ending in .so), --plugin-cmd 'CMD' for a process plugin. The same rule as
    load_words in harness/tables/rows.cpp, which the findings and compare commands use. A library path given
    relative (--plugin ./mylib.so) is made absolute when it names a file from here (quatcheck report is
    usually run where run was), so that the command runs from any working directory."""
    if not origin or origin == "builtin":
        return []
    if len(origin) > 3 and origin.endswith(".so"):
        if not os.path.isabs(origin) and os.path.isfile(origin):
            origin = os.path.abspath(origin)
        return ["--plugin", origin]
    return ["--plugin-cmd", origin]


def family(impl):
    return impl.rsplit(".", 1)[0] if impl.endswith((".f32", ".f64")) else impl


class Commands:
    """Commands about one report folder: `folder` absolute, `origins` {impl: origin} from run.json."""

    def __init__(self, folder, origins):
        self.folder = os.path.abspath(folder)
        self.origins = origins

    def plugins(self, impls=None):
        """The load arguments of the implementations named (every plugin of the folder when None), each once,
        in the order first met."""
        names = sorted(self.origins) if impls is None else list(impls)
        words, seen = [], set()
        for impl in names:
            w = load_words(self.origins.get(impl, ""))
            if w and tuple(w) not in seen:
                seen.add(tuple(w))
                words += w
        return words

    def complete(self, command, impl):
        """A command read from a table (a `reproduce` column), with the load arguments of `impl` appended when
        it is a quatcheck command that lacks them; anything else as it is."""
        try:
            words = shlex.split(command)
        except ValueError:
            return command
        # `--plugin CMD` for a process plugin (a value that is no .so and no file) loads nothing and exits 2:
        # said as load_words says it, --plugin-cmd CMD.
        fixed = False
        for k in range(len(words) - 1):
            if words[k] == "--plugin" and not (words[k + 1].endswith(".so") or os.path.isfile(words[k + 1])):
                words[k], fixed = "--plugin-cmd", True
        if fixed:
            command = self.line(*words)
        need = self.plugins([impl])
        if not words or words[0] != "quatcheck" or not need:
            return command
        if need[0] in words:  # the table's command names its plugin already (as run was given it)
            return command
        return command + " " + self.line(*need)

    def line(self, *words):
        return " ".join(shlex.quote(str(w)) for w in words)

    def path(self, name):
        return os.path.join(self.folder, name)

    def replay_worst(self, impl):
        """Two lines: this implementation's rows of worst_cases.csv into a file beside it, then quatcheck replay
        of that file with the plugin that provides the implementation."""
        pattern = "^(impl,|" + "".join("\\" + c if c in ".^$*+?(){}|[]\\" else c for c in impl) + ",)"
        mine = "/tmp/" + impl + ".worst.csv"
        return (f"grep -E {shlex.quote(pattern)} {shlex.quote(self.path('worst_cases.csv'))} > {shlex.quote(mine)}\n"
                + self.line("quatcheck", "replay", mine, *self.plugins([impl])))


# The studies a report folder may hold: (what, the files that show it, the command that adds it). The
# command's words: "IMPLS" stands for --impl FAMILY of every family in the folder, "PLUGINS" for the load
# arguments of every plugin of the folder, "DIR" for the folder. `ulp1_histogram.csv` is no study: no
# command writes it, and the card draws the histogram from error_curve.csv without it.
STUDIES = [
    ("sampling (summary, worst cases, error curves)", ["summary.csv"],
     ["quatcheck", "run", "PLUGINS", "IMPLS", "--out", "DIR"]),
    ("conformance", ["conformance.csv"], ["quatcheck", "conform", "PLUGINS", "IMPLS", "--out", "DIR"]),
    ("the leaderboard", ["leaderboard.csv"], ["quatcheck", "leaderboard", "DIR"]),
    ("squad", ["squad_summary.csv", "squad_conformance.csv"], ["quatcheck", "squad", "PLUGINS", "--out", "DIR"]),
    ("angular velocity", ["velocity_curve.csv"], ["quatcheck", "curves", "PLUGINS", "IMPLS", "--out", "DIR"]),
    ("timing", ["timing.csv"], ["quatcheck", "bench", "PLUGINS", "IMPLS", "--suite", "impls", "--out", "DIR"]),
    ("the threshold study", ["threshold.csv"], ["quatcheck", "threshold", "--out", "DIR"]),
    ("findings for maintainers", ["findings/index.json"], ["quatcheck", "findings", "DIR"]),
]


def absent_studies(folder, commands, impls):
    """[(what, command)] of the studies whose files are all absent from the folder. `impls`: the folder's
    implementations (their families become the --impl filters)."""
    fams = sorted({family(i) for i in impls})
    out = []
    for what, files, words in STUDIES:
        if any(os.path.exists(os.path.join(folder, f)) for f in files):
            continue
        if ("IMPLS" in words and not fams) or (what.startswith("findings") and
                                               not os.path.exists(os.path.join(folder, "summary.csv"))):
            continue  # nothing to name, or nothing to find in yet
        cmd = []
        for w in words:
            if w == "IMPLS":
                for f in fams:
                    cmd += ["--impl", f]
            elif w == "PLUGINS":
                cmd += commands.plugins()
            elif w == "DIR":
                cmd.append(commands.folder)
            else:
                cmd.append(w)
        out.append((what, commands.line(*cmd)))
    return out


def absent_line(studies):
    """The one grey line of a page: what this folder does not have and the command that adds each; "" when it
    has everything."""
    if not studies:
        return ""
    items = "; ".join(f"{html.escape(what)}: <code>{html.escape(cmd)}</code>" for what, cmd in studies)
    return f'<p class="absent">Not in this folder (not run, not an error): {items}.</p>'

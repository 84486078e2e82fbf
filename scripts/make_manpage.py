#!/usr/bin/python3
"""Writes help-all.txt (the output of `quatcheck --help-all`) and the man page quatcheck.1 made from it.

    /usr/bin/python3 scripts/make_manpage.py QUATCHECK VERSION HELP_TXT MAN_PAGE

Run by the build (cmake/QuatcheckInstall.cmake); both files are installed (docs/install.md).
"""
import subprocess
import sys

EXIT_STATUS = [("0", "success"),
               ("1", "a failed verdict (a property fails, compare found a regression)"),
               ("2", "a usage or input error; one line on stderr: quatcheck: <what>: <why>"),
               ("128+N", "interrupted by signal N; the output folder is left as it was")]


def roff(text):
    """Plain text as roff: backslashes doubled, a leading dot or quote escaped."""
    lines = []
    for line in text.replace("\\", "\\e").splitlines():
        lines.append("\\&" + line if line.startswith((".", "'")) else line)
    return "\n".join(lines)


def main():
    if len(sys.argv) != 5:
        sys.exit("usage: make_manpage.py QUATCHECK VERSION HELP_TXT MAN_PAGE")
    exe, version, help_txt, man = sys.argv[1:]
    # argv[0] "quatcheck": the usage line names the command, not the build folder it ran from.
    help_all = subprocess.run(["quatcheck", "--help-all"], executable=exe, check=True, capture_output=True, text=True).stdout
    with open(help_txt, "w", encoding="utf-8") as f:
        f.write(help_all)
    page = [f'.TH QUATCHECK 1 "" "quatcheck {version}" "User Commands"',
            ".SH NAME",
            "quatcheck \\- accuracy and conformance harness for quaternion slerp, nlerp and squad",
            ".SH SYNOPSIS",
            ".B quatcheck",
            ".I SUBCOMMAND",
            "[\\fIOPTIONS\\fR]",
            ".br",
            ".B quatcheck --version",
            ".SH DESCRIPTION",
            "quatcheck measures implementations of slerp, nlerp and squad (built-ins, shared-library plugins "
            "loaded with \\fB--plugin\\fR, process plugins run with \\fB--plugin-cmd\\fR) against a certified "
            "arbitrary-precision reference, checks the properties callers rely on, and writes CSV, JSON and "
            "HTML reports into the folder given with \\fB--out\\fR.",
            ".SH OPTIONS AND SUBCOMMANDS",
            "The output of \\fBquatcheck --help-all\\fR:",
            ".PP", ".nf", roff(help_all), ".fi",
            ".SH EXIT STATUS", ".TP"]
    for code, what in EXIT_STATUS:
        page += [f".B {code}", what, ".TP"]
    page.pop()
    page += [".SH FILES",
             "Installed beside the binary: \\fI../share/quatcheck/scripts/plot_report.py\\fR (used by "
             "\\fBquatcheck report\\fR), \\fI../include/quatcheck/plugin.h\\fR (the plugin ABI), the CMake package "
             "(\\fBfind_package(quatcheck CONFIG)\\fR) and \\fIquatcheck.pc\\fR.",
             ".SH SEE ALSO",
             "The documentation in \\fI/usr/share/doc/quatcheck\\fR (or \\fIPREFIX/share/doc/quatcheck\\fR), "
             "starting with \\fIdocs/install.md\\fR."]
    with open(man, "w", encoding="utf-8") as f:
        f.write("\n".join(page) + "\n")


if __name__ == "__main__":
    main()

"""Reads the report CSVs through their schema (issue 17): the Python side of harness/tables/.

Every report folder holds schema.json beside its CSVs, written with them by quatcheck (the same JSON as
`quatcheck tables`: per file, its columns with type and unit). A script asks for the columns it uses;
each must be declared in the schema and present in the file's header, else the script stops with one
line "FILE:LINE: reason" (a renamed column fails loudly instead of reading as a KeyError or a blank).

    import qc_tables
    rows = qc_tables.rows(report, "summary.csv", ["impl", "op", "max_angle_err_rad"])
    rows[0]["impl"]          # checked: a column not asked for must still be in the schema and the file

A folder written before schema.json existed is read with the schema of the quatcheck binary
(the first that has `tables` of $QC_QUATCHECK, else $QC_BUILD_DIR/quatcheck, build/quatcheck,
build-*/quatcheck, quatcheck on PATH).
Reading uses only the standard csv module (Debian's /usr/bin/python3).

md_cell(text) and md_code(text) put text read from a file (a report, a JSON written by another program) into
generated Markdown: a table cell or a line of prose that the text cannot end, split or turn into HTML.
"""
import csv
import glob
import json
import os
import re
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


_MD_BREAKS = re.compile(r"[\x00-\x1f\x7f\x85\u2028\u2029]+")  # line breaks, tabs and other control characters
_MD_SPECIAL = re.compile(r"([\\|<`&*_\[\]])")


def md_cell(text):
    """Untrusted text as Markdown inline text (a table cell, a line of prose): line breaks and other control
    characters become one space, so the text cannot end its row or line; a backslash, '|', '<', '`', '&', '*',
    '_', '[' and ']' get a backslash (CommonMark's escape of that character, shown as the character itself), so it
    cannot split a cell, open an HTML tag, an entity, a code span, emphasis or a link, or escape what follows it."""
    return _MD_SPECIAL.sub(r"\\\1", _MD_BREAKS.sub(" ", str(text)))


def md_code(text):
    """Untrusted text as a Markdown code span (`...`), for a table cell too: backslash escapes do not work inside a
    code span, so a backtick becomes "'", line breaks and control characters a space, and '|' is written '\\|'
    (GitHub splits a table row before it reads code spans, and shows '\\|' there as '|')."""
    return "`" + _MD_BREAKS.sub(" ", str(text)).replace("`", "'").replace("|", "\\|") + "`"


class TableError(Exception):
    """A one-line "FILE:LINE: reason"."""


def _fail(path, line, why):
    raise TableError(f"{path}:{line}: {why}")


_schemas = {}  # folder -> (source, schema dict)


def _quatchecks():
    """The quatcheck binaries to ask for the schema, in order."""
    env = os.environ.get("QC_QUATCHECK")
    if env:
        return [env]
    build = os.environ.get("QC_BUILD_DIR")
    candidates = [os.path.join(build, "quatcheck")] if build else []
    candidates += [os.path.join(ROOT, "build", "quatcheck")] + sorted(glob.glob(os.path.join(ROOT, "build-*", "quatcheck")))
    on_path = shutil.which("quatcheck")
    return [c for c in candidates if os.access(c, os.X_OK)] + ([on_path] if on_path else [])


def schema(folder):
    """(where it came from, {file: {"about", "key", "columns": [{"name", "type", "unit", ...}]}})."""
    folder = os.path.abspath(folder)
    if folder in _schemas:
        return _schemas[folder]
    path = os.path.join(folder, "schema.json")
    if os.path.exists(path):
        try:
            with open(path, encoding="utf-8") as f:
                value = json.load(f)
        except ValueError as e:
            _fail(path, getattr(e, "lineno", 1), f"not valid JSON ({e})")
        source = path
    else:
        value = None
        for qc in _quatchecks():  # an older binary without `tables` is passed over
            out = subprocess.run([qc, "tables"], capture_output=True, text=True)
            if out.returncode == 0:
                value, source = json.loads(out.stdout), f"`{qc} tables`"
                break
        if value is None:
            _fail(path, 1, "no schema.json in the report folder and no quatcheck binary with `tables` to ask "
                           "(set QC_QUATCHECK)")
    _check_schema(value, path if source == path else source)
    _schemas[folder] = (source, value)
    return _schemas[folder]


def informative_properties(folder):
    """The informative conformance properties of the report in folder (correctly-rounded): measured and shown,
    never counted as a failed promise. schema.json's conformance.csv entry lists them (harness/tables/schemas.cpp);
    a schema written before they existed lists none."""
    _, value = schema(folder)
    names = value.get("conformance.csv", {}).get("informative_properties", [])
    return set(names) if isinstance(names, list) else set()


_constants = []


def constants():
    """The constants the report draws with, from `quatcheck tables --constants` (harness/regions/regions.h
    defines them once: the seed threshold 0.9995 and the region bounds), asked of the same binaries as a
    missing schema."""
    if _constants:
        return _constants[0]
    for qc in _quatchecks():
        out = subprocess.run([qc, "tables", "--constants"], capture_output=True, text=True)
        if out.returncode == 0:
            _constants.append(json.loads(out.stdout))
            return _constants[0]
    raise TableError("no quatcheck binary with `tables --constants` to ask for the report's constants "
                     "(set QC_QUATCHECK)")


def _check_schema(value, where):
    """A schema is {file: {"columns": [{"name": text, ...}, ...], ...}}; anything else (null, a table without
    columns) is refused with one line, before a reader trips over it."""
    if not isinstance(value, dict):
        _fail(where, 1, f"not a schema: a JSON object of tables expected, got {type(value).__name__}")
    for name, table in value.items():
        columns = table.get("columns") if isinstance(table, dict) else None
        if not isinstance(columns, list) or not all(isinstance(c, dict) and isinstance(c.get("name"), str) for c in columns):
            _fail(where, 1, f"not a schema: table {name!r} has no list of named columns")


def _declared(columns, name):
    """True when `name` is one of the schema's columns ("{region}" in a name stands for any region)."""
    for c in columns:
        pattern = c["name"]
        if pattern == name:
            return True
        if "{region}" in pattern:
            regex = re.escape(pattern).replace(re.escape("{region}"), "[A-Za-z0-9_.-]+")
            if re.fullmatch(regex, name):
                return True
    return False


class Row(dict):
    """One CSV row as a dict (row["_line"] is its line number); reading a column checks it."""

    def __init__(self, table, values, line):
        super().__init__(zip(table.header, values))
        self["_line"] = line
        self._table = table

    def __getitem__(self, column):
        if column != "_line":
            self._table.check(column)
        return dict.__getitem__(self, column)

    def get(self, column, default=None):
        """An optional column: declared in the schema, `default` when the file does not have it."""
        if column != "_line":
            self._table.check(column, in_file=False)
        return dict.get(self, column, default)


class Table:
    """A CSV of a report folder read against the folder's schema: path, header, rows."""

    def __init__(self, folder, name):
        self.path = os.path.join(folder, name)
        source, tables = schema(folder)
        if name not in tables:
            _fail(self.path, 1, f"no table {name} in {source}")
        self.columns = tables[name]["columns"]
        self.source = source
        self.header, self.rows = [], []

    def check(self, column, in_file=True):
        """Fails unless `column` is declared in the schema and (with in_file) in the file's header."""
        if not _declared(self.columns, column):
            _fail(self.path, 1, f"column '{column}' is not in {os.path.basename(self.path)}'s schema ({self.source})")
        if in_file and column not in self.header:
            _fail(self.path, 1, f"missing column '{column}' (header: {','.join(self.header)})")


def read(folder, name, columns=()):
    """The table `name` of the folder with `columns` checked, or None when the file does not exist."""
    path = os.path.join(folder, name)
    if not os.path.exists(path):
        return None
    return load(folder, name, columns)


def load(folder, name, columns=()):
    """The table `name` of the folder with `columns` checked; a missing file raises FileNotFoundError."""
    table = Table(folder, name)
    path = table.path
    try:
        with open(path, newline="", encoding="utf-8") as f:
            reader = csv.reader(f)
            header = next(reader, None)
            if header is None:
                _fail(path, 1, "the file is empty")
            table.header = header
            for c in columns:
                table.check(c)
            for values in reader:
                if not values:
                    continue
                if len(values) != len(header):
                    _fail(path, reader.line_num, f"{len(values)} fields, the header has {len(header)}")
                table.rows.append(Row(table, values, reader.line_num))
    except UnicodeDecodeError as e:
        _fail(path, "?", f"not UTF-8 text ({e.reason})")
    except csv.Error as e:
        _fail(path, "?", f"malformed CSV: {e}")
    return table


def rows(folder, name, columns=()):
    """The rows of `name` (see load); on a TableError, one line on stderr and exit status 2."""
    try:
        return load(folder, name, columns).rows
    except TableError as e:
        print(f"{os.path.basename(sys.argv[0])}: {e}", file=sys.stderr)
        sys.exit(2)

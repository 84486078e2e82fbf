// One schema, one writer and one reader for every CSV table the tool writes (harness/tables/schemas.h
// declares the tables). A schema lists each column's name, type and unit; the writer formats typed cells
// by the column's type and the reader checks every cell against it with one set of rules:
//   - the file is non-empty UTF-8 text without NUL bytes, ending in a newline;
//   - the header names every required column (extra columns are ignored, optional ones may be absent);
//   - every row has as many fields as the header; fields are RFC 4180 (double quotes escape ", and ,);
//   - key columns are non-empty, counts are decimal digits, numbers parse whole (no blanks), non-negative
//     columns reject negatives and NaN, choices are one of their values, and only columns that may be empty are;
//   - no two rows share the schema's key columns.
// Every problem is an InputError "FILE:LINE: reason"; nothing is skipped silently.
#pragma once

#include "quatcheck/types.h"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace qc {

// What a column holds: how it is written and what the reader accepts.
enum class ColumnType {
    key,       // non-empty text that identifies the row (impl, op, region, ...)
    text,      // free text; quoted when it holds a comma, quote or newline
    choice,    // one of Column::choices
    count,     // unsigned decimal integer
    real,      // any number, nan and inf included
    nonneg,    // a number >= 0 (inf allowed, nan not)
    hexfloat,  // a C hexfloat (%a), exact
    decimal,   // a decimal number as text, kept exactly as written (more digits than a double holds)
};

struct Column {
    std::string name;
    ColumnType type = ColumnType::text;
    std::string unit;                  // "rad", "ulp", "ns", "s", ... or "" (a count or a name)
    bool required = true;              // the reader fails when the header lacks it
    bool may_be_empty = false;         // an empty cell is "not measured" / "not applicable"
    std::vector<std::string> choices;  // ColumnType::choice
    std::string format;                // fmt spec of a number ("{:.4g}"); "" = 9 significant digits
};

struct Schema {
    std::string file;   // "summary.csv"
    std::string about;  // one line: what a row is
    std::vector<Column> columns;
    std::vector<std::string> key;  // columns no two rows may share (empty: rows may repeat)
    bool rows_required = false;    // a file with a header only is an error
    const Column *find(std::string_view name) const;
};

// ---- formatting (the only place numbers become text) ----

// Decimal for people: 9 significant digits, no locale; "nan", "inf", "-inf".
std::string num(double x);
// C hexfloat (%a) of a value, e.g. "0x1.6a09e6p-1"; floats are printed as their exact double value.
std::string hexfloat(double x);

// One cell handed to the writer; formatted by its column's type.
using Cell = std::variant<std::monostate, std::string, uint64_t, double>;

// Builds a CSV text: the schema's header, then one line per row(). A cell that does not fit its
// column's type (or an empty one where the column may not be empty) is a programming error (logic_error).
class CsvWriter {
public:
    explicit CsvWriter(const Schema &schema);
    void row(const std::vector<Cell> &cells);
    const std::string &text() const { return text_; }

private:
    const Schema &schema_;
    std::string text_;
};

// ---- reading ----

// A table read and validated against its schema; cells are accessed by column name.
class Table {
public:
    const Schema &schema() const { return *schema_; }
    const std::string &path() const { return path_; }
    size_t size() const { return rows_.size(); }
    unsigned line(size_t row) const { return lines_[row]; }
    bool has(std::string_view column) const;
    // The cell as written ("" when the column is absent).
    const std::string &text(size_t row, std::string_view column) const;
    uint64_t count(size_t row, std::string_view column) const;
    // A number column; nullopt for an empty cell or an absent column.
    std::optional<double> number(size_t row, std::string_view column) const;
    // Throws InputError "PATH:LINE(row): why".
    [[noreturn]] void fail(size_t row, const std::string &why) const;

private:
    friend Table read_table(const Schema &, const std::string &, std::string_view);
    const Schema *schema_ = nullptr;
    std::string path_;
    std::vector<int> index_;  // schema column -> field index in the file, -1 when absent
    std::vector<std::vector<std::string>> rows_;
    std::vector<unsigned> lines_;
    size_t field(std::string_view column) const;
};

// Reads CSV text (`path` names it in messages) against a schema.
Table read_table(const Schema &schema, const std::string &path, std::string_view text);
// A function every table read calls once per 4096 lines; it may throw to abandon the read. main() installs one
// that throws Interrupted after SIGINT/SIGTERM (issue 44: compare parsed a 100,000-row table for 4 s after
// the signal), so that no table read outlasts the second a command has to stop. None by default.
void set_table_read_check(void (*check)());
// Reads a file against a schema.
Table read_table_file(const Schema &schema, const std::filesystem::path &path);

// The text of a file; nullopt when it does not exist. Throws InputError when it cannot be read.
std::optional<std::string> read_text_file(const std::filesystem::path &path);

// Parses a C hexfloat ("0x1.8p-3", "-0x0p+0"); with allow_nonfinite also "nan", "inf", "-inf".
// Throws InputError("FILE:LINE: column COL: ...") when the text is not exactly one such number.
double parse_hexfloat(std::string_view text, const std::string &file, unsigned line, const char *column,
                      bool allow_nonfinite = false);
// The same for a float: additionally the value must be exactly representable as a float.
float parse_hexfloat_f32(std::string_view text, const std::string &file, unsigned line, const char *column,
                         bool allow_nonfinite = false);

}  // namespace qc

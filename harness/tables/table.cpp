// The reader's division of labour between the fast C++ CSV parser (libfccp, Debian libfccp-dev, namespace
// io) and this file:
//   - fccp reads the lines: io::LineReader splits the text into lines, numbers them, and bounds a line's
//     length (2^24-1 bytes; a longer one raises io::error::line_length_limit_exceeded, turned here into
//     "FILE:LINE: line longer than ...").
//   - fccp splits the cells: io::double_quote_escape<',', '"'> finds where each field ends
//     (find_next_column_end, quotes respected; an unclosed quote raises io::error::escaped_string_not_closed)
//     and removes the quotes and doubled quotes (unescape). io::CSVReader itself is not used: it needs the
//     column count and types at compile time, and the tables here have a run-time column list (optional
//     columns, the leaderboard's per-region columns). No trim policy is used: a cell is taken exactly as
//     written, so " 1" is refused as a number instead of being trimmed.
//   - this file still checks what fccp accepts silently, because the rules are strict (table.h): the
//     whole text first (non-empty, valid UTF-8, no NUL byte, a final newline; LineReader accepts a
//     missing final newline), CRLF line ends (LineReader strips the \r silently; seen here by comparing
//     the line with the original text), a quote inside an unquoted field or text after a closing quote
//     (fccp's quote policy accepts both), then the header, field counts, every cell against its column
//     type and the key uniqueness. Files are read whole by read_text_file (std::ifstream) because those
//     checks need the exact bytes; fccp then reads the lines from memory. Every problem becomes one
//     InputError "FILE:LINE: reason".
#include "tables/table.h"

#include <fmt/format.h>
// libfccp's header trips GCC's -Wstringop-truncation on a bounded strncpy; the code is fine.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wstringop-truncation"
#include <libfccp/csv.h>
#pragma GCC diagnostic pop

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>

namespace qc {

namespace {

// Throws InputError "FILE:LINE: why".
[[noreturn]] void fail_at(const std::string &file, unsigned line, const std::string &why) {
    throw InputError(fmt::format("{}:{}: {}", file, line, why));
}

// A cell's text as it may appear inside a one-line message: control and non-ASCII bytes as \xNN, at most
// 64 characters.
std::string shown(std::string_view s) {
    std::string out;
    for (unsigned char c : s.substr(0, 64))
        out += (c < 0x20 || c >= 0x7f) ? fmt::format("\\x{:02x}", c) : std::string(1, char(c));
    if (s.size() > 64) out += "...";
    return out;
}

// True when s is exactly the syntax of a C hexfloat (sign, 0x, hex digits with an optional point, p, exponent).
bool is_hexfloat_syntax(std::string_view s) {
    size_t i = 0;
    if (i < s.size() && (s[i] == '-' || s[i] == '+')) ++i;
    if (s.substr(i, 2) != "0x" && s.substr(i, 2) != "0X") return false;
    i += 2;
    size_t digits = 0;
    while (i < s.size() && std::isxdigit((unsigned char)s[i])) ++i, ++digits;
    if (i < s.size() && s[i] == '.') {
        ++i;
        while (i < s.size() && std::isxdigit((unsigned char)s[i])) ++i, ++digits;
    }
    if (digits == 0 || i >= s.size() || (s[i] != 'p' && s[i] != 'P')) return false;
    ++i;
    if (i < s.size() && (s[i] == '-' || s[i] == '+')) ++i;
    size_t exp_digits = 0;
    while (i < s.size() && std::isdigit((unsigned char)s[i])) ++i, ++exp_digits;
    return exp_digits > 0 && exp_digits < 6 && i == s.size();
}

// Checks CSV text is non-empty valid UTF-8 without NUL bytes and ends in a newline.
void check_text(const std::string &path, std::string_view data) {
    if (data.empty()) fail_at(path, 1, "the file is empty");
    unsigned line = 1;
    for (size_t i = 0; i < data.size();) {
        unsigned char c = (unsigned char)data[i];
        size_t len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
        if (len == 0 || i + len > data.size()) fail_at(path, line, fmt::format("byte 0x{:02x} is not valid UTF-8", c));
        for (size_t k = 1; k < len; k++)
            if (((unsigned char)data[i + k] >> 6) != 2) fail_at(path, line, "invalid UTF-8 sequence");
        if (c == 0) fail_at(path, line, "NUL byte in a text file");
        if (c == '\n') ++line;
        i += len;
    }
    if (data.back() != '\n') fail_at(path, line, "the last line is truncated (no final newline)");
}

// Splits one CSV line (NUL-terminated, writable: fccp unescapes in place) into RFC 4180 fields. fccp
// finds each field's end and removes its quotes; the strict checks on the raw field are ours.
std::vector<std::string> split_line(char *s, const std::string &path, unsigned line) {
    using quoting = io::double_quote_escape<',', '"'>;
    std::vector<std::string> fields;
    for (char *begin = s;;) {
        char *end = nullptr;
        try {
            end = begin + (quoting::find_next_column_end(begin) - begin);
        } catch (const io::error::escaped_string_not_closed &) {  // fccp opens a quote anywhere in a field
            fail_at(path, line, *begin == '"' ? "unterminated quoted field" : "a quote inside an unquoted field");
        }
        std::string_view raw(begin, size_t(end - begin));
        if (!raw.empty() && raw[0] == '"') {
            size_t i = 1;  // the closing quote: the first one not doubled
            while (i < raw.size() && !(raw[i] == '"' && (i + 1 >= raw.size() || raw[i + 1] != '"')))
                i += raw[i] == '"' ? 2 : 1;
            if (i >= raw.size()) fail_at(path, line, "unterminated quoted field");
            if (i + 1 != raw.size()) fail_at(path, line, "text after a closing quote");
        } else if (raw.find('"') != std::string_view::npos) {
            fail_at(path, line, "a quote inside an unquoted field");
        } else if (raw.find('\r') != std::string_view::npos) {
            fail_at(path, line, "carriage return (CRLF line ends are not accepted)");
        }
        bool last = *end == '\0';
        char *b = begin, *e = end;
        quoting::unescape(b, e);
        fields.emplace_back(b, size_t(e - b));
        if (last) return fields;
        begin = end + 1;
    }
}

// "a, b or c".
std::string alternatives(const std::vector<std::string> &v) {
    std::string s;
    for (size_t i = 0; i < v.size(); i++) s += (i == 0 ? "" : i + 1 == v.size() ? " or " : ", ") + v[i];
    return s;
}

// Parses a whole decimal number; nullopt when s is not exactly one.
std::optional<double> parse_number(const std::string &s) {
    if (s.empty() || std::isspace((unsigned char)s[0])) return std::nullopt;
    char *end = nullptr;
    double v = std::strtod(s.c_str(), &end);
    if (end != s.c_str() + s.size()) return std::nullopt;
    return v;
}

// Checks one cell against its column; throws InputError naming file, line and column.
void check_cell(const Column &c, const std::string &v, const std::string &path, unsigned line) {
    auto bad = [&](const std::string &why) { fail_at(path, line, fmt::format("column {}: {}", c.name, why)); };
    if (v.empty()) {
        if (c.type == ColumnType::text || c.may_be_empty) return;
        bad("empty");
    }
    switch (c.type) {
        case ColumnType::key:
        case ColumnType::text:
        case ColumnType::decimal:
            return;
        case ColumnType::choice:
            if (std::find(c.choices.begin(), c.choices.end(), v) == c.choices.end())
                bad(fmt::format("'{}' is not {}", shown(v), alternatives(c.choices)));
            return;
        case ColumnType::count: {
            errno = 0;
            char *end = nullptr;
            std::strtoull(v.c_str(), &end, 10);
            if (!std::isdigit((unsigned char)v[0]) || end != v.c_str() + v.size() || errno == ERANGE)
                bad(fmt::format("'{}' is not a count", shown(v)));
            return;
        }
        case ColumnType::real:
        case ColumnType::nonneg: {
            auto x = parse_number(v);
            if (!x || (c.type == ColumnType::nonneg && std::isnan(*x)))
                bad(fmt::format("'{}' is not a number", shown(v)));
            if (c.type == ColumnType::nonneg && *x < 0) bad(fmt::format("'{}' is negative", shown(v)));
            return;
        }
        case ColumnType::hexfloat:
            parse_hexfloat(v, path, line, c.name.c_str(), true);
            return;
    }
}

}  // namespace

const Column *Schema::find(std::string_view name) const {
    for (const auto &c : columns)
        if (c.name == name) return &c;
    return nullptr;
}

std::string num(double x) {
    if (std::isnan(x)) return "nan";
    if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
    return fmt::format("{:.9g}", x);
}

std::string hexfloat(double x) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%a", x);
    return buf;
}

CsvWriter::CsvWriter(const Schema &schema) : schema_(schema) {
    for (size_t i = 0; i < schema.columns.size(); i++) text_ += (i ? "," : "") + schema.columns[i].name;
    text_ += '\n';
}

void CsvWriter::row(const std::vector<Cell> &cells) {
    if (cells.size() != schema_.columns.size())
        throw std::logic_error(
            fmt::format("{}: {} cells for {} columns", schema_.file, cells.size(), schema_.columns.size()));
    for (size_t i = 0; i < cells.size(); i++) {
        const Column &c = schema_.columns[i];
        auto wrong = [&] {
            return std::logic_error(fmt::format("{}: column {}: cell of the wrong type", schema_.file, c.name));
        };
        std::string v;
        if (std::holds_alternative<std::monostate>(cells[i])) {
            if (!c.may_be_empty && c.type != ColumnType::text) throw wrong();
        } else if (auto *s = std::get_if<std::string>(&cells[i])) {
            // numbers are handed over as doubles; text as written, and hexfloats already formatted (worst cases)
            if (c.type == ColumnType::count || c.type == ColumnType::real || c.type == ColumnType::nonneg)
                throw wrong();
            v = *s;
            // a choice the schema does not list would write a file the reader refuses
            if (c.type == ColumnType::choice && std::find(c.choices.begin(), c.choices.end(), v) == c.choices.end())
                throw std::logic_error(
                    fmt::format("{}: column {}: '{}' is not one of the schema's choices", schema_.file, c.name, v));
            if (v.find_first_of(",\"\n") != std::string::npos) {
                std::string q = "\"";
                for (char ch : v) q += ch == '"' ? std::string("\"\"") : std::string(1, ch);
                v = q + "\"";
            }
        } else if (auto *n = std::get_if<uint64_t>(&cells[i])) {
            if (c.type != ColumnType::count) throw wrong();
            v = std::to_string(*n);
        } else {
            double x = std::get<double>(cells[i]);
            if (c.type == ColumnType::hexfloat) v = hexfloat(x);
            else if (c.type != ColumnType::real && c.type != ColumnType::nonneg) throw wrong();
            else v = c.format.empty() ? num(x) : fmt::format(fmt::runtime(c.format), x);
        }
        text_ += (i ? "," : "") + v;
    }
    text_ += '\n';
}

size_t Table::field(std::string_view column) const {
    for (size_t i = 0; i < schema_->columns.size(); i++)
        if (schema_->columns[i].name == column) {
            if (index_[i] < 0) return size_t(-1);
            return size_t(index_[i]);
        }
    throw std::logic_error(fmt::format("{}: no column {} in the schema", schema_->file, column));
}

bool Table::has(std::string_view column) const { return field(column) != size_t(-1); }

const std::string &Table::text(size_t row, std::string_view column) const {
    static const std::string none;
    size_t f = field(column);
    return f == size_t(-1) ? none : rows_[row][f];
}

uint64_t Table::count(size_t row, std::string_view column) const { return std::stoull(text(row, column)); }

std::optional<double> Table::number(size_t row, std::string_view column) const {
    const std::string &s = text(row, column);
    if (s.empty()) return std::nullopt;
    if (schema_->find(column)->type == ColumnType::hexfloat) return std::strtod(s.c_str(), nullptr);
    return parse_number(s);
}

void Table::fail(size_t row, const std::string &why) const { fail_at(path_, lines_[row], why); }

namespace {
void (*table_read_check)() = nullptr;
}  // namespace

void set_table_read_check(void (*check)()) { table_read_check = check; }

Table read_table(const Schema &schema, const std::string &path, std::string_view text) {
    if (table_read_check) table_read_check();
    check_text(path, text);
    Table t;
    t.schema_ = &schema;
    t.path_ = path;
    io::LineReader lines(path, text.data(), text.data() + text.size());
    size_t pos = 0;  // where the next line starts in `text`
    unsigned line = 0;
    // The next line, NUL-terminated in fccp's buffer; nullptr at the end of the text.
    auto next_line = [&]() -> char * {
        char *l = nullptr;
        try {
            l = lines.next_line();
        } catch (const io::error::line_length_limit_exceeded &e) {
            fail_at(path, unsigned(e.file_line), "line longer than 2^24-1 bytes");
        }
        if (!l) return nullptr;
        line = lines.get_file_line();
        size_t len = std::strlen(l);  // no NUL inside: check_text refused them
        if (pos + len < text.size() && text[pos + len] == '\r')
            fail_at(path, line, "carriage return (CRLF line ends are not accepted)");
        pos += len + 1;
        return l;
    };
    std::vector<std::string> header = split_line(next_line(), path, 1);  // check_text: there is a first line
    for (size_t i = 0; i < header.size(); i++)
        for (size_t k = 0; k < i; k++)
            if (header[i] == header[k]) fail_at(path, 1, fmt::format("column '{}' appears twice", header[i]));
    for (const Column &c : schema.columns) {
        auto it = std::find(header.begin(), header.end(), c.name);
        if (it == header.end() && c.required) fail_at(path, 1, fmt::format("missing column '{}'", c.name));
        t.index_.push_back(it == header.end() ? -1 : int(it - header.begin()));
    }
    std::map<std::vector<std::string>, unsigned> seen;
    while (char *l = next_line()) {
        if (table_read_check && (line & 4095) == 0) table_read_check();
        std::vector<std::string> fields = split_line(l, path, line);
        if (fields.size() != header.size())
            fail_at(path, line, fmt::format("{} fields where the header has {}", fields.size(), header.size()));
        for (size_t i = 0; i < schema.columns.size(); i++)
            if (t.index_[i] >= 0) check_cell(schema.columns[i], fields[size_t(t.index_[i])], path, line);
        t.rows_.push_back(std::move(fields));
        t.lines_.push_back(line);
        if (schema.key.empty()) continue;
        std::vector<std::string> key;
        for (const auto &k : schema.key) key.push_back(t.text(t.size() - 1, k));
        auto [it, fresh] = seen.emplace(key, line);
        if (!fresh) {
            std::string names;
            for (const auto &k : key) names += (names.empty() ? "" : " ") + k;
            fail_at(path, line, fmt::format("second row for {} (the first is line {})", names, it->second));
        }
    }
    if (schema.rows_required && t.rows_.empty()) fail_at(path, 2, "no data rows");
    return t;
}

std::optional<std::string> read_text_file(const std::filesystem::path &path) {
    std::error_code ec;
    const auto st = std::filesystem::status(path, ec);
    if (ec || !std::filesystem::exists(st)) return std::nullopt;
    // Bounded: a regular file only (a folder, a FIFO or /dev/zero is refused before any read), at most
    // kMaxTextFile bytes, and never more than it held when opened.
    constexpr uintmax_t kMaxTextFile = uintmax_t(1) << 32;
    if (std::filesystem::is_directory(st)) throw InputError(fmt::format("{}: is a folder, not a file", path.string()));
    if (!std::filesystem::is_regular_file(st)) throw InputError(fmt::format("{}: not a regular file", path.string()));
    const uintmax_t size = std::filesystem::file_size(path, ec);
    if (ec) throw InputError(fmt::format("{}: cannot open: {}", path.string(), ec.message()));
    if (size > kMaxTextFile)
        throw InputError(fmt::format("{}: {} bytes, more than the 4 GiB a table may have", path.string(), size));
    std::ifstream in(path, std::ios::binary);
    if (!in) throw InputError(fmt::format("{}: cannot open: {}", path.string(), std::strerror(errno)));
    std::string data(size_t(size), '\0');
    in.read(data.data(), std::streamsize(size));
    data.resize(size_t(in.gcount()));
    return data;
}

Table read_table_file(const Schema &schema, const std::filesystem::path &path) {
    auto text = read_text_file(path);
    if (!text) throw InputError(fmt::format("{}: cannot open: {}", path.string(), std::strerror(ENOENT)));
    return read_table(schema, path.string(), *text);
}

double parse_hexfloat(std::string_view text, const std::string &file, unsigned line, const char *column,
                      bool allow_nonfinite) {
    std::string s(text);
    if (allow_nonfinite) {
        if (s == "nan" || s == "-nan") return std::nan("");
        if (s == "inf") return INFINITY;
        if (s == "-inf") return -INFINITY;
    }
    if (!is_hexfloat_syntax(s))
        fail_at(file, line, fmt::format("column {}: '{}' is not a hexfloat (e.g. 0x1.8p-3)", column, shown(s)));
    errno = 0;
    char *end = nullptr;
    double v = std::strtod(s.c_str(), &end);
    if (end != s.c_str() + s.size())
        fail_at(file, line, fmt::format("column {}: '{}' is not a hexfloat", column, shown(s)));
    if (errno == ERANGE && std::isinf(v))
        fail_at(file, line, fmt::format("column {}: '{}' overflows a double", column, shown(s)));
    // A hexfloat with more digits than a double holds, or below its range (underflow to a subnormal with
    // lost bits, or to zero), would be rounded silently: refuse it. The text is read again as a long double
    // (64-bit significand, wider exponent: exact for up to 16 significant hex digits, more are refused).
    size_t first = s.find_first_of("xX") + 1, p = s.find_first_of("pP");
    std::string digits;
    for (size_t i = first; i < p; i++)
        if (s[i] != '.') digits += s[i];
    digits.erase(0, std::min(digits.find_first_not_of('0'), digits.size()));
    while (!digits.empty() && digits.back() == '0') digits.pop_back();
    if (digits.size() > 16)
        fail_at(file, line,
                fmt::format("column {}: '{}' is not exact: more digits than a double holds", column, shown(s)));
    if (std::strtold(s.c_str(), nullptr) != static_cast<long double>(v))
        fail_at(
            file, line,
            fmt::format("column {}: '{}' is not exact: a double cannot hold it (too many digits or below its range)",
                        column, shown(s)));
    return v;
}

float parse_hexfloat_f32(std::string_view text, const std::string &file, unsigned line, const char *column,
                         bool allow_nonfinite) {
    double v = parse_hexfloat(text, file, line, column, allow_nonfinite);
    if (std::isnan(v)) return std::nanf("");
    float f = float(v);
    if (double(f) != v)
        fail_at(
            file, line,
            fmt::format("column {}: '{}' is not representable as a float (f32 implementation)", column, shown(text)));
    return f;
}

}  // namespace qc

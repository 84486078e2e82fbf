// Reading the tool's own CSVs back (replay, compare, merge) with the fast C++ CSV parser (libfccp).
// Every problem is reported as InputError "FILE:LINE: reason"; nothing is skipped silently.
#pragma once

#include "quatcheck/types.h"

#include <string>
#include <string_view>
#include <vector>

namespace qc {

// Parses a C hexfloat ("0x1.8p-3", "-0x0p+0"); with allow_nonfinite also "nan", "inf", "-inf".
// Throws InputError("FILE:LINE: column COL: ...") when the text is not exactly one such number.
double parse_hexfloat(std::string_view text, const std::string &file, unsigned line, const char *column,
                      bool allow_nonfinite = false);
// The same for a float: additionally the value must be exactly representable as a float.
float parse_hexfloat_f32(std::string_view text, const std::string &file, unsigned line, const char *column,
                         bool allow_nonfinite = false);

// One row of worst_cases.csv.
struct WorstCaseRow {
    unsigned line = 0;
    std::string impl, op, region;
    std::string q0[4], q1[4], t, out[4], ref[4];  // as written; parsed per the impl's precision
    double angle_err_rad = 0, ulp = 0, ulp1 = 0;
};

std::vector<WorstCaseRow> read_worst_cases(const std::string &path);

// Checks a file is non-empty valid UTF-8 text before parsing; throws InputError "FILE:LINE: reason".
void check_text_file(const std::string &path);

}  // namespace qc

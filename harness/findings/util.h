// Small helpers the three steps of `quatcheck findings` share (collect.cpp, group.cpp, render_*.cpp).
#pragma once

#include "findings/library.h"
#include "quatcheck/types.h"
#include "tables/table.h"

#include <array>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace qc::findings {

// The name NAMES ({value, name} pairs, one per enumerator) gives V; NONE when it lists no such value.
template <class E, std::size_t N>
constexpr const char *name_of(E v, const std::pair<E, const char *> (&names)[N], const char *none = "?") {
    for (const auto &[e, name] : names)
        if (e == v) return name;
    return none;
}

std::string_view embedded(std::string_view path);  // an embedded file's text (logic_error when absent)
bool is_embedded(std::string_view path);
// The suggested fix's file for a language (the qc-slerp port, or qc_slerp.h for C++).
const char *fix_port(Language l);
std::vector<std::string> words(const std::string &line);
std::vector<std::string> split(const std::string &s, char sep);
std::string replace_all(std::string s, const std::string &from, const std::string &to);
std::string family_of(const std::string &impl);  // the implementation name without .f32 / .f64
Precision precision_of(const std::string &impl);
// A folder name: anything but [A-Za-z0-9._+-] replaced (the tables are untrusted).
std::string folder_name(const std::string &name);
std::string indent(const std::string &text, const std::string &prefix);  // PREFIX before each line
std::array<std::string, 4> hex4(const double *q);
// a.b / (|a||b|) of two quaternions (NaN when one is zero or not finite).
double unit_dot(const std::array<double, 4> &a, const std::array<double, 4> &b);

}  // namespace qc::findings

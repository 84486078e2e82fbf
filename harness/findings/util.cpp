#include "findings/util.h"

#include "findings/embedded.h"

#include <fmt/format.h>

#include <cctype>
#include <cmath>
#include <sstream>
#include <stdexcept>

namespace qc::findings {

std::string_view embedded(std::string_view path) {
    for (const auto &f : embedded_files())
        if (f.path == path) return f.content;
    throw std::logic_error(fmt::format("findings: {} is not embedded", path));
}

bool is_embedded(std::string_view path) {
    for (const auto &f : embedded_files())
        if (f.path == path) return true;
    return false;
}

const char *fix_port(Language l) {
    static constexpr std::pair<Language, const char *> ports[] = {{Language::js, "impls/fixes/qc_slerp.mjs"},
                                                                  {Language::python, "impls/fixes/qc_slerp.py"},
                                                                  {Language::rust, "impls/fixes/qc_slerp.rs"},
                                                                  {Language::java, "impls/fixes/QcSlerp.java"},
                                                                  {Language::cpp, "impls/recommended/qc_slerp.h"}};
    return name_of(l, ports, "");
}

std::vector<std::string> words(const std::string &line) {
    std::istringstream in(line);
    std::vector<std::string> w;
    for (std::string x; in >> x;) w.push_back(x);
    return w;
}

std::vector<std::string> split(const std::string &s, char sep) {
    std::vector<std::string> out;
    std::string cur;
    for (char c : s) {
        if (c == sep) out.push_back(cur), cur.clear();
        else cur += c;
    }
    out.push_back(cur);
    return out;
}

std::string replace_all(std::string s, const std::string &from, const std::string &to) {
    for (size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
        s.replace(at, from.size(), to);
    return s;
}

std::string family_of(const std::string &impl) {
    auto dot = impl.rfind('.');
    return dot == std::string::npos ? impl : impl.substr(0, dot);
}

Precision precision_of(const std::string &impl) {
    return impl.size() > 4 && impl.compare(impl.size() - 4, 4, ".f32") == 0 ? Precision::f32 : Precision::f64;
}

std::string folder_name(const std::string &name) {
    std::string s;
    for (char c : name)
        s += (std::isalnum((unsigned char)c) || c == '-' || c == '_' || c == '+' || (c == '.' && !s.empty())) ? c : '_';
    return s.empty() ? "_" : s;
}

std::string indent(const std::string &text, const std::string &prefix) {
    std::string out;
    for (size_t at = 0; at < text.size();) {
        size_t end = text.find('\n', at);
        end = end == std::string::npos ? text.size() : end + 1;
        out += prefix + text.substr(at, end - at);
        at = end;
    }
    return out;
}

std::array<std::string, 4> hex4(const double *q) {
    return {hexfloat(q[0]), hexfloat(q[1]), hexfloat(q[2]), hexfloat(q[3])};
}

double unit_dot(const std::array<double, 4> &a, const std::array<double, 4> &b) {
    long double d = 0, na = 0, nb = 0;
    for (int i = 0; i < 4; i++)
        d += (long double)a[i] * b[i], na += (long double)a[i] * a[i], nb += (long double)b[i] * b[i];
    if (!(na > 0) || !(nb > 0)) return NAN;
    return double(d / std::sqrt(na * nb));
}

}  // namespace qc::findings

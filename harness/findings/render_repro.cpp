// Step 3 of `quatcheck findings` (findings.h), the reproducers: in the library's own API where the library has a
// card (library.h: its import, types, component order and calls), through the file quatcheck compiles otherwise
// (impls/*/repro.txt). Every value a template receives is quoted for its place there (tables/source_template.h):
// what comes from the report's tables is text; only the cards and repro.txt lines, compiled into the tool, and
// the cases' literals generated here from quoted parts are code.
#include "findings/render.h"

#include "findings/util.h"
#include "tables/quote.h"
#include "tables/source_template.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

namespace qc::findings {

namespace fs = std::filesystem;

namespace {

std::string cpp_cases(const std::vector<const ReproCase *> &cases) {
    std::string s;
    auto q = [](const std::array<double, 4> &v) {
        return fmt::format("{{{}, {}, {}, {}}}", hexfloat(v[0]), hexfloat(v[1]), hexfloat(v[2]), hexfloat(v[3]));
    };
    for (const ReproCase *c : cases)
        s +=
            fmt::format("    {{{}, {}, {}, {}, {}, {}, {}, {}, {}}},\n", c_literal(c->label), c_literal(c->op), c->bits,
                        q(c->q0), q(c->q1), hexfloat(c->t), q(c->expected), c_literal(c->check), hexfloat(c->tol));
    return s;
}

std::string bits_hex(double x) {
    uint64_t u;
    std::memcpy(&u, &x, 8);
    return fmt::format("'{:016x}'", u);
}

std::string js_cases(const std::vector<const ReproCase *> &cases) {
    std::string s;
    auto q = [](const std::array<double, 4> &v) {
        return fmt::format("q([{}, {}, {}, {}])", bits_hex(v[0]), bits_hex(v[1]), bits_hex(v[2]), bits_hex(v[3]));
    };
    for (const ReproCase *c : cases)
        s += fmt::format(
            "  {{ label: {}, op: {}, bits: {}, q0: {}, q1: {}, t: bits({}), expected: {}, check: {}, tol: bits({}) "
            "}},\n",
            js_literal(c->label), js_literal(c->op), c->bits, q(c->q0), q(c->q1), bits_hex(c->t), q(c->expected),
            js_literal(c->check), bits_hex(c->tol));
    return s;
}

std::string py_cases(const std::vector<const ReproCase *> &cases) {
    std::string s;
    auto q = [](const std::array<double, 4> &v) {
        return fmt::format("[h('{}'), h('{}'), h('{}'), h('{}')]", hexfloat(v[0]), hexfloat(v[1]), hexfloat(v[2]),
                           hexfloat(v[3]));
    };
    for (const ReproCase *c : cases)
        s += fmt::format(
            "    {{\"label\": {}, \"op\": {}, \"bits\": {}, \"q0\": {}, \"q1\": {}, \"t\": h('{}'), \"expected\": "
            "{}, \"check\": {}, \"tol\": h('{}')}},\n",
            py_literal(c->label), py_literal(c->op), c->bits, q(c->q0), q(c->q1), hexfloat(c->t), q(c->expected),
            py_literal(c->check), hexfloat(c->tol));
    return s;
}

std::string requires_lines(const ReproSpec &s) {
    std::string out;
    for (const auto &r : s.requires_) {
        auto colon = r.find(':');
        std::string kind = r.substr(0, colon), what = colon == std::string::npos ? "" : r.substr(colon + 1);
        const char *fn = kind == "pkg"      ? "need_pkg"
                         : kind == "header" ? "need_header"
                         : kind == "npm"    ? "need_npm"
                                            : "need_py";
        out += fmt::format("{} {}\n", fn, shell_quote(what));
    }
    return out;
}

// The reproducer files of one family (name -> content).
// The port of the suggested fix for LANG as fix/NAME, when this quatcheck has it embedded.
void add_fix_port(Language lang, std::map<std::string, std::string> &files) {
    if (is_embedded(fix_port(lang)))
        files[std::string("fix/") + fs::path(fix_port(lang)).filename().string()] =
            std::string(embedded(fix_port(lang)));
}

std::map<std::string, std::string> adapter_reproducer(const LibraryFindings &f) {
    std::map<std::string, std::string> files;
    std::vector<const ReproCase *> cases;
    for (const auto &cause : f.causes)
        for (const ReproCase *c : cause.cases()) cases.push_back(c);
    const std::string title =
        fmt::format("the quatcheck findings of {}{}", f.name, f.version.empty() ? "" : " (" + f.version + ")");
    if (!f.spec || cases.empty()) {
        files["repro.sh"] = fmt::format(
            "#!/bin/sh\n# {}: quatcheck has no standalone reproducer for this family ({}); README.md gives the "
            "quatcheck command.\n"
            "echo {}\nexit 77\n",
            comment_text(title),
            cases.empty() ? "no case to check"
                          : "no template: a plugin, or an implementation without a line in impls/*/repro.txt",
            shell_quote(fmt::format("SKIP: no standalone reproducer for {}: {}", f.name,
                                    cases.empty()
                                        ? "its findings have no case a reproducer can check (squad tracks: "
                                          "the README gives the quatcheck command)"
                                        : "no template for its language (replay it with the quatcheck command in "
                                          "README.md)")));
        return files;
    }
    const ReproSpec &s = *f.spec;
    const std::string source = fs::path(s.files.front()).filename().string();
    for (const auto &p : s.files) files["lib/" + fs::path(p).filename().string()] = std::string(embedded(p));
    // Every value a template receives is quoted for its place there (tables/source_template.h): the family
    // and the version come from the report's tables, which anyone may have written.
    auto without_last_newline = [](std::string x) {
        if (!x.empty() && x.back() == '\n') x.pop_back();
        return x;
    };
    std::string packages;
    for (const auto &r : s.requires_) packages += (packages.empty() ? "" : " ") + r.substr(r.find(':') + 1);
    // FLAGS: the build flags of impls/*/repro.txt, compiled into the tool (shell words repro.sh runs on purpose).
    auto fill = [&](const char *tmpl, const std::string &cases_text) {
        return fill_template(tmpl, embedded(tmpl),
                             {{"TITLE", TemplateText{title}},
                              {"SOURCE", TemplateText{source}},
                              {"FAMILY", TemplateText{f.name}},
                              {"REQUIRES", TemplateCode{without_last_newline(requires_lines(s))}},
                              {"FLAGS", TemplateCode{s.flags}},
                              {"MODULE", TemplateText{fs::path(source).stem().string()}},
                              {"FUNCTION", TemplateText{"slerp"}},
                              {"PACKAGES", TemplateText{packages}},
                              {"CASES", TemplateCode{without_last_newline(cases_text)}}});
    };
    const Language lang = s.language == "js" ? Language::js : s.language == "python" ? Language::python : Language::cpp;
    add_fix_port(lang, files);
    if (s.language == "cpp") {
        files["repro.cpp"] = fill("harness/findings/templates/repro.cpp.in", cpp_cases(cases));
        files["repro.sh"] = fill("harness/findings/templates/repro_cpp.sh.in", "");
        files["lib/quatcheck/plugin.h"] = std::string(embedded("harness/include/quatcheck/plugin.h"));
        files["lib/quatcheck/registry.h"] = std::string(embedded("harness/findings/templates/registry_stub.h"));
    } else if (s.language == "js") {
        files["repro.mjs"] = fill("harness/findings/templates/repro.mjs.in", js_cases(cases));
        files["repro.sh"] = fill("harness/findings/templates/repro_js.sh.in", "");
        files["lib/protocol.js"] = std::string(embedded("harness/findings/templates/protocol_stub.js"));
        files["lib/package.json"] = "{\"type\": \"commonjs\"}\n";
    } else {
        files["repro.py"] = fill("harness/findings/templates/repro.py.in", py_cases(cases));
        files["repro.sh"] = fill("harness/findings/templates/repro_py.sh.in", "");
    }
    return files;
}

// ---- reproducers in the library's own API (a library card, library.h) ----

std::string js_bits(double x) {
    uint64_t u;
    std::memcpy(&u, &x, 8);
    return fmt::format("'{:016x}'", u);
}
std::string rs_bits(double x) {
    uint64_t u;
    std::memcpy(&u, &x, 8);
    return fmt::format("0x{:016x}", u);
}
std::string java_bits(double x) {
    uint64_t u;
    std::memcpy(&u, &x, 8);
    return fmt::format("0x{:016x}L", u);
}
std::string dec17(double x) { return fmt::format("{:.17g}", x); }
std::string join4(const std::array<double, 4> &v, std::string (*f)(double)) {
    return fmt::format("{}, {}, {}, {}", f(v[0]), f(v[1]), f(v[2]), f(v[3]));
}
std::string hexf(double x) { return hexfloat(x); }
std::string py_hex(double x) { return fmt::format("h('{}')", hexfloat(x)); }

// One case of a library's reproducer, with its cause's number and whether that cause has a fix.
struct LibCase {
    const ReproCase *c;
    int cause;
    bool fix;
};

std::vector<LibCase> lib_cases(const LibraryFindings &l) {
    std::vector<LibCase> out;
    for (size_t k = 0; k < l.causes.size(); k++)
        for (const ReproCase *c : l.causes[k].cases()) out.push_back({c, int(k + 1), l.causes[k].fix.offered});
    return out;
}

bool has_precision(const Routine &r, int bits) {
    return r.precisions.empty() ||
           std::find(r.precisions.begin(), r.precisions.end(), bits == 32 ? "f32" : "f64") != r.precisions.end();
}

// Rust's type parameter: the card's snippets name the scalar type T, bound per precision by `type T = ...;`.
std::string rust_call_body(const Library &lib, const Routine &r, const char *type) {
    return fmt::format(
        "    type T = {};\n    let make = |w: T, x: T, y: T, z: T| {};\n"
        "    let a = make(q0[0] as T, q0[1] as T, q0[2] as T, q0[3] as T);\n"
        "    let b = make(q1[0] as T, q1[1] as T, q1[2] as T, q1[3] as T);\n    let t = t as T;\n"
        "    let r = {};\n    {}\n",
        type, lib.make, r.call, lib.read);
}

std::string lib_cases_code(const Library &lib, const std::vector<LibCase> &cases) {
    std::string s;
    for (const auto &[c, cause, fix] : cases) {
        const Routine *r = lib.routine(c->family, c->op);
        const std::string api = r ? r->api : c->family;
        switch (lib.language) {
            case Language::js:
                s += fmt::format(
                    "  {{ label: {}, family: {}, api: {}, op: {}, cause: {}, bits: {}, q0: q([{}]), q1: q([{}]), "
                    "t: bits({}), expected: q([{}]), check: {}, tol: bits({}), fix: {} }},\n",
                    js_literal(c->label), js_literal(c->family), js_literal(api), js_literal(c->op), cause, c->bits,
                    join4(c->q0, js_bits), join4(c->q1, js_bits), js_bits(c->t), join4(c->expected, js_bits),
                    js_literal(c->check), js_bits(c->tol), fix);
                break;
            case Language::cpp:
                s += fmt::format("    {{{}, {}, {}, {}, {}, {{{}}}, {{{}}}, {}, {{{}}}, {}, {}, {}}},\n",
                                 c_literal(c->label), c_literal(c->family), c_literal(c->op), cause, c->bits,
                                 join4(c->q0, hexf), join4(c->q1, hexf), hexf(c->t), join4(c->expected, hexf),
                                 c_literal(c->check), hexf(c->tol), fix);
                break;
            case Language::python:
                s += fmt::format(
                    "    {{\"label\": {}, \"family\": {}, \"api\": {}, \"op\": {}, \"cause\": {}, \"q0\": [{}], "
                    "\"q1\": [{}], \"t\": {}, \"expected\": [{}], \"check\": {}, \"tol\": {}, \"fix\": {}}},\n",
                    py_literal(c->label), py_literal(c->family), py_literal(api), py_literal(c->op), cause,
                    join4(c->q0, py_hex), join4(c->q1, py_hex), py_hex(c->t), join4(c->expected, py_hex),
                    py_literal(c->check), py_hex(c->tol), fix ? "True" : "False");
                break;
            case Language::rust:
                s += fmt::format(
                    "    Case {{ label: {}, family: {}, op: {}, cause: {}, bits: {}, q0: [{}], q1: [{}], t: {}, "
                    "expected: [{}], check: {}, tol: {}, fix: {} }},\n",
                    rs_literal(c->label), rs_literal(c->family), rs_literal(c->op), cause, c->bits,
                    join4(c->q0, rs_bits), join4(c->q1, rs_bits), rs_bits(c->t), join4(c->expected, rs_bits),
                    rs_literal(c->check), rs_bits(c->tol), fix);
                break;
            case Language::java:
                s += fmt::format(
                    "        new Case({}, {}, {}, {}, {}, new long[] {{{}}}, new long[] {{{}}}, {}, new long[] {{{}}}, "
                    "{}, {}, {}),\n",
                    java_literal(c->label), java_literal(c->family), java_literal(c->op), cause, c->bits,
                    join4(c->q0, java_bits), join4(c->q1, java_bits), java_bits(c->t), join4(c->expected, java_bits),
                    java_literal(c->check), java_bits(c->tol), fix);
                break;
        }
    }
    return s;
}

// Java's call of a card's routine in one precision: the card's helpers make the quaternions and return the result
// (library.h), the casts put the inputs in the precision's storage.
std::string java_call_body(const Library &lib, const Routine &r, const char *type) {
    return fmt::format(
        "        final var a = {0}(({1}) q0[0], ({1}) q0[1], ({1}) q0[2], ({1}) q0[3]);\n"
        "        final var b = {0}(({1}) q1[0], ({1}) q1[1], ({1}) q1[2], ({1}) q1[3]);\n"
        "        final {1} t = ({1}) tt;\n        final var r = {2};\n        return {3};\n",
        lib.make, type, r.call, lib.read);
}

// The routine table of a library's reproducer: one entry per family of the report (untrusted names, quoted)
// with the card's call (the project's own code).
std::pair<std::string, std::string> lib_routines_code(const LibraryFindings &l) {
    const Library &lib = *l.card;
    std::string functions, table;
    int k = 0;
    for (const auto &fam : l.families)
        for (const char *op : {"slerp", "nlerp"}) {
            const Routine *r = lib.routine(fam, op);
            if (!r) continue;
            k++;
            const std::string key = fam + " " + op;  // the cases' family and op
            switch (lib.language) {
                case Language::js:
                    table += fmt::format("  {}: (a, b, t) => {},\n", js_literal(key), r->call);
                    break;
                case Language::python:
                    table += fmt::format("    {}: lambda a, b, t: {},\n", py_literal(key), r->call);
                    break;
                case Language::cpp:
                    functions += fmt::format(
                        "template <class T> std::array<double, 4> call_{}(const double *q0, const double *q1, double "
                        "tt) {{\n"
                        "    const auto a = make<T>(T(q0[0]), T(q0[1]), T(q0[2]), T(q0[3]));\n"
                        "    const auto b = make<T>(T(q1[0]), T(q1[1]), T(q1[2]), T(q1[3]));\n"
                        "    const T t = T(tt);\n    const auto r = {};\n    return read(r);\n}}\n",
                        k, r->call);
                    table += fmt::format("    {{{}, {}, {}, {}}},\n", c_literal(key), c_literal(r->api),
                                         has_precision(*r, 32) ? fmt::format("call_{}<float>", k) : "nullptr",
                                         has_precision(*r, 64) ? fmt::format("call_{}<double>", k) : "nullptr");
                    break;
                case Language::rust:
                    for (const char *type : {"f32", "f64"})
                        if (has_precision(*r, type[1] == '3' ? 32 : 64))
                            functions += fmt::format(
                                "#[allow(unused_variables)]\nfn call_{}_{}(q0: [f64; 4], q1: [f64; 4], t: "
                                "f64) -> [f64; 4] {{\n{}}}\n",
                                k, type, rust_call_body(lib, *r, type));
                    table += fmt::format("    Routine {{ family: {}, api: {}, f32: {}, f64: {} }},\n", rs_literal(key),
                                         rs_literal(r->api),
                                         has_precision(*r, 32) ? fmt::format("Some(call_{}_f32)", k) : "None",
                                         has_precision(*r, 64) ? fmt::format("Some(call_{}_f64)", k) : "None");
                    break;
                case Language::java:
                    for (const char *type : {"float", "double"})
                        if (has_precision(*r, type[0] == 'f' ? 32 : 64))
                            functions += fmt::format(
                                "    static double[] call_{}_{}(double[] q0, double[] q1, double tt) {{\n{}    }}\n", k,
                                type[0] == 'f' ? "f32" : "f64", java_call_body(lib, *r, type));
                    table +=
                        fmt::format("        new Routine({}, {}, {}, {}),\n", java_literal(key), java_literal(r->api),
                                    has_precision(*r, 32) ? fmt::format("Repro::call_{}_f32", k) : "null",
                                    has_precision(*r, 64) ? fmt::format("Repro::call_{}_f64", k) : "null");
                    break;
            }
        }
    return {functions, table};
}

std::string prelude_code(const Library &lib) {
    std::string s;
    for (const auto &p : lib.prelude) s += p + "\n";
    if (!s.empty()) s.pop_back();
    return s;
}

// A Java card's helper methods, indented for a class body.
std::string helpers_code(const Library &lib) {
    std::string s;
    for (const auto &h : lib.helpers) s += "    " + h + "\n";
    if (!s.empty()) s.pop_back();
    return s;
}

const char *lang_key(Language l) {
    static constexpr std::pair<Language, const char *> keys[] = {{Language::js, "mjs"},
                                                                 {Language::cpp, "cpp"},
                                                                 {Language::python, "py"},
                                                                 {Language::rust, "rs"},
                                                                 {Language::java, "java"}};
    return name_of(l, keys);
}

// The failing cases of one cause, in a test to paste (17 significant digits in JavaScript, hexfloats in C++ and
// Python, bit patterns in Rust: each is the exact double).
std::string test_cases_code(const Library &lib, const Cause &cause) {
    std::string s;
    for (const ReproCase *c : cause.cases()) {
        const bool f32 = c->bits == 32;
        switch (lib.language) {
            case Language::js:
                s += fmt::format(
                    "  {{ what: {}, f32: {}, q0: [{}], q1: [{}], t: {}, expected: [{}], check: {}, tol: {} }},\n",
                    js_literal(c->label), f32, join4(c->q0, dec17), join4(c->q1, dec17), dec17(c->t),
                    join4(c->expected, dec17), js_literal(c->check), dec17(c->tol));
                break;
            case Language::cpp:
                s += fmt::format("    {{{}, {}, {{{}}}, {{{}}}, {}, {{{}}}, {}, {}}},\n", c_literal(c->label), f32,
                                 join4(c->q0, hexf), join4(c->q1, hexf), hexf(c->t), join4(c->expected, hexf),
                                 c_literal(c->check), hexf(c->tol));
                break;
            case Language::python:
                s += fmt::format(
                    "    {{\"what\": {}, \"q0\": [{}], \"q1\": [{}], \"t\": {}, \"expected\": [{}], \"check\": {}, "
                    "\"tol\": {}}},\n",
                    py_literal(c->label), join4(c->q0, py_hex), join4(c->q1, py_hex), py_hex(c->t),
                    join4(c->expected, py_hex), py_literal(c->check), py_hex(c->tol));
                break;
            case Language::rust:
                s += fmt::format("        ({}, {}, [{}], [{}], {}, [{}], {}, {}),\n", rs_literal(c->label), f32,
                                 join4(c->q0, rs_bits), join4(c->q1, rs_bits), rs_bits(c->t),
                                 join4(c->expected, rs_bits), rs_literal(c->check), rs_bits(c->tol));
                break;
            case Language::java:
                s += fmt::format(
                    "        new Case({}, {}, new long[] {{{}}}, new long[] {{{}}}, {}, new long[] {{{}}}, {}, {}),\n",
                    java_literal(c->label), f32, join4(c->q0, java_bits), join4(c->q1, java_bits), java_bits(c->t),
                    join4(c->expected, java_bits), java_literal(c->check), java_bits(c->tol));
                break;
        }
    }
    return s;
}

std::string tolerance_words(const Cause &cause) {
    const Finding &f = cause.findings.front();
    if (f.nonfinite) return "none needed: every output must be finite (a NaN or inf fails whatever the bound).";
    if (f.kind == Kind::region)
        return fmt::format(
            "{} rad = {} x the rounding floor 8 eps of the format (quatcheck findings --factor): "
            "two decades above the last bits, where careful routines stay.",
            num(f.tolerance), num(f.tolerance / (precision_of(f.impl) == Precision::f32 ? 0x1p-20 : 0x1p-49)));
    return "each call's budget of docs/conformance.md: the angle budget A(W) of the arc for angles, 16 eps for "
           "norms and endpoints.";
}

// The C++ test's call of its routine: in the precisions its cases use only (a library may not compile in the
// other, as OpenCV's slerp in float).
std::string dispatch(const Cause &cause) {
    bool f32 = false, f64 = false;
    for (const ReproCase *c : cause.cases()) (c->bits == 32 ? f32 : f64) = true;
    if (f32 && f64) return "c.f32 ? routine<float>(c.q0, c.q1, c.t) : routine<double>(c.q0, c.q1, c.t)";
    return f32 ? "routine<float>(c.q0, c.q1, c.t)" : "routine<double>(c.q0, c.q1, c.t)";
}

// The paste-in test of cause K (1-based) and, when the cause has a fix, the routine block that replaces the
// library's in the test's fixed copy (repro.sh --tests).
void lib_tests(const LibraryFindings &l, const Cause &cause, int k, std::map<std::string, std::string> &files) {
    const Library &lib = *l.card;
    const Routine *r = lib.routine(cause.routine_family, cause.routine_op);
    if (!r || cause.cases().empty()) return;
    const std::string op = cause.findings.front().op;
    const std::string title = fmt::format("quatcheck finding, {} cause {}: {}", lib.name, k, cause.title);
    const std::string test_name = fmt::format("{}: {}", lib.name, cause.title);
    std::map<std::string, TemplateValue> v = {
        {"TITLE", TemplateText{title}},
        {"TOLERANCE", TemplateText{tolerance_words(cause)}},
        {"PRELUDE", TemplateCode{prelude_code(lib)}},
        {"MAKE", TemplateCode{lib.make}},
        {"MAKE_F32", TemplateCode{lib.make_f32.empty() ? lib.make : lib.make_f32}},
        {"READ", TemplateCode{lib.read}},
        {"CALL", TemplateCode{r->call}},
        {"CASES", TemplateCode{test_cases_code(lib, cause)}},
        {"TEST_NAME", TemplateText{test_name}},
        {"TEST_FUNCTION", TemplateText{fmt::format("test_cause_{}", k)}},
        {"OP", TemplateText{op}},
        {"NLERP", TemplateText{op}},
        {"DISPATCH", TemplateCode{dispatch(cause)}},
    };
    if (lib.language == Language::rust)
        v["TEST_ROUTINE"] = TemplateCode{fmt::format(
            "fn routine(q0: [f64; 4], q1: [f64; 4], t: f64, f32: bool) -> [f64; 4] {{\n"
            "    #[allow(unused_variables)]\n    fn f32_(q0: [f64; 4], q1: [f64; 4], t: f64) -> [f64; 4] {{\n{}    }}\n"
            "    #[allow(unused_variables)]\n    fn f64_(q0: [f64; 4], q1: [f64; 4], t: f64) -> [f64; 4] {{\n{}    }}\n"
            "    if f32 {{ f32_(q0, q1, t) }} else {{ f64_(q0, q1, t) }}\n}}",
            indent(rust_call_body(lib, *r, "f32"), "    "), indent(rust_call_body(lib, *r, "f64"), "    "))};
    if (lib.language == Language::java) {
        v["HELPERS"] = TemplateCode{helpers_code(lib)};
        v["TEST_CLASS"] = TemplateText{fmt::format("Cause{}Test", k)};
        v["TEST_ROUTINE"] = TemplateCode{fmt::format(
            "    static double[] routine(double[] q0, double[] q1, double tt, boolean f32) {{\n        if (f32) {{\n"
            "{}        }} else {{\n{}        }}\n    }}",
            indent(java_call_body(lib, *r, "float"), "    "), indent(java_call_body(lib, *r, "double"), "    "))};
    }
    const std::string ext = lang_key(lib.language);
    const std::string name = lib.language == Language::java     ? fmt::format("tests/Cause{}Test.java", k)
                             : lib.language == Language::rust   ? fmt::format("rust/tests/cause_{}.rs", k)
                             : lib.language == Language::python ? fmt::format("tests/test_cause_{}.py", k)
                             : lib.language == Language::js     ? fmt::format("tests/cause-{}.test.mjs", k)
                                                                : fmt::format("tests/cause-{}.test.cpp", k);
    const std::string tmpl = fmt::format("harness/findings/templates/lib_test.{}.in", ext);
    files[name] = fill_template(tmpl, embedded(tmpl), v);
    if (cause.fix.offered) {
        const std::string fix_tmpl = fmt::format("harness/findings/templates/lib_fix_routine.{}.in", ext);
        files[fmt::format("fix/cause-{}.routine.{}", k, ext)] = fill_template(fix_tmpl, embedded(fix_tmpl), v);
    }
}

// The repro.sh lines that check the library is installed (the card's package), in the language's runner.
std::string need_lines(const Library &lib) {
    switch (lib.language) {
        case Language::js:  // no package: a library the system ships (Debian libjs-*), which its prelude checks
            return lib.package.empty() ? "" : fmt::format("need_npm {}", shell_quote(lib.package));
        case Language::python:
            return fmt::format("need_py {}", shell_quote(lib.package));
        case Language::cpp:
            return lib.package.empty() ? "" : fmt::format("need_pkg {}", shell_quote(lib.package));
        case Language::rust:
            return fmt::format("need_crate {}", shell_quote(lib.package));
        case Language::java:
            return fmt::format("need_classes {}", shell_quote(lib.package));
    }
    return "";
}

std::map<std::string, std::string> card_reproducer(const LibraryFindings &l) {
    const Library &lib = *l.card;
    std::map<std::string, std::string> files;
    const auto cases = lib_cases(l);
    const auto [functions, table] = lib_routines_code(l);
    const std::string title =
        fmt::format("the quatcheck findings of {}{}", l.name, l.version.empty() ? "" : " (" + l.version + ")");
    std::map<std::string, TemplateValue> v = {
        {"TITLE", TemplateText{title}},
        {"LIBRARY", TemplateText{l.name}},
        {"ORDER", TemplateText{lib.order}},
        {"PACKAGE", TemplateText{lib.package}},
        {"PRELUDE", TemplateCode{prelude_code(lib)}},
        {"MAKE", TemplateCode{lib.make}},
        {"MAKE_F32", TemplateCode{lib.make_f32.empty() ? lib.make : lib.make_f32}},
        {"READ", TemplateCode{lib.read}},
        {"ROUTINE_FUNCTIONS", TemplateCode{functions}},
        {"ROUTINES", TemplateCode{table}},
        {"CASES", TemplateCode{lib_cases_code(lib, cases)}},
        {"NEEDS", TemplateCode{need_lines(lib)}},
        {"FLAGS", TemplateCode{lib.build}},
        {"HELPERS", TemplateCode{helpers_code(lib)}},
    };
    const std::string ext = lang_key(lib.language);
    const std::string main = lib.language == Language::rust   ? "rust/src/main.rs"
                             : lib.language == Language::java ? "Repro.java"
                                                              : "repro." + ext;
    const std::string tmpl = fmt::format("harness/findings/templates/lib_repro.{}.in", ext);
    files[main] = fill_template(tmpl, embedded(tmpl), v);
    const std::string sh = fmt::format("harness/findings/templates/lib_repro_{}.sh.in", ext);
    files["repro.sh"] = fill_template(sh, embedded(sh), v);
    for (size_t k = 0; k < l.causes.size(); k++) lib_tests(l, l.causes[k], int(k + 1), files);
    add_fix_port(lib.language, files);  // even when no cause has a fix: the C++ reproducer includes it
    if (lib.language == Language::rust)
        files["rust/Cargo.toml"] = fmt::format(
            "# The reproducer and the tests to paste of {}, as a cargo project (repro.sh builds it offline against\n"
            "# Debian's packaged crates when they are installed).\n[package]\nname = \"qc-repro\"\nversion = "
            "\"0.0.0\"\n"
            "edition = \"2018\"\npublish = false\n\n[dependencies]\n{}\n",
            comment_text(l.name), lib.build);
    return files;
}

}  // namespace

std::map<std::string, std::string> reproducer(const LibraryFindings &l) {
    bool any_case = false;
    for (const auto &c : l.causes) any_case = any_case || !c.cases().empty();
    // No two-key case (squad findings only): the adapter's route, whose repro.sh says SKIP (exit 77).
    return l.card && any_case ? card_reproducer(l) : adapter_reproducer(l);
}

}  // namespace qc::findings

// The hello of a process plugin, parsed one record at a time: each record keyword has its own parser, listed in
// kRecords (docs/plugin-protocol.md "The hello").
#include "isolate/process_hello.h"

#include "isolate/text_wire.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <optional>

namespace qc {

namespace {

constexpr WireOp kWireOps[] = {
    {EvalFn::slerp, 0, "slerp", 1, 9, {0, 1, 2, 3, 4, 5, 6, 7, 16}},
    {EvalFn::nlerp, 1, "nlerp", 1, 9, {0, 1, 2, 3, 4, 5, 6, 7, 16}},
    {EvalFn::slerp_tau, 2, "slerp_tau", 2, 10, {0, 1, 2, 3, 4, 5, 6, 7, 16, kEvalTauIndex}},
    {EvalFn::squad, 3, "squad", 3, 17, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}},
    {EvalFn::squad_setup, 4, "squad_setup", 3, 12, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}},
};

bool name_chars(const std::string &s, size_t max, const char *extra) {
    if (s.empty() || s.size() > max) return false;
    for (char c : s) {
        bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || std::strchr(extra, c);
        if (!ok || c == '\0') return false;
    }
    return true;
}

// One record line: its words, its text, its place (the line number, counted from 1) and what the records before
// it declared.
struct Line {
    std::vector<std::string> w;
    const std::string &text;
    size_t number;
    std::string where() const { return fmt::format("hello line {}", number); }
};

ProcessHello::Family *family_named(ProcessHello &h, const std::string &name) {
    auto f = std::find_if(h.families.begin(), h.families.end(), [&](const auto &x) { return x.name == name; });
    return f == h.families.end() ? nullptr : &*f;
}

std::string library_record(const Line &l, ProcessHello &h) {
    if (l.number != 2) return l.where() + ": 'library' must be the second line, once";
    if (l.w.size() != 3) return l.where() + ": expected 'library NAME VERSION'";
    if (!name_chars(l.w[1], 64, "@/._-")) return l.where() + ": library name is not [A-Za-z0-9@/._-]{1,64}";
    if (!name_chars(l.w[2], 64, "._+-")) return l.where() + ": library version is not [A-Za-z0-9._+-]{1,64}";
    h.library = l.w[1], h.version = l.w[2];
    return {};
}

std::string wire_record(const Line &l, ProcessHello &h) {
    if (l.number != 3) return l.where() + ": 'wire' must be the third line, once";
    if (l.w.size() != 2 || (l.w[1] != "binary" && l.w[1] != "text"))
        return l.where() + ": expected 'wire binary' or 'wire text'";
    h.text = l.w[1] == "text";
    return {};
}

// A deviation the library documents: `known FAMILY OP PROPERTY WHY...` (conform's verdict "known").
std::string known_record(const Line &l, ProcessHello &h) {
    if (l.w.size() < 5) return l.where() + ": expected 'known FAMILY OP PROPERTY WHY...'";
    ProcessHello::Family *f = family_named(h, l.w[1]);
    if (!f) return fmt::format("{}: 'known' names family '{}', not declared above it", l.where(), l.w[1].substr(0, 64));
    if (l.w[2] != "*" && !parse_op(l.w[2])) return l.where() + ": the op of 'known' is not slerp, nlerp, squad or *";
    if (!name_chars(l.w[3], 64, "-")) return l.where() + ": the property of 'known' is not [A-Za-z0-9-]{1,64}";
    const size_t why = l.text.find(' ', l.text.find(' ', l.text.find(' ', 6) + 1) + 1) + 1;
    f->known.push_back(KnownDeviation{l.w[2], l.w[3], l.text.substr(why)});
    return {};
}

// A figure or behaviour the library documents: `claim FAMILY OP KIND VALUE WHY...` (registry.h's Claim: kinds
// accuracy VALUE > 0, threshold 0 < VALUE < 1, t-clamp VALUE 0), held to conform's claimed-KIND property.
std::string claim_record(const Line &l, ProcessHello &h) {
    if (l.w.size() < 6) return l.where() + ": expected 'claim FAMILY OP KIND VALUE WHY...'";
    ProcessHello::Family *f = family_named(h, l.w[1]);
    if (!f) return fmt::format("{}: 'claim' names family '{}', not declared above it", l.where(), l.w[1].substr(0, 64));
    if (l.w[2] != "*" && l.w[2] != "slerp" && l.w[2] != "nlerp")
        return l.where() + ": the op of 'claim' is not slerp, nlerp or *";
    const std::string &kind = l.w[3], &text = l.w[4];
    if (kind != "accuracy" && kind != "threshold" && kind != "t-clamp")
        return l.where() + ": the kind of 'claim' is not accuracy, threshold or t-clamp";
    double v = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(v))
        return fmt::format("{}: the value of 'claim' is not a decimal number: '{}'", l.where(), text.substr(0, 64));
    const bool ok = kind == "accuracy" ? v > 0 : kind == "threshold" ? v > 0 && v < 1 : v == 0;
    if (!ok)
        return fmt::format("{}: a '{}' claim needs {}, not {}", l.where(), kind,
                           kind == "accuracy"    ? "a value above 0"
                           : kind == "threshold" ? "0 < value < 1"
                                                 : "value 0",
                           text);
    size_t why = 0;  // after the fifth word (words are separated by one space)
    for (int k = 0; k < 5; k++) why = l.text.find(' ', why) + 1;
    f->claims.push_back(Claim{l.w[2], kind, v, l.text.substr(why)});
    return {};
}

// `squad-controls FAMILY neighbours|caller`: where a squad without squad_setup gets its a and b.
std::string squad_controls_record(const Line &l, ProcessHello &h) {
    if (l.w.size() != 3 || (l.w[2] != "neighbours" && l.w[2] != "caller"))
        return l.where() + ": expected 'squad-controls FAMILY neighbours' or 'squad-controls FAMILY caller'";
    ProcessHello::Family *f = family_named(h, l.w[1]);
    if (!f)
        return fmt::format("{}: 'squad-controls' names family '{}', not declared above it", l.where(),
                           l.w[1].substr(0, 64));
    const bool squad = f->has(EvalFn::squad, Precision::f32) || f->has(EvalFn::squad, Precision::f64);
    const bool setup = f->has(EvalFn::squad_setup, Precision::f32) || f->has(EvalFn::squad_setup, Precision::f64);
    if (!squad || setup || f->squad_controls != SquadControls::setup)
        return fmt::format("{}: 'squad-controls' is for a family with squad and without squad_setup, once", l.where());
    f->squad_controls = l.w[2] == "neighbours" ? SquadControls::neighbours : SquadControls::caller;
    return {};
}

// One OP.PRECISION word of a family line into f.functions.
std::string family_function(const Line &l, const std::string &s, int protocol, ProcessHello::Family &f) {
    const size_t dot = s.rfind('.');
    const WireOp *op = dot == std::string::npos ? nullptr : wire_op(std::string_view(s).substr(0, dot));
    const std::string suffix = dot == std::string::npos ? "" : s.substr(dot + 1);
    const std::optional<Precision> p = suffix == "f32"   ? std::optional(Precision::f32)
                                       : suffix == "f64" ? std::optional(Precision::f64)
                                                         : std::nullopt;
    if (!op || !p)
        return fmt::format(
            "{}: '{}' is not OP.f32 or OP.f64 with OP one of slerp, nlerp, slerp_tau, squad, squad_setup", l.where(),
            s.substr(0, 40));
    if (op->protocol > protocol)
        return fmt::format("{}: '{}' needs 'quatcheck-plugin {}'", l.where(), s.substr(0, 40), op->protocol);
    if (f.has(op->fn, *p)) return fmt::format("{}: '{}' is listed twice", l.where(), s);
    f.functions |= function_bit(op->fn, *p);
    return {};
}

std::string family_record(const Line &l, ProcessHello &h) {
    if (h.library.empty()) return l.where() + ": 'family' before 'library'";
    if (l.w.size() < 3) return l.where() + ": expected 'family NAME OP.PRECISION...'";
    if (!name_chars(l.w[1], 64, "_-")) return l.where() + ": family name is not [A-Za-z0-9_-]{1,64}";
    if (family_named(h, l.w[1])) return fmt::format("{}: family '{}' is declared twice", l.where(), l.w[1]);
    if (h.families.size() >= kProcessMaxFamilies)
        return fmt::format("{}: more than {} families", l.where(), kProcessMaxFamilies);
    ProcessHello::Family f;
    f.name = l.w[1];
    for (size_t t = 2; t < l.w.size(); t++)
        if (std::string e = family_function(l, l.w[t], h.protocol, f); !e.empty()) return e;
    for (Precision p : {Precision::f32, Precision::f64}) {
        if (f.has(EvalFn::slerp_tau, p) && !f.has(EvalFn::slerp, p))
            return fmt::format("{}: slerp_tau.{} without slerp.{}", l.where(), to_string(p), to_string(p));
        if (f.has(EvalFn::squad_setup, p) && !f.has(EvalFn::squad, p))
            return fmt::format("{}: squad_setup.{} without squad.{}", l.where(), to_string(p), to_string(p));
    }
    h.families.push_back(f);
    return {};
}

struct Record {
    const char *name;
    std::string (*parse)(const Line &, ProcessHello &);
};
constexpr Record kRecords[] = {{"library", library_record}, {"wire", wire_record},
                               {"family", family_record},   {"known", known_record},
                               {"claim", claim_record},     {"squad-controls", squad_controls_record}};

// The hello's lines, each checked for length and printable ASCII; an error message, or empty.
std::string hello_lines(const std::string &text, std::vector<std::string> &lines) {
    if (text.size() > kProcessHelloMaxBytes) return fmt::format("hello longer than {} bytes", kProcessHelloMaxBytes);
    for (size_t i = 0; i < text.size();) {
        size_t j = text.find('\n', i);
        if (j == std::string::npos) return "hello does not end with a newline";
        lines.push_back(text.substr(i, j - i));
        i = j + 1;
    }
    for (size_t k = 0; k < lines.size(); k++) {
        const std::string &l = lines[k];
        if (l.size() > 512) return fmt::format("hello line {} is longer than 512 bytes", k + 1);
        for (char c : l)
            if (c < 0x20 || c > 0x7e) return fmt::format("hello line {} has a byte that is not printable ASCII", k + 1);
    }
    if (lines.empty() || lines[0].rfind("quatcheck-plugin ", 0) != 0)
        return "hello does not start with 'quatcheck-plugin VERSION' (is this a quatcheck adapter?)";
    if (lines[0] != "quatcheck-plugin 1" && lines[0] != "quatcheck-plugin 2" && lines[0] != "quatcheck-plugin 3")
        return fmt::format("protocol '{}' is not supported (this quatcheck speaks 'quatcheck-plugin 1', '2' and '3')",
                           lines[0].substr(0, 40));
    if (lines.back() != "end") return "hello does not end with an 'end' line";
    return {};
}

}  // namespace

const WireOp *wire_op(EvalFn fn) {
    for (const auto &w : kWireOps)
        if (w.fn == fn) return &w;
    return nullptr;
}

const WireOp *wire_op(std::string_view name) {
    for (const auto &w : kWireOps)
        if (name == w.name) return &w;
    return nullptr;
}

unsigned function_bit(EvalFn fn, Precision p) {
    const bool f32 = p == Precision::f32;
    switch (fn) {
        case EvalFn::slerp:
            return f32 ? kSlerpF32 : kSlerpF64;
        case EvalFn::nlerp:
            return f32 ? kNlerpF32 : kNlerpF64;
        case EvalFn::squad:
            return f32 ? kSquadF32 : kSquadF64;
        case EvalFn::squad_setup:
            return f32 ? kSquadSetupF32 : kSquadSetupF64;
        case EvalFn::slerp_tau:
            return f32 ? kSlerpTauF32 : kSlerpTauF64;
    }
    return 0;
}

std::string parse_process_hello(const std::string &text, ProcessHello &out) {
    out = ProcessHello{};
    std::vector<std::string> lines;
    if (std::string e = hello_lines(text, lines); !e.empty()) return e;
    out.protocol = lines[0][17] - '0';
    for (size_t k = 1; k + 1 < lines.size(); k++) {
        const Line line{split_words(lines[k]), lines[k], k + 1};
        const Record *r = std::find_if(std::begin(kRecords), std::end(kRecords),
                                       [&](const Record &x) { return line.w[0] == x.name; });
        if (r == std::end(kRecords))
            return fmt::format(
                "{}: unknown record '{}' (expected library, wire, family, known, claim, squad-controls or end)",
                line.where(), line.w[0].substr(0, 40));
        if (std::string e = r->parse(line, out); !e.empty()) return e;
    }
    if (out.library.empty()) return "hello has no 'library NAME VERSION' line";
    if (out.families.empty()) return "hello declares no family";
    for (const auto &f : out.families)
        for (Precision p : {Precision::f32, Precision::f64})
            if (f.has(EvalFn::squad, p) && !f.has(EvalFn::squad_setup, p) && f.squad_controls == SquadControls::setup)
                return fmt::format(
                    "family '{}': squad.{} needs squad_setup.{} or a 'squad-controls {} neighbours|caller' line",
                    f.name, to_string(p), to_string(p), f.name);
    return {};
}

}  // namespace qc

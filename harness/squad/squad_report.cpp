#include "squad/squad_report.h"

#include "tables/schemas.h"
#include "tables/quote.h"

#include <fmt/format.h>

namespace qc {

std::string squad_summary_csv(const SquadResult &r) {
    CsvWriter w(tables::squad_summary);
    for (const auto &row : r.rows)
        w.row({row.impl->name, std::string("squad"), std::string(to_string(row.region)), row.tracks, row.cases,
               row.nonfinite, row.max_angle_err_own_rad, row.p99_angle_err_own_rad, row.max_angle_err_refcp_rad,
               row.p99_angle_err_refcp_rad, row.max_c1_jump_impl, row.max_c1_jump_ref, row.c1_keys, row.c1_failures});
    return w.text();
}

namespace {
std::string keys_text(const KeyTrack &keys) {
    std::string s;
    for (size_t i = 0; i < keys.size(); i++) {
        if (i) s += ';';
        s += fmt::format("{} {} {} {}", hexfloat(keys[i][0]), hexfloat(keys[i][1]), hexfloat(keys[i][2]),
                         hexfloat(keys[i][3]));
    }
    return s;
}

std::string reproduce(const SquadResult &r, const Impl *impl, TrackRegion region, uint64_t track) {
    std::vector<std::string> argv = {"quatcheck", "squad",
                                     "--impl",    impl->name,
                                     "--region",  to_string(region),
                                     "--track",   std::to_string(track),
                                     "--seed",    std::to_string(r.options.seed)};
    if (impl->origin != "builtin") {  // a shared library or a process plugin: the words that load it again
        auto it = r.options.plugin_words.find(impl->origin);
        if (it != r.options.plugin_words.end()) argv.insert(argv.end(), it->second.begin(), it->second.end());
        else argv.insert(argv.end(), {"--plugin", impl->origin});
    }
    return shell_join(argv);
}

std::string hex_list(const double *v, size_t n) {
    std::string s;
    for (size_t i = 0; i < n; i++) s += fmt::format("{}{}", i ? "," : "", hexfloat(v[i]));
    return s;
}

// The failed_call and calls cells of a c1 row (the format of conformance.csv's calls column): the two sides of
// the worst key, each held to half the tolerance (the jump is at most the sum of the sides' errors).
std::pair<std::string, std::string> c1_calls(const SquadResult &r, const Impl *impl, const SquadRow &worst) {
    const SquadKeyDetail d = squad_key_detail(r.options, *impl, worst.region, worst.worst_c1_track, worst.worst_c1_key);
    if (!d.found) return {};
    const double tol = c1_tolerance(impl->precision) / 2;
    std::string failed, calls;
    for (auto [name, side] : {std::pair{"left", &d.left}, std::pair{"right", &d.right}}) {
        const std::string label = fmt::format("{}(segment={},t={})", name, side->segment, side->t);
        const bool fail = !(side->err <= tol);
        if (fail) failed += fmt::format("{}{}", failed.empty() ? "" : " ", label);
        calls +=
            fmt::format("{}call={} t={} out={} expected={} omega={} omega_ref={} err={} tol={} unit=rel verdict={}",
                        calls.empty() ? "" : "; ", label, hexfloat(side->t), hex_list(side->out.data(), 4),
                        hex_list(side->expected.data(), 4), hex_list(side->omega.data(), 3),
                        hex_list(side->omega_ref.data(), 3), num(side->err), num(tol), fail ? "fail" : "pass");
    }
    return {failed, calls};
}
}  // namespace

std::string squad_worst_cases_csv(const SquadResult &r) {
    CsvWriter out(tables::squad_worst_cases);
    for (const auto &row : r.rows)
        for (const auto &w : row.worst)
            out.row({row.impl->name, std::string("squad"), std::string(to_string(row.region)), w.track,
                     uint64_t(w.segment), w.t, w.angle_err_rad, w.angle_err_refcp_rad, w.out[0], w.out[1], w.out[2],
                     w.out[3], keys_text(w.keys), reproduce(r, row.impl, row.region, w.track)});
    return out.text();
}

std::string c1_verdict(const SquadResult &r, const Impl *impl, const std::string &property) {
    uint64_t keys = 0, failures = 0;
    for (const auto &row : r.rows)
        if (row.impl == impl && property == c1_property(row.region)) keys += row.c1_keys, failures += row.c1_failures;
    if (keys == 0) return "untested";
    if (failures == 0) return "pass";
    return impl->known_deviation(Op::squad, property) ? "known" : "fail";
}

std::string squad_conformance_csv(const SquadResult &r) {
    CsvWriter w(tables::squad_conformance);
    for (const Impl *impl : r.selected)
        for (const std::string property : {"c1", "c1-sign-flip"}) {
            uint64_t keys = 0;
            bool any = false;
            const SquadRow *worst = nullptr;
            for (const auto &row : r.rows) {
                if (row.impl != impl || property != c1_property(row.region)) continue;
                any = true;
                keys += row.c1_keys;
                if (row.c1_keys && (!worst || !(row.worst_judged_c1 <= worst->worst_judged_c1))) worst = &row;
            }
            if (!any) continue;  // no region of this property was run
            std::string counterexample, repro;
            std::pair<std::string, std::string> calls;
            std::string verdict = c1_verdict(r, impl, property);
            if (worst && verdict != "pass") {
                counterexample = fmt::format("region={} track={} key={} jump={}", to_string(worst->region),
                                             worst->worst_c1_track, worst->worst_c1_key, num(worst->worst_judged_c1));
                repro = reproduce(r, impl, worst->region, worst->worst_c1_track);
                calls = c1_calls(r, impl, *worst);
            }
            w.row({impl->name, std::string("squad"), property, verdict, keys, num(c1_tolerance(impl->precision)),
                   worst ? worst->worst_judged_c1 : 0.0, counterexample, repro, calls.first, calls.second});
        }
    return w.text();
}

}  // namespace qc

// The runner end to end: determinism across runs and thread counts, selection, and the CSVs' shape.
#include "tables/rows.h"
#include "report/run_report.h"
#include "run/runner.h"
#include "plugins/select.h"
#include "metrics/comparison.h"
#include "metrics/metrics.h"
#include "pipeline/pipeline.h"
#include "reference/reference.h"
#include "search/search.h"
#include "tables/table.h"

#include "squad/squad_run.h"
#include <gtest/gtest.h>

#include <set>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

using namespace qc;

namespace {
RunOptions small(int jobs) {
    RunOptions o;
    o.impl_filters = {"seed-c", "nlerp", "lusine"};
    o.cases = 300;
    o.seed = 7;
    o.jobs = jobs;
    return o;
}
// Issue 38 item 1: every maximum summary.csv prints has its case in worst_cases.csv (the `attains` column), and
// that case, re-measured, scores the printed figure. Negative control: the worst case by angle does not score
// max_ulp1 on every row (the figure would otherwise have had its case already).
TEST(Run, EveryPrintedMaximumHasItsCase) {
    auto cat = load_catalogue({});
    RunOptions o = small(1);
    o.impl_filters = {"seed-c", "recipe-rtm", "recipe-filament", "broken-noflip"};
    RunOutput r = run(o, cat);
    const std::vector<SummaryRow> summary = summary_rows(r);
    const std::vector<WorstCaseRow> rows = worst_case_rows(r);
    size_t checked = 0, angle_first_differs = 0;
    for (const SummaryRow &s : summary) {
        auto attained = [&](const std::string &figure) -> const WorstCaseRow * {
            for (const auto &w : rows)
                if (w.impl == s.impl && w.op == s.op && w.region == s.region &&
                    (" " + w.attains + " ").find(" " + figure + " ") != std::string::npos)
                    return &w;
            return nullptr;
        };
        const std::pair<const char *, double> figures[] = {{"max_angle_err_rad", s.max_angle_err_rad},
                                                           {"max_ulp", s.max_ulp},
                                                           {"max_ulp1", s.max_ulp1.value_or(0)},
                                                           {"max_norm_err_ulp1", s.max_norm_err_ulp1}};
        for (auto [figure, value] : figures) {
            if (!(value > 0)) continue;
            const WorstCaseRow *w = attained(figure);
            ASSERT_NE(w, nullptr) << s.impl << " " << s.region << " " << figure;
            const std::string f = figure;
            const double got = f == "max_angle_err_rad" ? w->angle_err_rad
                               : f == "max_ulp"         ? w->ulp
                               : f == "max_ulp1"        ? w->ulp1
                                                        : w->norm_err_ulp1;
            EXPECT_EQ(as_written(got), value) << s.impl << " " << s.region << " " << figure;
            checked++;
        }
        const WorstCaseRow *first = nullptr;
        for (const auto &w : rows)
            if (w.impl == s.impl && w.op == s.op && w.region == s.region) {
                first = &w;
                break;
            }
        if (first && s.max_ulp1 && as_written(first->ulp1) != *s.max_ulp1) angle_first_differs++;
    }
    EXPECT_GT(checked, 4 * summary.size() / 2);
    EXPECT_GT(angle_first_differs, 0u);  // the worst by angle alone would have printed another ulp1
}

}  // namespace

TEST(Run, SameSeedGivesByteIdenticalCsvsForAnyJobCount) {
    auto cat = load_catalogue({});
    RunOutput a = run(small(1), cat), b = run(small(2), cat), c = run(small(2), cat);
    EXPECT_EQ(summary_csv(summary_rows(a)), summary_csv(summary_rows(b)));
    EXPECT_EQ(summary_csv(summary_rows(b)), summary_csv(summary_rows(c)));
    EXPECT_EQ(worst_cases_csv(worst_case_rows(a)), worst_cases_csv(worst_case_rows(b)));
    EXPECT_EQ(error_curve_csv(a), error_curve_csv(b));
    RunOptions other = small(2);
    other.seed = 8;
    EXPECT_NE(summary_csv(summary_rows(run(other, cat))), summary_csv(summary_rows(a)));
}

TEST(Run, RowsCoverEveryImplOpRegion) {
    auto cat = load_catalogue({});
    RunOutput r = run(small(2), cat);
    // seed-c.f32, seed-c.f64 (slerp), nlerp.f32, nlerp.f64 (nlerp), lusine.f32 (slerp): 5 x 5 regions.
    EXPECT_EQ(r.rows.size(), 25u);
    for (const auto &row : r.rows) {
        EXPECT_EQ(row.cases, 300u);
        EXPECT_LE(row.p99_angle_err_rad, row.max_angle_err_rad);
        EXPECT_EQ(row.worst.size(), 5u);
        EXPECT_GE(row.worst.front().angle_err_rad, row.worst.back().angle_err_rad);
    }
    // Default --reference fast: every case certified by the fast path or decided by MPFR, no violation. 1,500
    // cases per precision expect 1,500 checks only at a rate of 1 in 1: every certified case of the sample is
    // validated against MPFR (the search's cases are not: they are beyond the 1,500).
    EXPECT_EQ(r.plan.fast_check_log2, 0);
    for (const ReferenceStats *s : {&r.reference_f32, &r.reference_f64}) {
        EXPECT_EQ(s->fast_certified + s->fallbacks(), s->cases);
        EXPECT_GT(s->validation_samples, 1000u);
        EXPECT_LE(s->validation_samples, 1500u);
        EXPECT_EQ(s->fast_bound_violations, 0u);
    }
    // --paranoid: 1 in 64, a sample, not every case.
    RunOptions paranoid = small(2);
    paranoid.paranoid = true;
    const RunOutput rp = run(paranoid, cat);
    EXPECT_EQ(rp.plan.fast_check_log2, 6);
    for (const ReferenceStats *s : {&rp.reference_f32, &rp.reference_f64}) {
        EXPECT_LE(s->validation_samples, s->fast_certified / 16);
        EXPECT_GT(s->validation_samples, 0u);
    }
    // --reference mpfr: the 1-in-64 sample plus the ill-conditioned cases are recomputed.
    RunOptions opt = small(2);
    opt.reference = ReferenceMode::mpfr;
    RunOutput m = run(opt, cat);
    EXPECT_GT(m.reference_f32.recomputed, 0u);
    EXPECT_GE(m.reference_f32.recomputed, m.reference_f32.cases / 64);
    EXPECT_EQ(m.reference_f32.fast_certified, 0u);
}

TEST(Run, SelectionRejectsUnknownNamesAndExcludesBrokenByDefault) {
    auto cat = load_catalogue({});
    EXPECT_THROW(select_impls(cat, {"no-such-impl"}, {}), UsageError);
    for (const auto &io : select_impls(cat, {}, {})) EXPECT_NE(io.impl->group, "broken");
    auto only = select_impls(cat, {"*.f64"}, {Op::slerp});
    for (const auto &io : only) {
        EXPECT_EQ(io.impl->precision, Precision::f64);
        EXPECT_EQ(io.op, Op::slerp);
    }
}

TEST(Run, OneSelectionRuleForEveryCommand) {
    // plugins/select.h is the rule run, conform, bench, squad and curves share: the defaults leave out the
    // groups broken and bench, a filter takes any group, and a filter that matches no usable
    // implementation is refused with the command's word for them.
    auto cat = load_catalogue({});
    const auto squad = [](const Impl &i) { return i.supports(Op::squad); };
    for (const Impl *i : select_implementations(cat, {})) {
        EXPECT_NE(i->group, "broken");
        EXPECT_NE(i->group, "bench");
    }
    const auto squads = select_implementations(cat, {}, squad);
    ASSERT_FALSE(squads.empty());
    for (const Impl *i : squads) EXPECT_TRUE(i->supports(Op::squad));
    EXPECT_EQ(select_squad_impls(cat, {}), squads);
    const auto noop = select_implementations(cat, {"noop"});  // bench, by name
    ASSERT_FALSE(noop.empty());
    EXPECT_EQ(noop.front()->group, "bench");
    for (const Impl *i : select_implementations(cat, {"*"})) EXPECT_NE(i->group, "bench");  // never by a glob
    EXPECT_THROW(select_implementations(cat, {"noo*"}), UsageError);
    const auto broken = select_implementations(cat, {"broken-*"});
    ASSERT_FALSE(broken.empty());
    for (const Impl *i : broken) EXPECT_EQ(i->group, "broken");
    // Catalogue order, each once, however many filters match it.
    const auto twice = select_implementations(cat, {"seed-c.f64", "seed-c", "seed-*"});
    EXPECT_EQ(std::set<const Impl *>(twice.begin(), twice.end()).size(), twice.size());
    EXPECT_TRUE(std::is_sorted(twice.begin(), twice.end()));
    try {
        select_implementations(cat, {"seed-c.f64"}, squad, "squad implementation");
        ADD_FAILURE() << "a filter matching only implementations without squad was accepted";
    } catch (const UsageError &e) {
        EXPECT_NE(std::string(e.what()).find("no squad implementation matches 'seed-c.f64'"), std::string::npos)
            << e.what();
    }
    EXPECT_TRUE(glob_match("seed-*.f?4", "seed-c.f64"));
    EXPECT_FALSE(glob_match("seed-*.f32", "seed-c.f64"));
}

TEST(Run, SeedSlerpIsAccurateAwayFromItsThreshold) {
    // The seed routine in double is within a few ulps on uniform arcs, while its fallback costs about
    // 1e-6 rad around the 0.9995 threshold: the tool must see both.
    auto cat = load_catalogue({});
    RunOptions o;
    o.impl_filters = {"seed-c.f64"};
    o.cases = 2000;
    RunOutput r = run(o, cat);
    for (const auto &row : r.rows) {
        if (row.region == Region::uniform) { EXPECT_LT(row.max_angle_err_rad, 1e-14); }
        if (row.region == Region::threshold) { EXPECT_GT(row.max_angle_err_rad, 1e-7); }
        EXPECT_EQ(row.nonfinite, 0u);
    }
}

TEST(Run, WorstCasesReplayFromTheirCsv) {
    auto cat = load_catalogue({});
    RunOptions o = small(2);
    RunOutput r = run(o, cat);
    auto dir = std::filesystem::temp_directory_path() / "qc_run_test";
    std::filesystem::remove_all(dir);
    {
        ReportDir out(dir);
        write_run_report(r, out);
        out.commit();
    }
    auto rows = read_worst_cases((dir / "worst_cases.csv").string());
    // Per row: the 5 worst sampled cases, the search's 5, and the cases behind the other maxima (issue 38).
    EXPECT_GE(rows.size(), 25u * 5u * 2u);
    EXPECT_EQ(std::count_if(rows.begin(), rows.end(), [](const WorstCaseRow &w) { return w.source == "search"; }),
              25 * 5);
    for (const char *f : {"summary.csv", "worst_cases.csv", "error_curve.csv", "run.json"})
        EXPECT_TRUE(std::filesystem::exists(dir / f)) << f;
    // No staging folder left behind.
    for (auto &e : std::filesystem::directory_iterator(dir))
        EXPECT_EQ(e.path().filename().string().rfind(".staging", 0), std::string::npos);
}

// worst_cases.csv evaluates the MPFR reference of each distinct case once and reuses it for every row that has
// the case (report/run_report.cpp, WorstCaseEngines). Every row must be what fresh engines give for its own
// case: the reference column and the three metrics, to the bit. Negative control: the same comparison against
// the case with t one ulp higher (what a cache confusing nearby cases would hand out) must fail somewhere.
TEST(Run, WorstCaseRowsEqualFreshEnginesCaseByCase) {
    auto cat = load_catalogue({});
    RunOutput r = run(small(1), cat);
    const std::vector<WorstCaseRow> rows = worst_case_rows(r);
    ASSERT_GE(rows.size(), 25u * 5u * 2u);
    auto precision_of = [&](const std::string &name) {
        for (const Impl &i : cat)
            if (i.name == name) return i.precision;
        ADD_FAILURE() << "unknown impl " << name;
        return Precision::f64;
    };
    auto same = [](double x, double y) { return (std::isnan(x) && std::isnan(y)) || x == y; };
    // The row as fresh engines write it for the case (q0, q1, t), the output as written.
    auto row_matches = [&](const WorstCaseRow &w, double t_shift_ulps) {
        const Precision p = precision_of(w.impl);
        double q0[4], q1[4], out[4];
        for (int i = 0; i < 4; i++) {
            q0[i] = parse_hexfloat(w.q0[i], "test", 0, "q0");
            q1[i] = parse_hexfloat(w.q1[i], "test", 0, "q1");
            out[i] = parse_hexfloat(w.out[i], "test", 0, "out", true);
        }
        double t = parse_hexfloat(w.t, "test", 0, "t");
        for (int k = 0; k < t_shift_ulps; k++) t = std::nextafter(t, 2.0);
        Comparator cmp(p, ReferenceMode::mpfr);  // worst_cases.csv's reference column is MPFR's
        auto &[reference, metric] = cmp;
        SlerpReference ref;
        reference.slerp_exact(q0, q1, t, ref, true);
        CaseMetrics m;
        if (p == Precision::f32) {
            float o[4];
            for (int i = 0; i < 4; i++) o[i] = float(out[i]);
            m = metric.measure(o, ref, w.op == "nlerp" ? Op::nlerp : Op::slerp);
        } else {
            m = metric.measure(out, ref, w.op == "nlerp" ? Op::nlerp : Op::slerp);
        }
        const RealQuat &target = m.branch_disagree ? ref.R_other_mp : ref.R_mp;
        double dot = 0;
        for (int i = 0; i < 4; i++) dot += out[i] * to_double(target[i]);
        for (int i = 0; i < 4; i++) {
            Real v = target[i];
            if (dot < 0) v = -v;
            if (to_decimal(v, 40) != w.ref[i]) return false;
        }
        return m.nonfinite ? std::isnan(w.angle_err_rad)
                           : same(m.angle_err_rad, w.angle_err_rad) && same(m.ulp, w.ulp) && same(m.ulp1, w.ulp1);
    };
    size_t shifted_differ = 0;
    for (const WorstCaseRow &w : rows) {
        EXPECT_TRUE(row_matches(w, 0)) << w.impl << " " << w.op << " " << w.region << " t=" << w.t;
        if (!row_matches(w, 1)) shifted_differ++;
    }
    EXPECT_GT(shifted_differ, rows.size() / 2) << "the negative control (t one ulp off) went unnoticed";
}

// --cases-for: a capped implementation measures the first N cases of each region, so its rows are the rows of a
// run at --cases N (figures, worst cases, ties), while the others keep every case. Negative control: without
// the cap its rows differ from that run's.
TEST(Run, ACappedImplementationsRowsAreThoseOfARunAtItsCap) {
    auto cat = load_catalogue({});
    RunOptions capped = small(2);
    capped.impl_filters = {"seed-c", "nlerp"};
    capped.cases_for = {{"seed-c", 100}};
    RunOptions alone = small(2);
    alone.impl_filters = {"seed-c"};
    alone.cases = 100;
    const RunOutput c = run(capped, cat), a = run(alone, cat), full = run(small(2), cat);
    auto lines_of = [](const RunOutput &r, const std::string &prefix) {
        std::vector<std::string> out;
        std::istringstream in(summary_csv(summary_rows(r)) + worst_cases_csv(worst_case_rows(r)));
        for (std::string line; std::getline(in, line);)
            if (line.rfind(prefix, 0) == 0) out.push_back(line);
        return out;
    };
    const std::vector<std::string> seed_c = lines_of(c, "seed-c."), seed_c_alone = lines_of(a, "seed-c.");
    ASSERT_FALSE(seed_c.empty());
    EXPECT_EQ(seed_c, seed_c_alone);
    EXPECT_NE(lines_of(full, "seed-c."), seed_c_alone);  // negative control: 300 cases are another row
    for (const Row &row : c.rows) EXPECT_EQ(row.cases, row.impl->family == "seed-c" ? 100u : 300u) << row.impl->name;
    EXPECT_EQ(lines_of(c, "nlerp."), lines_of(full, "nlerp."));  // the others keep every case
}

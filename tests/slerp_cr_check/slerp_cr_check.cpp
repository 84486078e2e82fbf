// qc_slerp_cr_check: the long check of the correctly rounded slerp (docs/slerp-cr.md, "The long check"). Draws
// --cases cases of one region and precision (the sampler of every quatcheck run, seed --seed, case indices of shard
// K of N: K-1, K-1+N, ...), calls qc_slerp_cr on each and compares every component, bit for bit, with the ideal
// slerp rounded to the format by a checker that shares no code with the phase that decided the call:
//   - a call decided without the double-double phase 1 and without MPFR (the f32 phase in double, or exact
//     cases): against the certified double-double reference (reference/fast_reference.h, its bound
//     fast_bound), rounded by an enclosure test; where that enclosure does not decide, against MPFR;
//   - any other call: against reference/rounded.h (Shoemake's log/exp in MPFR, 256 to 2048 bits).
// Prints one line of counts; exit 0 when nothing is misrounded, capped or undecided, 1 otherwise, 2 on bad
// arguments. Used by scripts/slerp-cr-long-check (local shards in parallel, or a Slurm array).
// --exact-families R instead of --region and --cases: the exact-case families (every pair of integer keys with
// components in [-R, R] at t = 0, 1/2, 1), sharded the same way.
#include "quatcheck/slerp_cr.h"

#include "reference/fast_reference.h"
#include "reference/slerp_cr_internal.h"
#include "reference/rounded.h"
#include "regions/regions.h"

#include <array>
#include <bit>
#include <optional>
#include <vector>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {

// One line, exit 2 (usage: see the file's first lines).
[[noreturn]] void usage(const std::string &why) {
    std::fprintf(stderr, "qc_slerp_cr_check: %s\n", why.c_str());
    std::exit(2);
}

uint64_t number(const char *opt, const char *s) {
    char *end = nullptr;
    errno = 0;
    const unsigned long long v = std::strtoull(s, &end, 10);
    if (!*s || *end || errno || s[0] == '-') usage(std::string(opt) + ": '" + s + "' is not a non-negative integer");
    return v;
}

// RN of [x - e, x + e] to the format, x = hi + lo: true with out = the common rounding when both ends round to the
// same value (the same bits). The ends are computed in double with a margin 2^-50 |x| that covers the rounding of
// hi + lo and of the two sums (each at most 2^-53 relative), so the true interval lies inside the one tested.
bool enclose(double hi, double lo, double e, bool f32, double &out) {
    const double x = hi + lo, m = e + std::fabs(x) * 0x1p-50;
    const double a = x - m, b = x + m;
    if (f32) {
        const float fa = float(a), fb = float(b);
        if (std::bit_cast<uint32_t>(fa) != std::bit_cast<uint32_t>(fb)) return false;
        out = fa;
        return true;
    }
    // f64: the double nearest to the double-double would need its own test; f64 calls go to MPFR (see above).
    return false;
}

// One call of the routine on inputs given exactly as doubles (representable in the format), compared component by
// component with the checker; the tallies of the run.
struct Checker {
    Checker(bool is_f32, qc::Precision prec) : f32(is_f32), p(prec) {}
    bool f32;
    qc::Precision p;
    uint64_t checked = 0, components = 0, misrounded = 0, undecided = 0, by_dd = 0, by_mpfr = 0, capped = 0;
    qc::SlerpReference ref;

    void check(uint64_t k, const double q0[4], const double q1[4], double t) {
        double got[4], want[4];
        qc_slerp_cr_stats before, after;
        qc_slerp_cr_get_stats(&before);
        int status;
        if (f32) {
            float a[4], b[4], o[4];
            for (int i = 0; i < 4; i++) a[i] = float(q0[i]), b[i] = float(q1[i]);
            status = qc_slerp_cr_f32_status(a, b, float(t), o);
            for (int i = 0; i < 4; i++) got[i] = o[i];
        } else {
            status = qc_slerp_cr_f64_status(q0, q1, t, got);
        }
        qc_slerp_cr_get_stats(&after);
        checked++;
        if (status == QC_SLERP_CR_CAPPED) capped++;
        const bool cheap = after.phase1 == before.phase1 && after.phase2 == before.phase2;
        bool decided = false;
        if (cheap && qc::fast_slerp_reference(q0, q1, t, p, ref, false) == qc::FastOutcome::certified) {
            decided = true;
            for (int i = 0; i < 4 && decided; i++)
                decided = enclose(ref.R[size_t(i)].hi, ref.R[size_t(i)].lo, ref.fast_bound, f32, want[i]);
            // an exact zero (zero in both keys, or in the end t = 0 or 1 returns) is +0 by definition
            for (int i = 0; i < 4 && decided; i++)
                if ((q0[i] == 0 && q1[i] == 0) || (t == 0 && q0[i] == 0) || (t == 1 && q1[i] == 0)) want[i] = 0;
        }
        if (decided) by_dd++;
        else if (qc::correctly_rounded_slerp(p, q0, q1, t, want)) by_mpfr++, decided = true;
        if (!decided) {
            if (undecided++ < 3)
                std::fprintf(stderr, "undecided by the checker: case %llu q0 %a %a %a %a q1 %a %a %a %a t %a\n",
                             (unsigned long long)k, q0[0], q0[1], q0[2], q0[3], q1[0], q1[1], q1[2], q1[3], t);
            return;
        }
        for (int i = 0; i < 4; i++) {
            components++;
            if (std::bit_cast<uint64_t>(got[i]) == std::bit_cast<uint64_t>(want[i])) continue;
            if (misrounded++ < 5)
                std::fprintf(
                    stderr, "misrounded: case %llu component %d: got %a want %a (q0 %a %a %a %a q1 %a %a %a %a t %a)\n",
                    (unsigned long long)k, i, got[i], want[i], q0[0], q0[1], q0[2], q0[3], q1[0], q1[1], q1[2], q1[3],
                    t);
        }
    }
};

struct Options {
    const char *precision = nullptr, *region = nullptr;
    uint64_t cases = 0, seed = 40, shard = 1, shards = 1, range = 0;
    bool families = false, f32 = false;
    qc::Precision p = qc::Precision::f64;
    qc::Region r = qc::Region::uniform;
};

// The command line (see the file's first lines); a bad one is one line and exit 2.
Options parse_options(int argc, char **argv) {
    Options o;
    const char *&precision = o.precision, *&region = o.region;
    uint64_t &cases = o.cases, &seed = o.seed, &shard = o.shard, &shards = o.shards, &range = o.range;
    bool have_cases = false;
    bool &families = o.families;
    for (int i = 1; i < argc; i++) {
        const std::string a = argv[i];
        if (i + 1 >= argc) usage(a + ": expected a value");
        const char *v = argv[++i];
        if (a == "--precision") precision = v;
        else if (a == "--region") region = v;
        else if (a == "--cases") cases = number("--cases", v), have_cases = true;
        else if (a == "--seed") seed = number("--seed", v);
        else if (a == "--exact-families") {
            families = true, range = number("--exact-families", v);
            if (range < 1 || range > 3) usage("--exact-families: expected a component range R of 1, 2 or 3");
        } else if (a == "--damage") {  // the negative control: phase 1's value moved past its bound must be caught
            if (std::string(v) != "value_shift") usage("--damage: expected value_shift");
            qc::slerp_cr::set_damage(qc::slerp_cr::Damage::value_shift);
        } else if (a == "--shard") {
            const char *slash = std::strchr(v, '/');
            if (!slash) usage("--shard: expected K/N");
            shard = number("--shard", std::string(v, slash).c_str()), shards = number("--shard", slash + 1);
            if (shards == 0 || shard == 0 || shard > shards) usage("--shard: expected K/N with 1 <= K <= N");
        } else usage("unknown option '" + a + "'");
    }
    if (!precision || (!families && (!region || !have_cases)))
        usage("--precision, and --region and --cases or --exact-families R, are required");
    const std::string ps = precision;
    if (ps != "f32" && ps != "f64") usage("--precision: expected f32 or f64");
    const auto r = families ? std::optional<qc::Region>(qc::Region::uniform) : qc::parse_region(region);
    if (!r) usage(std::string("--region: unknown region '") + region + "'");
    o.r = *r;
    o.f32 = ps == "f32";
    o.p = o.f32 ? qc::Precision::f32 : qc::Precision::f64;
    return o;
}

}  // namespace

int main(int argc, char **argv) {
    const Options o = parse_options(argc, argv);
    const char *precision = o.precision, *region = o.region;
    const uint64_t cases = o.cases, seed = o.seed, shard = o.shard, shards = o.shards, range = o.range;
    const bool families = o.families, f32 = o.f32;
    const qc::Precision p = o.p;
    const std::optional<qc::Region> r = o.r;
    Checker ck(f32, p);
    const auto start = std::chrono::steady_clock::now();
    if (families) {
        // The exact-case families of docs/slerp-cr.md, "Exact cases": every ordered pair of integer keys with
        // components in [-R, R] (not zero) at t = 0, 1/2 and 1: zero in both keys, the ends (q/|q|, never a
        // midpoint), and at t = 1/2 the components symmetric in the two keys (exact zeros) with every other.
        const int R = int(range);
        std::vector<std::array<double, 4>> keys;
        for (int w = -R; w <= R; w++)
            for (int x = -R; x <= R; x++)
                for (int y = -R; y <= R; y++)
                    for (int z = -R; z <= R; z++)
                        if (w || x || y || z) keys.push_back({double(w), double(x), double(y), double(z)});
        uint64_t k = 0;
        for (const auto &a : keys)
            for (const auto &b : keys)
                for (double t : {0.0, 0.5, 1.0})
                    if (k++ % shards == shard - 1) ck.check(k - 1, a.data(), b.data(), t);
    } else {
        for (uint64_t k = shard - 1; k < cases; k += shards) {
            qc::Rng rng = qc::case_rng(seed, p, *r, k);
            double q0[4], q1[4];
            double t;
            if (f32) {
                const qc::SlerpCase<float> c = qc::sample_case<float>(*r, rng);
                for (int i = 0; i < 4; i++) q0[i] = c.q0[size_t(i)], q1[i] = c.q1[size_t(i)];
                t = c.t;
            } else {
                const qc::SlerpCase<double> c = qc::sample_case<double>(*r, rng);
                for (int i = 0; i < 4; i++) q0[i] = c.q0[size_t(i)], q1[i] = c.q1[size_t(i)];
                t = c.t;
            }
            ck.check(k, q0, q1, t);
        }
    }
    const uint64_t checked = ck.checked, components = ck.components, misrounded = ck.misrounded,
                   undecided = ck.undecided, capped = ck.capped, by_dd = ck.by_dd, by_mpfr = ck.by_mpfr;
    const std::string where = families ? "exact-families-" + std::to_string(range) : std::string(region);
    qc_slerp_cr_stats s;
    qc_slerp_cr_get_stats(&s);
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf(
        "slerp_cr_check %s %s seed %llu shard %llu/%llu: cases %llu components %llu misrounded %llu undecided "
        "%llu capped %llu checked-by-dd %llu checked-by-mpfr %llu phase2-calls %llu max-bits %llu seconds %.1f\n",
        precision, where.c_str(), (unsigned long long)seed, (unsigned long long)shard, (unsigned long long)shards,
        (unsigned long long)checked, (unsigned long long)components, (unsigned long long)misrounded,
        (unsigned long long)undecided, (unsigned long long)capped, (unsigned long long)by_dd,
        (unsigned long long)by_mpfr, s.phase2_calls, s.max_bits, secs);
    return misrounded || undecided || capped ? 1 : 0;
}

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
#include "quatcheck/slerp_cr.h"

#include "reference/fast_reference.h"
#include "reference/slerp_cr_internal.h"
#include "reference/rounded.h"
#include "regions/regions.h"

#include <bit>
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

}  // namespace

int main(int argc, char **argv) {
    const char *precision = nullptr, *region = nullptr;
    uint64_t cases = 0, seed = 40, shard = 1, shards = 1;
    bool have_cases = false;
    for (int i = 1; i < argc; i++) {
        const std::string a = argv[i];
        if (i + 1 >= argc) usage(a + ": expected a value");
        const char *v = argv[++i];
        if (a == "--precision") precision = v;
        else if (a == "--region") region = v;
        else if (a == "--cases") cases = number("--cases", v), have_cases = true;
        else if (a == "--seed") seed = number("--seed", v);
        else if (a == "--damage") {  // the negative control: phase 1's value moved past its bound must be caught
            if (std::string(v) != "value_shift") usage("--damage: expected value_shift");
            qc::slerp_cr::set_damage(qc::slerp_cr::Damage::value_shift);
        } else if (a == "--shard") {
            const char *slash = std::strchr(v, '/');
            if (!slash) usage("--shard: expected K/N");
            shard = number("--shard", std::string(v, slash).c_str()), shards = number("--shard", slash + 1);
            if (shards == 0 || shard == 0 || shard > shards) usage("--shard: expected K/N with 1 <= K <= N");
        } else usage("unknown option '" + a + "'");
    }
    if (!precision || !region || !have_cases) usage("--precision, --region and --cases are required");
    const std::string ps = precision;
    if (ps != "f32" && ps != "f64") usage("--precision: expected f32 or f64");
    const auto r = qc::parse_region(region);
    if (!r) usage(std::string("--region: unknown region '") + region + "'");
    const bool f32 = ps == "f32";
    const qc::Precision p = f32 ? qc::Precision::f32 : qc::Precision::f64;

    uint64_t checked = 0, components = 0, misrounded = 0, undecided = 0, by_dd = 0, by_mpfr = 0, capped = 0;
    qc::SlerpReference ref;
    const auto start = std::chrono::steady_clock::now();
    for (uint64_t k = shard - 1; k < cases; k += shards) {
        qc::Rng rng = qc::case_rng(seed, p, *r, k);
        double q0[4], q1[4], t, got[4], want[4];
        qc_slerp_cr_stats before, after;
        qc_slerp_cr_get_stats(&before);
        int status;
        if (f32) {
            const qc::SlerpCase<float> c = qc::sample_case<float>(*r, rng);
            float o[4];
            status = qc_slerp_cr_f32_status(c.q0.data(), c.q1.data(), c.t, o);
            for (int i = 0; i < 4; i++) q0[i] = c.q0[size_t(i)], q1[i] = c.q1[size_t(i)], got[i] = o[i];
            t = c.t;
        } else {
            const qc::SlerpCase<double> c = qc::sample_case<double>(*r, rng);
            status = qc_slerp_cr_f64_status(c.q0.data(), c.q1.data(), c.t, got);
            for (int i = 0; i < 4; i++) q0[i] = c.q0[size_t(i)], q1[i] = c.q1[size_t(i)];
            t = c.t;
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
            continue;
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
    qc_slerp_cr_stats s;
    qc_slerp_cr_get_stats(&s);
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf(
        "slerp_cr_check %s %s seed %llu shard %llu/%llu: cases %llu components %llu misrounded %llu undecided "
        "%llu capped %llu checked-by-dd %llu checked-by-mpfr %llu phase2-calls %llu max-bits %llu seconds %.1f\n",
        precision, region, (unsigned long long)seed, (unsigned long long)shard, (unsigned long long)shards,
        (unsigned long long)checked, (unsigned long long)components, (unsigned long long)misrounded,
        (unsigned long long)undecided, (unsigned long long)capped, (unsigned long long)by_dd,
        (unsigned long long)by_mpfr, s.phase2_calls, s.max_bits, secs);
    return misrounded || undecided || capped ? 1 : 0;
}

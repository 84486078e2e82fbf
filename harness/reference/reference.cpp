#include "reference/reference.h"
#include "reference/fast_reference.h"
#include "reference/pair_memo.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <cstdlib>
#include <stdexcept>
#include <utility>

namespace qc {

std::string to_decimal(const Real &x, int digits) {
    char *s = nullptr;
    mpfr_asprintf(&s, "%.*Re", digits - 1, mp(x));
    std::string out = s ? s : "nan";
    mpfr_free_str(s);
    return out;
}

// free_mpfr_caches_at_thread_exit and round_to_dd: reference/real.cpp (part of quatcheck::slerp_cr too).

const char *to_string(ReferenceMode m) { return m == ReferenceMode::fast ? "fast" : "mpfr"; }

std::optional<ReferenceMode> parse_reference_mode(std::string_view s) {
    if (s == "fast") return ReferenceMode::fast;
    if (s == "mpfr") return ReferenceMode::mpfr;
    return std::nullopt;
}

void ReferenceStats::add(const ReferenceStats &o) {
    cases += o.cases;
    fast_certified += o.fast_certified;
    fallback_undecided_sign += o.fallback_undecided_sign;
    fallback_bound_too_wide += o.fallback_bound_too_wide;
    fallback_ill_conditioned += o.fallback_ill_conditioned;
    validation_samples += o.validation_samples;
    fast_bound_violations += o.fast_bound_violations;
    max_error_to_bound = std::max(max_error_to_bound, o.max_error_to_bound);
    screened += o.screened;
    screened_dd += o.screened_dd;
    deferred += o.deferred;
    deferred_certified += o.deferred_certified;
    screen_checks += o.screen_checks;
    screen_violations += o.screen_violations;
    recomputed += o.recomputed;
    disagreements += o.disagreements;
    escalations += o.escalations;
    if (o.max_bits > max_bits) max_bits = o.max_bits;
}

bool sampled_for_validation(uint64_t seed, uint64_t index) {
    uint64_t z = seed * 0x9E3779B97F4A7C15ull + index + 0x632BE59BD9B4E019ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return (z & 63) == 0;
}

bool sampled_by_inputs(uint64_t seed, const double q0[4], const double q1[4], double t, int log2_rate) {
    uint64_t z = seed * 0x9E3779B97F4A7C15ull;
    auto absorb = [&](double v) {
        uint64_t b;
        std::memcpy(&b, &v, sizeof b);
        z = (z ^ b) * 0xBF58476D1CE4E5B9ull;
        z ^= z >> 29;
    };
    for (int i = 0; i < 4; i++) absorb(q0[i]), absorb(q1[i]);
    absorb(t);
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return (z & ((uint64_t(1) << log2_rate) - 1)) == 0;
}

int fast_check_rate_log2(uint64_t cases_per_precision, bool paranoid) {
    if (paranoid) return 6;
    int k = 0;
    while (k < 10 && double(cases_per_precision) / double(uint64_t(1) << (k + 1)) >= kFastChecksWanted) k++;
    return k;
}

ReferenceEngine::ReferenceEngine(Precision precision, ReferenceMode mode, int start_bits)
    : precision_(precision),
      mode_(mode),
      start_bits_(start_bits > 0 ? start_bits : 2 * precision_bits(precision) + 32) {
    free_mpfr_caches_at_thread_exit();
    // Exact products of two doubles need 106 bits; the dot product's sign comes from mpfr_sum, which
    // rounds correctly and therefore gets the sign (and exact zero) right.
    for (auto &p : prod_) ensure_bits(p, 128);
    ensure_bits(exact_dot_, 256);  // a.b = exact_dot / (n0 n1) is then rounded once more, at the working precision
}

double ReferenceEngine::tolerance() const { return std::ldexp(1.0, -(precision_bits(precision_) + 16)); }

void ReferenceEngine::slerp(const SlerpCase<float> &c, SlerpReference &out, bool validate) {
    double q0[4], q1[4];
    for (int i = 0; i < 4; i++) q0[i] = c.q0[i], q1[i] = c.q1[i];
    slerp_exact(q0, q1, c.t, out, validate);
}

void ReferenceEngine::slerp(const SlerpCase<double> &c, SlerpReference &out, bool validate) {
    slerp_exact(c.q0.data(), c.q1.data(), c.t, out, validate);
}

namespace {
// x = sqrt(sum of squares of v[0..3]) at x's precision.
void norm4(Real &x, Real &tmp, const Real v[4]) {
    mpfr_sqr(mp(x), mp(v[0]), MPFR_RNDN);
    for (int i = 1; i < 4; i++) {
        mpfr_sqr(mp(tmp), mp(v[i]), MPFR_RNDN);
        mpfr_add(mp(x), mp(x), mp(tmp), MPFR_RNDN);
    }
    mpfr_sqrt(mp(x), mp(x), MPFR_RNDN);
}

// The exact q0.q1: exact products (106 bits <= 128), correctly rounded sum. Returns its sign.
int exact_dot_sign(const double q0[4], const double q1[4], Real prod[4], Real &exact_dot) {
    mpfr_ptr ptrs[4];
    for (int i = 0; i < 4; i++) {
        mpfr_set_d(mp(prod[i]), q0[i], MPFR_RNDN);
        mpfr_mul_d(mp(prod[i]), mp(prod[i]), q1[i], MPFR_RNDN);  // exact: 106 bits <= 128
        ptrs[i] = mp(prod[i]);
    }
    mpfr_sum(mp(exact_dot), ptrs, 4, MPFR_RNDN);
    return mpfr_sgn(mp(exact_dot));
}

// a = q0/|q0| and b = q1/|q1| (b's flip to the short arc comes later), the norms in n0 and n1. A zero norm is
// refused: such a quaternion has no direction.
void unit_ends(const double q0[4], const double q1[4], Real a[4], Real b[4], Real &n0, Real &n1, Real &tmp) {
    for (int i = 0; i < 4; i++) mpfr_set_d(mp(a[i]), q0[i], MPFR_RNDN), mpfr_set_d(mp(b[i]), q1[i], MPFR_RNDN);
    norm4(n0, tmp, a);
    norm4(n1, tmp, b);
    if (mpfr_zero_p(mp(n0)) || mpfr_zero_p(mp(n1)))
        throw InputError("reference: a quaternion of zero norm has no direction");
    for (int i = 0; i < 4; i++) {
        mpfr_div(mp(a[i]), mp(a[i]), mp(n0), MPFR_RNDN);
        mpfr_div(mp(b[i]), mp(b[i]), mp(n1), MPFR_RNDN);
    }
}

// N = ((1-t)a + tb) / |(1-t)a + tb|, exact to N's precision (omt = 1-t, tt = t; tmp and norm are scratch).
// NaN where the sum vanishes: only on the other arc with b = -a at t = 1/2, which has no direction.
void normalised_lerp(const Real a[4], const Real b[4], const Real &omt, const Real &tt, Real &tmp, Real &norm,
                     RealQuat &N) {
    for (int i = 0; i < 4; i++) {
        mpfr_mul(mp(N[i]), mp(omt), mp(a[i]), MPFR_RNDN);
        mpfr_mul(mp(tmp), mp(tt), mp(b[i]), MPFR_RNDN);
        mpfr_add(mp(N[i]), mp(N[i]), mp(tmp), MPFR_RNDN);
    }
    norm4(norm, tmp, N.data());
    if (mpfr_zero_p(mp(norm))) {
        for (auto &x : N) mpfr_set_nan(mp(x));
        return;
    }
    for (int i = 0; i < 4; i++) mpfr_div(mp(N[i]), mp(N[i]), mp(norm), MPFR_RNDN);
}
}  // namespace

namespace {
// reference/pair_memo.h: the last pair's part of an evaluation, per thread (b after the flip to the short arc; sW
// only where W != 0).
struct PairMemo {
    bool valid = false;
    double q0[4] = {}, q1[4] = {};
    int bits = 0;
    bool tie = false;
    double dot = 0;
    Real a[4], b[4], W, sW;

    bool holds(const double p0[4], const double p1[4], int prec) const {
        return valid && bits == prec && std::memcmp(q0, p0, sizeof q0) == 0 && std::memcmp(q1, p1, sizeof q1) == 0;
    }
};
PairMemo &pair_memo() {
    thread_local PairMemo memo;
    return memo;
}

// a, b, W and sin W from the memo.
void recall_pair(const PairMemo &memo, Real a[4], Real b[4], Real &W, Real &sW) {
    for (int i = 0; i < 4; i++)
        mpfr_set(mp(a[i]), mp(memo.a[i]), MPFR_RNDN), mpfr_set(mp(b[i]), mp(memo.b[i]), MPFR_RNDN);
    mpfr_set(mp(W), mp(memo.W), MPFR_RNDN);
    mpfr_set(mp(sW), mp(memo.sW), MPFR_RNDN);
}

// The pair's part of an evaluation at `bits` into the memo (sW is not used where W = 0).
void remember_pair(PairMemo &memo, const double q0[4], const double q1[4], int bits, const SlerpReference &out,
                   const Real a[4], const Real b[4], const Real &W, const Real &sW) {
    memo.valid = false;
    for (Real *x : {&memo.a[0], &memo.a[1], &memo.a[2], &memo.a[3], &memo.b[0], &memo.b[1], &memo.b[2], &memo.b[3],
                    &memo.W, &memo.sW})
        ensure_bits(*x, bits);
    for (int i = 0; i < 4; i++)
        mpfr_set(mp(memo.a[i]), mp(a[i]), MPFR_RNDN), mpfr_set(mp(memo.b[i]), mp(b[i]), MPFR_RNDN);
    mpfr_set(mp(memo.W), mp(W), MPFR_RNDN);
    mpfr_set(mp(memo.sW), mp(sW), MPFR_RNDN);
    std::memcpy(memo.q0, q0, sizeof memo.q0), std::memcpy(memo.q1, q1, sizeof memo.q1);
    memo.bits = bits, memo.tie = out.tie, memo.dot = out.dot;
    memo.valid = true;
}
}  // namespace

// One evaluation at the given precision. The formula follows the header comment line by line.
void ReferenceEngine::evaluate(const double q0[4], const double q1[4], double t, int bits, SlerpReference &out) {
    for (Real *x : {&n0_, &n1_, &tmp_, &diff_, &sum_, &W_, &sW_, &s0_, &s1_, &omt_, &tt_, &dot_}) ensure_bits(*x, bits);
    for (int i = 0; i < 4; i++) {
        ensure_bits(v_[i], bits), ensure_bits(a_[i], bits), ensure_bits(b_[i], bits);
        ensure_bits(out.R_mp[i], bits), ensure_bits(out.N_mp[i], bits);
        ensure_bits(out.R_other_mp[i], bits), ensure_bits(out.N_other_mp[i], bits);
    }
    out.bits = bits;

    // The pair's part: the exact sign of q0.q1, a = q0/|q0|, b = +-q1/|q1| and a.b (W and sin W too) from the memo
    // when it holds the pair (reference/pair_memo.h).
    PairMemo &memo = pair_memo();
    const bool use_memo = reference_pair_memo(), known = use_memo && memo.holds(q0, q1, bits);
    if (known) {
        out.tie = memo.tie, out.dot = memo.dot;
        recall_pair(memo, a_, b_, W_, sW_);
    } else {
        const int dot_sign = exact_dot_sign(q0, q1, prod_, exact_dot_);
        out.tie = dot_sign == 0;
        unit_ends(q0, q1, a_, b_, n0_, n1_, tmp_);
        // a.b (rounded) for the tie band and the report
        mpfr_div(mp(dot_), mp(exact_dot_), mp(n0_), MPFR_RNDN);
        mpfr_div(mp(dot_), mp(dot_), mp(n1_), MPFR_RNDN);
        out.dot = to_double(dot_);
        if (dot_sign < 0)
            for (auto &x : b_) mpfr_neg(mp(x), mp(x), MPFR_RNDN);
    }
    out.in_tie_band = std::fabs(out.dot) <= tie_band(precision_);

    mpfr_set_d(mp(tt_), t, MPFR_RNDN);
    mpfr_ui_sub(mp(omt_), 1, mp(tt_), MPFR_RNDN);  // exact: bits >= 2p

    // R (and, for the other arc, R_other) from a, b by the atan2 form (W_ and sW_ given when w_known).
    auto arc = [&](RealQuat &R, bool record_w, bool w_known) {
        if (!w_known) {
            for (int i = 0; i < 4; i++) mpfr_sub(mp(v_[i]), mp(a_[i]), mp(b_[i]), MPFR_RNDN);
            norm4(diff_, tmp_, v_);
            for (int i = 0; i < 4; i++) mpfr_add(mp(v_[i]), mp(a_[i]), mp(b_[i]), MPFR_RNDN);
            norm4(sum_, tmp_, v_);
            mpfr_atan2(mp(W_), mp(diff_), mp(sum_), MPFR_RNDN);
            mpfr_mul_2ui(mp(W_), mp(W_), 1, MPFR_RNDN);
        }
        if (record_w) out.arc_w = to_double(W_);
        if (mpfr_zero_p(mp(W_))) {
            for (int i = 0; i < 4; i++) mpfr_set(mp(R[i]), mp(a_[i]), MPFR_RNDN);
            return;
        }
        if (!w_known) mpfr_sin(mp(sW_), mp(W_), MPFR_RNDN);
        mpfr_mul(mp(s0_), mp(omt_), mp(W_), MPFR_RNDN);
        mpfr_sin(mp(s0_), mp(s0_), MPFR_RNDN);
        mpfr_mul(mp(s1_), mp(tt_), mp(W_), MPFR_RNDN);
        mpfr_sin(mp(s1_), mp(s1_), MPFR_RNDN);
        mpfr_div(mp(s0_), mp(s0_), mp(sW_), MPFR_RNDN);
        mpfr_div(mp(s1_), mp(s1_), mp(sW_), MPFR_RNDN);
        for (int i = 0; i < 4; i++) {
            mpfr_mul(mp(R[i]), mp(s0_), mp(a_[i]), MPFR_RNDN);
            mpfr_mul(mp(tmp_), mp(s1_), mp(b_[i]), MPFR_RNDN);
            mpfr_add(mp(R[i]), mp(R[i]), mp(tmp_), MPFR_RNDN);
        }
    };
    arc(out.R_mp, true, known);
    if (use_memo && !known) remember_pair(memo, q0, q1, bits, out, a_, b_, W_, sW_);

    // N: exact normalised lerp on the same arc. (1-t)a + tb cannot vanish: a.b >= 0 after the flip.
    if (want_nlerp_) normalised_lerp(a_, b_, omt_, tt_, tmp_, n0_, out.N_mp);
    else
        for (auto &x : out.N_mp) mpfr_set_nan(mp(x));

    if (out.in_tie_band) {
        for (auto &x : b_) mpfr_neg(mp(x), mp(x), MPFR_RNDN);
        arc(out.R_other_mp, false, false);
        if (want_nlerp_) normalised_lerp(a_, b_, omt_, tt_, tmp_, n0_, out.N_other_mp);
        else
            for (auto &x : out.N_other_mp) mpfr_set_nan(mp(x));
    }

    out.ill_conditioned = ill_conditioned_case(out.arc_w, t);
}

bool ReferenceEngine::agree(const SlerpReference &x, const SlerpReference &y) {
    const double tol = tolerance();
    auto close = [&](const RealQuat &p, const RealQuat &q) {
        for (int i = 0; i < 4; i++) {
            mpfr_sub(mp(tmp_), mp(p[i]), mp(q[i]), MPFR_RNDN);
            if (mpfr_nan_p(mp(p[i])) && mpfr_nan_p(mp(q[i]))) continue;
            if (!(std::fabs(to_double(tmp_)) <= tol)) return false;
        }
        return true;
    };
    if (x.in_tie_band != y.in_tie_band) return false;
    return close(x.R_mp, y.R_mp) && close(x.N_mp, y.N_mp) &&
           (!x.in_tie_band || (close(x.R_other_mp, y.R_other_mp) && close(x.N_other_mp, y.N_other_mp)));
}

void ReferenceEngine::slerp_mpfr(const double q0[4], const double q1[4], double t, SlerpReference &out, bool validate) {
    int bits = start_bits_;
    evaluate(q0, q1, t, bits, out);
    if (validate || out.ill_conditioned) {
        ++stats_.recomputed;
        // The check runs 32 bits above the working precision: its own error is then 2^32 times smaller
        // than the one it checks, which is all a comparison against 2^-(p+16) needs, and it costs about
        // one more evaluation (the same number of limbs). After a disagreement the precision doubles.
        int higher = bits + 32;
        ensure_bits(tmp_, higher);
        evaluate(q0, q1, t, higher, check_);
        ensure_bits(tmp_, higher);
        bool first = true;
        while (!agree(out, check_)) {
            if (first) ++stats_.disagreements, first = false;
            ++stats_.escalations;
            std::swap(out, check_);  // adopt the more precise evaluation, then compare with the next one
            higher *= 2;
            if (higher > 1 << 16)
                throw std::runtime_error("reference: precision escalation did not converge below 65536 bits");
            evaluate(q0, q1, t, higher, check_);
            ensure_bits(tmp_, higher);
        }
        std::swap(out, check_);  // keep the most precise of the agreeing evaluations
        bits = out.bits;
    }
    if (out.bits > stats_.max_bits) stats_.max_bits = out.bits;
    out.mpfr_evaluated = true;
    out.fast_bound = 0;
    for (int i = 0; i < 4; i++) {
        out.R[i] = round_to_dd(out.R_mp[i]);
        out.N[i] = round_to_dd(out.N_mp[i]);
        if (out.in_tie_band)
            out.R_other[i] = round_to_dd(out.R_other_mp[i]), out.N_other[i] = round_to_dd(out.N_other_mp[i]);
    }
}

void ReferenceEngine::admit(const double q0[4], const double q1[4], double t) {
    ++stats_.cases;
    for (int i = 0; i < 4; i++)
        if (!std::isfinite(q0[i]) || !std::isfinite(q1[i]))
            throw InputError("reference: a quaternion component is not finite");
    if (!std::isfinite(t)) throw InputError("reference: t is not finite");
}

void ReferenceEngine::slerp_exact(const double q0[4], const double q1[4], double t, SlerpReference &out,
                                  bool validate) {
    admit(q0, q1, t);
    if (mode_ == ReferenceMode::mpfr) return slerp_mpfr(q0, q1, t, out, validate);
    settle(q0, q1, t, out, validate, fast_slerp_reference(q0, q1, t, precision_, out, want_nlerp_));
}

template <class T>
void ReferenceEngine::slerp_batch_of(const SlerpCase<T> *cases, size_t n, SlerpReference *out, const bool *validate) {
    if (mode_ == ReferenceMode::mpfr) {
        for (size_t i = 0; i < n; i++) slerp(cases[i], out[i], validate[i]);
        return;
    }
    batch_q0_.resize(n), batch_q1_.resize(n), batch_t_.resize(n), batch_outcome_.resize(n);
    for (size_t i = 0; i < n; i++) {
        for (size_t k = 0; k < 4; k++) batch_q0_[i][k] = cases[i].q0[k], batch_q1_[i][k] = cases[i].q1[k];
        batch_t_[i] = cases[i].t;
    }
    static_assert(sizeof(std::array<double, 4>) == sizeof(double[4]));  // the rows as double[4]
    fast_slerp_reference_batch(reinterpret_cast<const double(*)[4]>(batch_q0_.data()),
                               reinterpret_cast<const double(*)[4]>(batch_q1_.data()), batch_t_.data(), n, precision_,
                               out, batch_outcome_.data(), want_nlerp_);
    for (size_t i = 0; i < n; i++) {
        admit(batch_q0_[i].data(), batch_q1_[i].data(), batch_t_[i]);
        settle(batch_q0_[i].data(), batch_q1_[i].data(), batch_t_[i], out[i], validate[i], batch_outcome_[i]);
    }
}

void ReferenceEngine::slerp_batch(const SlerpCase<float> *cases, size_t n, SlerpReference *out, const bool *validate) {
    slerp_batch_of(cases, n, out, validate);
}

void ReferenceEngine::slerp_batch(const SlerpCase<double> *cases, size_t n, SlerpReference *out, const bool *validate) {
    slerp_batch_of(cases, n, out, validate);
}

void ReferenceEngine::settle(const double q0[4], const double q1[4], double t, SlerpReference &out, bool validate,
                             FastOutcome o) {
    switch (o) {
        case FastOutcome::certified:
            ++stats_.fast_certified;
            out.mpfr_evaluated = false;
            if (fast_check_log2_ < 0 ? validate : sampled_by_inputs(fast_check_seed_, q0, q1, t, fast_check_log2_))
                check_fast(q0, q1, t, out);
            return;
        case FastOutcome::undecided_sign:
            ++stats_.fallback_undecided_sign;
            break;
        case FastOutcome::bound_too_wide:
            ++stats_.fallback_bound_too_wide;
            break;
        case FastOutcome::ill_conditioned:
            ++stats_.fallback_ill_conditioned;
            break;
    }
    slerp_mpfr(q0, q1, t, out, validate);
}

// A validation sample of the fast path: MPFR at kFastCheckBits (its own error, <= 2^-(kFastCheckBits-8),
// is far below any bound the fast path certifies) against the fast value, component by component.
void ReferenceEngine::check_fast(const double q0[4], const double q1[4], double t, const SlerpReference &fast) {
    ++stats_.validation_samples;
    ensure_bits(tmp_, kFastCheckBits);
    evaluate(q0, q1, t, kFastCheckBits, mpfr_check_);
    const double slack = std::ldexp(1.0, -(kFastCheckBits - 8));
    bool violated = mpfr_check_.in_tie_band != fast.in_tie_band || mpfr_check_.tie != fast.tie ||
                    mpfr_check_.dot != fast.dot || !(std::fabs(mpfr_check_.arc_w - fast.arc_w) <= 2 * kFastArcBound);
    double worst = 0;
    auto cmp = [&](const DDQuat &f, const RealQuat &m) {
        for (int i = 0; i < 4; i++) {
            mpfr_sub_d(mp(tmp_), mp(m[i]), f[i].hi, MPFR_RNDN);
            mpfr_sub_d(mp(tmp_), mp(tmp_), f[i].lo, MPFR_RNDN);
            const double diff = std::fabs(to_double(tmp_));
            if (!(diff <= fast.fast_bound + slack)) violated = true;
            if (fast.fast_bound > 0) worst = std::max(worst, diff / fast.fast_bound);
        }
    };
    cmp(fast.R, mpfr_check_.R_mp);
    if (want_nlerp_) cmp(fast.N, mpfr_check_.N_mp);
    if (fast.in_tie_band && mpfr_check_.in_tie_band) {
        cmp(fast.R_other, mpfr_check_.R_other_mp);
        if (want_nlerp_) cmp(fast.N_other, mpfr_check_.N_other_mp);
    }
    if (violated) ++stats_.fast_bound_violations;
    stats_.max_error_to_bound = std::max(stats_.max_error_to_bound, worst);
}

}  // namespace qc

// Arbitrary-precision reals: Boost.Multiprecision's MPFR backend, precision set per variable.
// Hot paths call MPFR directly on the variable (mp(x)) to avoid temporaries; Boost owns the memory.
#pragma once

#include <boost/multiprecision/mpfr.hpp>

#include <array>
#include <string>

namespace qc {

using Real = boost::multiprecision::number<boost::multiprecision::mpfr_float_backend<0>, boost::multiprecision::et_off>;
using RealQuat = std::array<Real, 4>;

inline mpfr_ptr mp(Real &r) { return r.backend().data(); }
inline mpfr_srcptr mp(const Real &r) { return r.backend().data(); }

// Sets the precision of x to bits (discarding its value) unless it already has that precision.
inline void ensure_bits(Real &x, int bits) {
    if (mpfr_get_prec(mp(x)) != bits) mpfr_set_prec(mp(x), bits);
}

inline double to_double(const Real &x) { return mpfr_get_d(mp(x), MPFR_RNDN); }
inline double to_double_up(const Real &x) { return mpfr_get_d(mp(x), MPFR_RNDU); }

// Frees MPFR's per-thread caches (constants such as pi) when the calling thread ends. Every engine
// constructor calls it, so any thread that computes in MPFR through the harness cleans up after itself
// (LeakSanitizer would otherwise report each worker thread's caches).
void free_mpfr_caches_at_thread_exit();

// x in decimal with the given number of significant digits, e.g. for worst_cases.csv.
std::string to_decimal(const Real &x, int digits = 40);

}  // namespace qc

// The two MPFR helpers the correctly rounded slerp's library needs beside slerp_cr.cpp and fast_reference.cpp
// (CMakeLists.txt, QC_SLERP_CR_SOURCES): kept out of reference.cpp so that libquatcheck_slerp_cr.so holds no part
// of the ReferenceEngine.
#include "reference/real.h"
#include "reference/reference.h"

#include <algorithm>
#include <cmath>

namespace qc {

void free_mpfr_caches_at_thread_exit() {
    struct Guard {
        ~Guard() { mpfr_free_cache(); }
    };
    thread_local Guard guard;
    (void)guard;
}

dd::DD round_to_dd(const Real &x) {
    thread_local Real rest;
    ensure_bits(rest, std::max<int>(mpfr_get_prec(mp(x)), 64));
    const double hi = mpfr_get_d(mp(x), MPFR_RNDN);
    if (!std::isfinite(hi)) return {hi, 0};
    mpfr_sub_d(mp(rest), mp(x), hi, MPFR_RNDN);  // exact: hi is x rounded, same exponent range
    return {hi, mpfr_get_d(mp(rest), MPFR_RNDN)};
}

}  // namespace qc

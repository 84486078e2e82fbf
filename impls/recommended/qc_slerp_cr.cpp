// qc-slerp-cr: the correctly rounded slerp of quatcheck/slerp_cr.h (harness/reference/slerp_cr.cpp,
// docs/slerp-cr.md): every component the round-to-nearest-even of the ideal slerp, by Ziv's strategy (the certified
// double-double reference, then MPFR with a rounding test).
#include "quatcheck/slerp_cr.h"

#include "quatcheck/registry.h"

namespace {

const qc_impl_v1 table = {"qc-slerp-cr",   qc_slerp_cr_f32, nullptr, nullptr, nullptr,
                          qc_slerp_cr_f64, nullptr,         nullptr, nullptr};

}  // namespace

QC_REGISTER_IMPL(table, "recommended",
                 "the correctly rounded slerp (quatcheck/slerp_cr.h, docs/slerp-cr.md): per component the nearest "
                 "float of the ideal slerp; certified double-double first phase, MPFR second phase with a counted cap");

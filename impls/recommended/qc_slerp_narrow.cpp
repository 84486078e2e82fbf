// qc-slerp-narrow: qc_slerp.h's f64 as it builds where long double is no wider than double (MSVC, most
// ARM targets), forced here with QC_SLERP_NO_WIDE so that the harness measures the fallback users of those
// platforms get (design choice 4 in the header). f64 only: the f32 path does not depend on it.
#define QC_SLERP_NO_WIDE 1
#include "qc_slerp.h"

#include "quatcheck/registry.h"

namespace {

const qc_impl_v1 table = {"qc-slerp-narrow", nullptr, nullptr, nullptr, nullptr,
                          qc_slerp_f64,      nullptr, nullptr, nullptr};

}  // namespace

QC_REGISTER_IMPL(table, "recommended",
                 "qc_slerp.h's f64 built with QC_SLERP_NO_WIDE (the fallback where long double is double): all in "
                 "double, no claim of max ulp1 <= 2");

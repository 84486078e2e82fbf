// qc-slerp: quatcheck's recommended slerp, the MIT-licensed header impls/recommended/qc_slerp.h that
// users may copy (design choices in its comment block, measurements in docs/recipes.md).
#include "qc_slerp.h"

#include "quatcheck/registry.h"

namespace {

const qc_impl_v1 table = {"qc-slerp", qc_slerp_f32, nullptr, nullptr, nullptr, qc_slerp_f64, nullptr, nullptr, nullptr};

}  // namespace

QC_REGISTER_IMPL(table, "recommended",
                 "quatcheck's own slerp (impls/recommended/qc_slerp.h, MIT): no threshold, inputs normalised in the "
                 "weights; a series in 1 - cos A on small arcs; f64 one acos + one sincos; f32 computed in double "
                 "without libm calls (Abramowitz-Stegun acos + a Newton step, Taylor sin/cos)");

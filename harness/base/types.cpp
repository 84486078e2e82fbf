#include "quatcheck/names.h"
#include "quatcheck/types.h"

namespace qc {

const char *to_string(Precision p) { return p == Precision::f32 ? "f32" : "f64"; }

namespace {
constexpr std::array kOpNames{Named{Op::slerp, "slerp"}, Named{Op::nlerp, "nlerp"}, Named{Op::squad, "squad"}};
static_assert(distinct_names(kOpNames));
}  // namespace

const char *to_string(Op op) { return name_of(kOpNames, op); }
std::optional<Op> parse_op(std::string_view s) { return parse_name(kOpNames, s); }

}  // namespace qc

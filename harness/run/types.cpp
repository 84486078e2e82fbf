#include "quatcheck/types.h"

namespace qc {

const char *to_string(Precision p) { return p == Precision::f32 ? "f32" : "f64"; }

const char *to_string(Op op) {
    switch (op) {
        case Op::slerp:
            return "slerp";
        case Op::nlerp:
            return "nlerp";
        case Op::squad:
            return "squad";
    }
    return "?";
}

std::optional<Op> parse_op(std::string_view s) {
    if (s == "slerp") return Op::slerp;
    if (s == "nlerp") return Op::nlerp;
    if (s == "squad") return Op::squad;
    return std::nullopt;
}

}  // namespace qc

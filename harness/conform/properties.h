// Conformance properties: the promises callers rely on, each checked case by case against the one
// reference (ReferenceEngine) with the one set of metrics (MetricEngine), with a tolerance derived per
// precision (docs/conformance.md).
//
// A property is a row of a table (properties()): a name, the ops it applies to, a RapidCheck generator of
// cases and a check of one case. A case is a flat list of numbers in the implementation's format (printed
// as hexfloats, replayed by `quatcheck conform --case`), read and written through its shape (conform/cases.h),
// so a property with another shape of case (a squad key track, say) is one more shape and one more row of
// table() in properties.cpp.
//
// Tolerances, with eps = 2^(1-p) (docs/conformance.md has the derivation):
//   U       = 16 eps                 norm and endpoint components (ulp1)
//   A(W)    = 2 (16 eps + min(3 eps / sin W, sqrt(6 eps)))   rotation radians, per evaluation
//             16 eps of rounding plus the arc-angle error a routine inherits when it reads W off the
//             dot product computed in the format (|error of a.b| <= 3 eps; acos' = 1/sin W, and at most
//             sqrt(2 * 3 eps) as W -> 0)
#pragma once

#include "conform/cases.h"
#include "metrics/comparison.h"
#include "metrics/metrics.h"
#include "plugins/impls.h"
#include "reference/reference.h"

#include <rapidcheck.h>

#include <array>
#include <functional>
#include <limits>
#include <string>
#include <vector>

namespace qc {

// The outcome of one case: the measured quantity and the tolerance it is held to, in the same unit.
struct CaseOutcome {
    double measured = 0;  // +inf when the implementation returned NaN or inf
    double tolerance = 0;
    bool pass() const { return measured <= tolerance; }
    double ratio() const { return tolerance > 0 ? measured / tolerance : (measured > 0 ? INFINITY : 0); }
};

// Everything a check needs, for one precision: the reference and metric engines and scratch space.
class CheckContext {
public:
    CheckContext(Precision p, ReferenceMode mode) : precision(p), cmp(p, mode) {}
    Precision precision;
    Comparator cmp;
    ReferenceEngine &reference = cmp.reference;
    MetricEngine &metric = cmp.metric;
    SlerpReference ref, ref_end;
    StopToken stop;  // the command's (RunContext::stop): long loops throw Interrupted when it is requested

    double eps() const { return precision_eps(precision); }
    // U: 16 eps, the norm and endpoint tolerance in ulp1.
    double unit_tolerance_ulp1() const { return 16; }
    // A(W): the accuracy budget of one evaluation, in rotation radians, for an arc of W (sphere radians).
    double accuracy_budget(double arc_w) const;
    // Calls op on a case given as doubles (converted exactly to the implementation's format).
    // Returns false when an output component is NaN or inf.
    bool call(const Impl &impl, Op op, const double q0[4], const double q1[4], double t, double out[4]) const;
    // Reference of (q0, q1, t) into ref (validated).
    void reference_of(const double q0[4], const double q1[4], double t, SlerpReference &out);
    // Rotation angle between the outputs u and v (given exactly; v need not be unit).
    double angle_between(const double u[4], const double v[4]);

private:
    RealQuat unit_scratch_;
    Real norm_scratch_;
    uint64_t references_ = 0;
};

struct Property {
    std::string name;
    std::string description;          // one line, for the README and --help
    std::function<bool(Op)> applies;  // false: the verdict is `skip`
    std::string tolerance;            // the formula, e.g. "16 ulp1" or "A(W) rad"
    size_t arity = 9;                 // numbers in a case
    // Generator of cases in the given precision (values representable in it).
    std::function<rc::Gen<CaseValues>(Precision)> gen;
    // Check of one case. Null for a property with its own driver (threshold-continuity's probe).
    std::function<CaseOutcome(CheckContext &, const Impl &, Op, const CaseValues &)> check;
    // Optional driver replacing the generated cases: returns the worst outcome and its case, and the
    // number of cases (implementation evaluations) it used.
    struct ProbeResult {
        CaseOutcome worst;
        CaseValues worst_case;
        uint64_t cases = 0;
    };
    std::function<ProbeResult(CheckContext &, const Impl &, Op)> probe;
    // A claimed-* property (conform/claims.h): the Claim kind a row must have for the property to run on it
    // (rows without it get no verdict at all), and a generator that needs the claim's value (else gen).
    std::string claim = {};
    std::function<rc::Gen<CaseValues>(Precision, double value)> claim_gen = nullptr;
    // An informative property (tables::informative_properties: correctly-rounded) measures something no routine is
    // asked to promise: its verdicts are in conformance.csv and the report like any other, and they are left out of
    // every count of failed properties, of findings' causes and of the fixes' demands.
    bool informative = false;
    // The generator of cases for impl and op: claim_gen with the row's claimed value, else gen.
    rc::Gen<CaseValues> cases_for(const Impl &impl, Op op) const;
    // Whether the property runs on (impl, op) at all: a claimed-* property only on the rows that claim it.
    bool runs_on(const Impl &impl, Op op) const { return claim.empty() || impl.claim(op, claim) != nullptr; }
};

// The property table, in report order.
const std::vector<Property> &properties();
const Property *find_property(const std::string &name);

// One implementation call of a counterexample (explain_case): which call it is, what the routine returned and
// what was expected, and the call's own error against its share of the tolerance.
struct CallRecord {
    std::string label;  // "op(q0,q1,1)": the call, in the property's terms (endpoints: which end)
    std::array<double, 4> q0{}, q1{};
    double t = 0;
    std::array<double, 4> out{};       // as returned (exact in double; NaN or inf as returned)
    std::array<double, 4> expected{};  // the reference of this call (the exact op value, nearest double)
    double err = 0, tol = 0;           // the call's measured value and the budget it is held to
    std::string unit;                  // "ulp1", "rad", "ulp" (correctly-rounded: steps of the format) or ""
    bool failed() const { return !(err <= tol); }
};

// The calls a property makes on case c, in the property's terms (label "op(q0,-q1,t)", keys, t): the one table
// of call shapes, used by explain_case and by `quatcheck findings`' reproducers. Empty for an unknown property or
// a case of the wrong size.
struct PropertyCall {
    std::string label;
    std::array<double, 4> q0{}, q1{};
    double t = 0;
};
std::vector<PropertyCall> property_calls(const Property &property, const CaseValues &c, Precision p);

// The calls of one case of a property, each evaluated again with its reference. err is the property's
// measured value where the property makes one call (finite, unit, shortest-arc, constant-speed), the
// component distance from the expected end in ulp1 for endpoints (at t = 0 and at t = 1), and the rotation
// angle from the call's own reference, held to one budget A(W), where the property relates several calls
// (whenever the relation fails, at least one of them breaks its budget). Empty for an unknown property or a
// case of the wrong size.
std::vector<CallRecord> explain_case(CheckContext &cx, const Impl &impl, Op op, const Property &property,
                                     const CaseValues &c);
// The `calls` column of conformance.csv: one record per call, separated by "; ", each made of
// key=value words without blanks: call=LABEL t=HEX out=W,X,Y,Z expected=W,X,Y,Z err=NUM tol=NUM unit=U
// verdict=pass|fail (hexfloats; unit "none" for finite).
std::string format_calls(const std::vector<CallRecord> &calls);
// The labels of the calls whose verdict is fail, separated by spaces (the `failed_call` column).
std::string failed_calls(const std::vector<CallRecord> &calls);
// Parses a `calls` cell back into its records, each a list of (key, value) in order. Throws UsageError on a
// word without '=' or a record without call=.
std::vector<std::vector<std::pair<std::string, std::string>>> parse_calls(const std::string &text);

}  // namespace qc

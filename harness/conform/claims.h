// The claimed-* conformance properties (claims.cpp): a library's documented figure or behaviour, checked on the
// rows of the families that claim it (Impl::claims; registry.h's Claim) with the figure as the tolerance.
#pragma once

#include "conform/properties.h"

#include <vector>

namespace qc {

// Appends claimed-accuracy, claimed-threshold and claimed-t-clamp to the property table.
void add_claim_properties(std::vector<Property> &table);

// The calls a claimed-* property makes on a case (property_calls); false for any other property.
bool claim_calls(const Property &property, const CaseValues &c, std::vector<PropertyCall> &calls);

// explain_case for a claimed-* property: the call and what the claim expects of it (the exact op, the slerp or
// the normalised lerp on the claimed threshold's side, or the routine's own output at the clamped end).
std::vector<CallRecord> explain_claim(CheckContext &cx, const Impl &impl, Op op, const Property &property,
                                      const CaseValues &c);

}  // namespace qc

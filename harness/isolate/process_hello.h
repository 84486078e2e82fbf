// A process plugin's hello (docs/plugin-protocol.md): the text an adapter prints first, naming its protocol
// version, library, wire, families with their ops and precisions, the deviations its library documents and where
// its squad takes its control points. And the protocol's ops, one table: each EvalFn's number and name on the
// wire, the protocol version that brought it, and the values a case sends.
#pragma once

#include "isolate/eval.h"
#include "quatcheck/registry.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace qc {

// One op of the protocol. fields: indices into an EvalFn record (eval.h: q0 0-3, q1 4-7, s0 8-11, s1 12-15, t 16;
// tau at 8; squad_setup's prev, cur, next at 0-11), in wire order.
struct WireOp {
    EvalFn fn;
    unsigned number;   // a request's op field
    const char *name;  // its name in the hello and on the text wire
    int protocol;      // the first protocol version that has it
    size_t per_case;
    size_t fields[kEvalRecord];
};
// nullptr for an op the protocol does not carry.
const WireOp *wire_op(EvalFn fn);
const WireOp *wire_op(std::string_view name);
// The FunctionBit (eval.h) of an op in a precision.
unsigned function_bit(EvalFn fn, Precision p);

// One process plugin's hello (protocol version 1; 2: version 1 plus the op slerp_tau; 3: version 2 plus the
// ops squad and squad_setup and the record `squad-controls`).
struct ProcessHello {
    struct Family {
        std::string name;
        unsigned functions = 0;                               // FunctionBits (eval.h) of its OP.PRECISION words
        std::vector<KnownDeviation> known;                    // its `known` lines: deviations the library documents
        std::vector<Claim> claims;                            // its `claim` lines: figures the library documents
        SquadControls squad_controls = SquadControls::setup;  // its `squad-controls` line, if any
        bool has(EvalFn fn, Precision p) const { return functions & function_bit(fn, p); }
    };
    int protocol = 1;
    bool text = false;  // `wire text`: batches as hexfloat lines (text_wire.h), else binary
    std::string library, version;
    std::vector<Family> families;
};
constexpr size_t kProcessHelloMaxBytes = 16384;
constexpr unsigned kProcessMaxFamilies = 64;

// Parses a complete hello text (every line ends in '\n', the last line is "end"). Returns an empty string
// on success, otherwise the reason it is refused.
std::string parse_process_hello(const std::string &text, ProcessHello &out);

}  // namespace qc

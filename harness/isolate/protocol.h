// The wire format between the parent and a `quatcheck worker` process. Private to harness/isolate.
//
// fd 3: commands parent -> worker; fd 4: replies worker -> parent; fd 5: a shared memory block (memfd).
// On start the worker sends a hello: uint32 length, then text: "ok\n" followed by one "FAMILY\tMASK\n"
// line per descriptor, or "error\tREASON\n". Then for each batch: the parent fills Shared::in, writes a
// Command; the worker evaluates record by record (progress = the record being evaluated), writes each
// output to Shared::out and answers with a Reply. A dead worker (EOF) is a crash at `progress`.
#pragma once

#include "isolate/eval.h"

#include <atomic>
#include <cstdint>

namespace qc::isolate {

constexpr uint32_t kMagic = 0x51435731;  // "QCW1"
constexpr uint32_t kMaxBatch = 1024;
constexpr int kCommandFd = 3, kReplyFd = 4, kSharedFd = 5;

struct Shared {
    std::atomic<uint32_t> progress;
    uint32_t pad;
    double in[kMaxBatch][kEvalRecord];
    double out[kMaxBatch][4];
};

struct Command {
    uint32_t magic, descriptor, precision, fn, n;  // precision: 0 = f32, 1 = f64
};

struct Reply {
    uint32_t magic, status, done;  // status: 0 ok, 1 out of bounds at record `done`
};

}  // namespace qc::isolate

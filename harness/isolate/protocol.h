// The wire format between the parent and a `quatcheck worker` process. Private to harness/isolate.
//
// fd 3: commands parent -> worker; fd 4: replies worker -> parent; fd 5: a shared memory block (memfd).
// The worker maps fd 5, moves fds 3 and 4 above kWorkerFdFloor and closes every other descriptor; fds 3-9
// then all lead to one trap pipe, checked after every call: a plugin's write there is reported at its case.
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

constexpr int kWorkerFdFloor = 400, kTrapFdFirst = 3, kTrapFdLast = 9;

// seq: a number the parent gives each batch (from a random start per worker) and the worker echoes; an
// answer with another seq (a forked copy of the worker answering twice, a stray write to the reply pipe)
// does not belong to the request and is reported as a protocol violation, never used.
struct Command {
    uint32_t magic, seq, descriptor, precision, fn, n;  // precision: 0 = f32, 1 = f64
};

enum ReplyStatus : uint32_t { kReplyOk = 0, kReplyOutOfBounds = 1, kReplyFdWrite = 2 };
struct Reply {
    uint32_t magic, seq, status, done;  // status: a ReplyStatus, about record `done`
    uint32_t bytes;                     // kReplyFdWrite: bytes the plugin wrote to fds 3-9
};

}  // namespace qc::isolate

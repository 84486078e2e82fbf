// The text variant of the process-plugin protocol (docs/plugin-protocol.md, "The text wire"): an adapter whose
// hello says `wire text` gets each batch as lines of C hexfloats and answers in lines, for languages that
// cannot read binary stdin easily (GDScript, shell, Lua, Octave). Only the encoding differs from the binary
// wire: the same sequence numbers, counts, timeout and containment (process_plugin.cpp).
//
//   request   batch SEQ FAMILY OP.PRECISION N BYTES  e.g. "batch 1 0 slerp.f32 2 290"
//             BYTES bytes: N lines of 9 hexfloats (10 for slerp_tau): q0 (w x y z), q1 (w x y z), t [, tau]
//   answer    answer SEQ N NANOSECONDS
//             N lines of 4 hexfloats (w x y z), each exact in the request's precision, or nan, inf, -inf
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace qc {

// The words of a protocol line, split at each single space (two spaces make an empty word, which no rule
// accepts). Shared by the hello (process_plugin.cpp) and the text wire.
std::vector<std::string> split_words(const std::string &line);

constexpr size_t kTextLineMaxBytes = 512;  // any line of an answer, its newline excluded

// The request text of one batch: `per_case` values of each of the n cases, read from `in` at a stride of
// `record` doubles (values are exact in the precision: `width` 4 or 8 bytes).
std::string encode_text_request(uint32_t seq, unsigned family, const char *op, size_t width, const double *in, size_t n,
                                size_t record, const size_t *fields, size_t per_case);

// An answer read so far, checked line by line as it arrives (feed() with whatever the pipe gave).
class TextAnswer {
public:
    TextAnswer(uint32_t seq, size_t n, size_t width, double *out) : seq_(seq), n_(n), width_(width), out_(out) {}
    // Takes the next bytes. Returns "" while all is well, else the protocol violation (one line).
    std::string feed(const char *p, size_t k);
    bool complete() const { return lines_ == n_ + 1; }
    uint64_t nanoseconds() const { return ns_; }
    size_t lines() const { return lines_; }
    size_t extra_bytes() const { return extra_; }  // bytes after the last line of a complete answer

private:
    std::string line(const std::string &text);  // one whole line, without its newline
    uint32_t seq_;
    size_t n_, width_;
    double *out_;
    std::string partial_;
    size_t lines_ = 0, extra_ = 0;
    uint64_t ns_ = 0;
};

}  // namespace qc

// Shards: `--shard K/N` runs slice K of N of a run's (or a sweep's) cases, and `quatcheck merge` puts the
// reports of the N shards back together. This header holds what both kinds of shard share: the K/N option,
// the case range of a slice, and the checks a merge makes before it trusts the shards (ShardSet). The files
// themselves are the run's shard.bin (run/shard_file.h) and the sweep's sweep_state.json (sweep/sweep.h).
#pragma once

#include "quatcheck/types.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <string>
#include <utility>

namespace qc {

// --shard K/N: slice K (1-based) of N runs cases [(K-1) n / N, K n / N) of every region and precision.
struct Shard {
    int index = 1, count = 1;
    bool whole() const { return count == 1; }
};
// Parses "K/N" with 1 <= K <= N; throws UsageError naming --shard otherwise.
Shard parse_shard(const std::string &text);
// The case range [begin, end) of a shard among n cases.
std::pair<uint64_t, uint64_t> shard_range(const Shard &s, uint64_t n);

// The shards given to one merge, as they are read: each is slice K of N with 1 <= K <= N, all have the
// identity of the first (the options that make them shards of one run or sweep, compared key by key), and
// every K from 1 to N is given exactly once. Each failed check throws InputError "merge: PATH: reason".
class ShardSet {
public:
    // what: "run" or "sweep", for the messages; first_dir: the folder of the first shard given.
    ShardSet(std::string what, std::string first_dir) : what_(std::move(what)), first_dir_(std::move(first_dir)) {}
    // Adds shard index/count read from path, with its identity (a JSON object).
    void add(const std::string &path, int index, int count, const nlohmann::json &identity);
    bool empty() const { return seen_.empty(); }
    // Throws InputError naming every K/N of the split that was not added.
    void require_complete() const;

private:
    std::string what_, first_dir_;
    nlohmann::json identity_;  // the first shard's
    int count_ = 0;
    std::map<int, std::string> seen_;  // index -> path
};

// FNV-1a, 64 bits, of N bytes as 16 hex digits: the checksum of shard.bin's payload, of sweep_state.json, and
// the short stand-in for a report folder name too long to carry a suffix (report/report_dir.cpp).
std::string fnv1a64_hex(const char *p, size_t n);
// The facts that make two shards the same build: version, compiler, flags, libraries (not the CPU).
nlohmann::json build_identity();

}  // namespace qc

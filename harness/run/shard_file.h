// Sharded runs: `quatcheck run --shard K/N` evaluates the K-th of N parts of the cases and also writes
// shard.bin, the unaggregated data of its parts; `quatcheck merge` reads the shard.bin of every shard
// and aggregates them together, which gives exactly the report of the unsharded run with the same seed
// (percentiles and worst cases are taken over the union, maxima and counts merge by max and sum).
//
// shard.bin (little-endian; docs/timing.md "Sharded runs"):
//   "QCSHARD1"                        8 bytes
//   u64 L, then L bytes of JSON       seed, cases, worst_k, regions, ops, impl filters, selected impl-ops,
//                                     shard {index, count}, jobs, wall time, reference counters, slices (the number of parts),
//                                     build (version, compiler, flags, libraries), payload_fnv1a64 (16 hex
//                                     digits: FNV-1a 64 of every byte after the header up to the end marker)
//   per part: u8 precision (0 f32, 1 f64), u8 region (index in all_regions()), u64 begin, u64 end,
//              u64 ties, u32 rows, u32 bins, f64 arc_w[end - begin], then per row (selection order of that
//              precision): u64 branch_disagree, f64 max_ulp, max_ulp1, max_norm_err_ulp1,
//              max_angle_err_vs_nlerp_rad, f64 bin_max_ulp1[bins], u64 m, f64 angle_err_rad[m] (+inf for
//              a non-finite output; m < end - begin when the implementation failed in the range), u8 status
//              (EvalStatus), u64 failed_index, u32 + bytes status_detail, u32 + bytes failed_case
//   "QCSHEND1"                        8 bytes
// About 8 bytes per case and impl-op.
#pragma once

#include "run/runner.h"
#include "base/shard.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace qc {

// The shard.bin of a run (sharded or not).
std::string shard_file(const RunResult &r);

// Reads DIR/shard.bin of every folder (a regular file only, read up to its size), checks each payload
// against its checksum, checks they are the N distinct shards of one run (ShardSet: same seed, cases,
// regions, selection, impl filters, reference mode, build) whose parts tile every region's cases exactly
// once, resolves the implementations in the catalogue and returns the run (its plan and every part), not
// yet aggregated. Throws InputError "merge: PATH: reason" for a missing, truncated,
// foreign or mismatched file, a missing or repeated shard, or an implementation that is not loaded.
RunResult read_shards(const std::vector<std::string> &dirs, const std::vector<Impl> &catalogue);

// (quatcheck merge is read_shards, aggregate and the worst-case search: merge_shards in pipeline/pipeline.h.)

}  // namespace qc

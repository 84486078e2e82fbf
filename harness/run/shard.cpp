#include "run/shard.h"
#include "reference/stats_json.h"
#include "run/build_info.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <bit>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace qc {

static_assert(std::endian::native == std::endian::little, "shard.bin is little-endian");

std::string fnv1a64_hex(const char *p, size_t n) {
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < n; i++) h = (h ^ uint8_t(p[i])) * 0x100000001b3ull;
    return fmt::format("{:016x}", h);
}

nlohmann::json build_identity() {
    nlohmann::json b = build_info(), out;
    for (const char *k :
         {"quatcheck_version", "compiler", "cxx_flags", "build_type", "mpfr_version", "gmp_version", "boost_version"})
        if (b.contains(k)) out[k] = b[k];
    return out;
}

namespace {

constexpr char kMagic[9] = "QCSHARD1";
constexpr char kEnd[9] = "QCSHEND1";

template <class V> void put(std::string &s, V v) { s.append(reinterpret_cast<const char *>(&v), sizeof v); }
void put_doubles(std::string &s, const std::vector<double> &v) {
    s.append(reinterpret_cast<const char *>(v.data()), v.size() * sizeof(double));
}

void put_string(std::string &s, const std::string &v) {
    put<uint32_t>(s, uint32_t(v.size()));
    s += v;
}

// A shard's payload (every byte after the header up to the end marker) has its checksum in the header:
// merge refuses a shard whose payload changed after it was written.
std::string payload_checksum(const char *p, size_t n) { return fnv1a64_hex(p, n); }

nlohmann::json stats_json(const ReferenceStats &s) { return s; }
ReferenceStats stats_from(const nlohmann::json &j) { return j.get<ReferenceStats>(); }

// A bounds-checked reader over the file's bytes.
struct Cursor {
    const std::string &data;
    const std::string &path;
    size_t pos = 0;
    void need(size_t n) {
        if (data.size() - pos < n)
            throw InputError(
                fmt::format("merge: {}: truncated at byte {} (the shard did not finish writing?)", path, pos));
    }
    template <class V> V get() {
        need(sizeof(V));
        V v;
        std::memcpy(&v, data.data() + pos, sizeof v);
        pos += sizeof v;
        return v;
    }
    std::string string() {
        uint32_t n = get<uint32_t>();
        need(n);
        std::string v = data.substr(pos, n);
        pos += n;
        return v;
    }
    std::vector<double> doubles(uint64_t n) {
        if (n > (data.size() - pos) / sizeof(double)) need(data.size() + 1);
        std::vector<double> v(n);
        if (n)
            std::memcpy(v.data(), data.data() + pos,
                        n * sizeof(double));  // (memcpy from or to null is UB, even of 0 bytes)
        pos += n * sizeof(double);
        return v;
    }
};

}  // namespace

std::string shard_file(const RunResult &r) {
    using nlohmann::json;
    json h;
    h["format"] = "quatcheck-shard";
    h["version"] = 1;
    h["seed"] = r.options.seed;
    h["cases"] = r.options.cases;
    h["worst_k"] = r.options.worst_k;
    put_reference_mode(h, r.options.reference);  // merge runs the search with the shards' mode
    json regions = json::array(), ops = json::array(), selected = json::array();
    for (Region g : r.options.regions) regions.push_back(to_string(g));
    for (Op op : r.options.ops) ops.push_back(to_string(op));
    for (const auto &io : r.selected) selected.push_back({{"impl", io.impl->name}, {"op", to_string(io.op)}});
    h["regions"] = regions;
    h["ops"] = ops;
    h["impl_filters"] = r.options.impl_filters;
    h["selected"] = selected;
    h["shard"] = {{"index", r.options.shard.index}, {"count", r.options.shard.count}};
    h["jobs"] = r.jobs;
    h["wall_time_s"] = r.wall_time_s;
    h["reference"] = {{"f32", stats_json(r.reference_f32)}, {"f64", stats_json(r.reference_f64)}};
    h["slices"] = r.slices.size();
    h["build"] = build_identity();

    std::string s;  // the payload, then header and markers around it
    const auto &regs = all_regions();
    for (const RegionSlice &sl : r.slices) {
        put<uint8_t>(s, sl.precision == Precision::f32 ? 0 : 1);
        put<uint8_t>(s, uint8_t(std::find(regs.begin(), regs.end(), sl.region) - regs.begin()));
        put<uint64_t>(s, sl.begin);
        put<uint64_t>(s, sl.end);
        put<uint64_t>(s, sl.ties);
        put<uint32_t>(s, uint32_t(sl.rows.size()));
        put<uint32_t>(s, uint32_t(curve_bins().size()));
        put_doubles(s, sl.arc_w);
        for (const RowSlice &row : sl.rows) {
            put<uint64_t>(s, row.branch_disagree);
            for (double x : {row.max_ulp, row.max_ulp1, row.max_norm_err_ulp1, row.max_angle_err_vs_nlerp_rad})
                put(s, x);
            put_doubles(s, row.bin_max_ulp1);
            put<uint64_t>(s, row.angle_err_rad.size());
            put_doubles(s, row.angle_err_rad);
            put<uint8_t>(s, uint8_t(row.status));
            put<uint64_t>(s, row.failed_index);
            put_string(s, row.status_detail);
            put_string(s, row.failed_case);
        }
    }
    h["payload_fnv1a64"] = payload_checksum(s.data(), s.size());
    const std::string header = h.dump();
    std::string file(kMagic, 8);
    put<uint64_t>(file, header.size());
    file += header;
    file += s;
    file.append(kEnd, 8);
    return file;
}

RunResult read_shards(const std::vector<std::string> &dirs, const std::vector<Impl> &catalogue) {
    if (dirs.empty()) throw UsageError("merge: name the report folders of every shard");
    RunResult result;
    nlohmann::json first;
    std::vector<int> seen;
    const size_t nbins = curve_bins().size();
    for (const std::string &dir : dirs) {
        const std::string path = (std::filesystem::path(dir) / "shard.bin").string();
        // Bounded: a regular file only (a folder, a FIFO or /dev/zero is refused before any read), and no
        // more than its size.
        std::error_code ec;
        const auto st = std::filesystem::status(path, ec);
        if (ec || !std::filesystem::exists(st))
            throw InputError(fmt::format("merge: {}: cannot read (was the shard run with --shard K/N?)", path));
        if (!std::filesystem::is_regular_file(st)) throw InputError(fmt::format("merge: {}: not a regular file", path));
        const uintmax_t size = std::filesystem::file_size(path, ec);
        if (ec || size > (uintmax_t(1) << 40))
            throw InputError(fmt::format("merge: {}: unreadable or larger than 1 TiB", path));
        std::ifstream in(path, std::ios::binary);
        if (!in) throw InputError(fmt::format("merge: {}: cannot read (was the shard run with --shard K/N?)", path));
        std::string data(size_t(size), '\0');
        in.read(data.data(), std::streamsize(size));
        if (size_t(in.gcount()) != size)
            throw InputError(fmt::format("merge: {}: changed size while being read", path));
        Cursor c{data, path};
        c.need(8);
        if (data.compare(0, 8, kMagic, 8) != 0)
            throw InputError(fmt::format("merge: {}: not a quatcheck shard file", path));
        c.pos = 8;
        uint64_t len = c.get<uint64_t>();
        c.need(len);
        nlohmann::json h = nlohmann::json::parse(data.substr(c.pos, len), nullptr, false);
        c.pos += len;
        if (h.is_discarded() || !h.is_object() || !h.contains("format") || h["format"] != "quatcheck-shard" ||
            !h.contains("version") || h["version"] != 1)
            throw InputError(fmt::format("merge: {}: unreadable header or unknown shard format version", path));
        // The payload's checksum, before any of it is trusted.
        if (!h.contains("payload_fnv1a64") || !h["payload_fnv1a64"].is_string())
            throw InputError(
                fmt::format("merge: {}: no payload checksum (written by an older quatcheck: rerun the shard)", path));
        if (data.size() < c.pos + 8 ||
            payload_checksum(data.data() + c.pos, data.size() - c.pos - 8) != h["payload_fnv1a64"].get<std::string>())
            throw InputError(fmt::format(
                "merge: {}: payload checksum mismatch (the file was changed or damaged after it was written)", path));
        try {
            int index = h.at("shard").at("index"), count = h.at("shard").at("count");
            if (count < 1 || index < 1 || index > count)
                throw InputError(
                    fmt::format("merge: {}: shard {}/{} is not a slice K/N with 1 <= K <= N", path, index, count));
            if (seen.empty()) {
                first = h;
                result.options.seed = h.at("seed");
                result.options.cases = h.at("cases");
                result.options.worst_k = h.at("worst_k");
                result.options.reference = get_reference_mode(h, path);
                // Names from the header are checked like any input (the checksum covers the payload only).
                auto known = [&](auto parsed, const std::string &what, const std::string &name) {
                    if (!parsed)
                        throw InputError(
                            fmt::format("merge: {}: unknown {} '{}' in the shard header", path, what, name));
                    return *parsed;
                };
                for (const auto &g : h.at("regions"))
                    result.options.regions.push_back(
                        known(parse_region(g.get<std::string>()), "region", g.get<std::string>()));
                for (const auto &op : h.at("ops"))
                    result.options.ops.push_back(known(parse_op(op.get<std::string>()), "op", op.get<std::string>()));
                result.options.impl_filters = h.at("impl_filters").get<std::vector<std::string>>();
                for (const auto &e : h.at("selected")) {
                    std::string name = e.at("impl");
                    auto it =
                        std::find_if(catalogue.begin(), catalogue.end(), [&](const Impl &i) { return i.name == name; });
                    if (it == catalogue.end())
                        throw InputError(fmt::format(
                            "merge: {}: implementation '{}' is not loaded (pass the run's --plugin)", path, name));
                    result.selected.push_back(
                        {&*it, known(parse_op(e.at("op").get<std::string>()), "op", e.at("op").get<std::string>())});
                }
            } else {
                for (const char *key :
                     {"seed", "cases", "worst_k", "regions", "ops", "impl_filters", "selected", "build"})
                    if (h.at(key) != first.at(key))
                        throw InputError(fmt::format("merge: {}: '{}' differs from {}'s: not shards of one run", path,
                                                     key, dirs.front()));
                if (get_reference_mode(h, path) != result.options.reference)
                    throw InputError(fmt::format("merge: {}: 'reference' differs from {}'s: not shards of one run",
                                                 path, dirs.front()));
                if (count != first.at("shard").at("count").get<int>())
                    throw InputError(fmt::format("merge: {}: shard {}/{} belongs to a run split {} ways", path, index,
                                                 count, first.at("shard").at("count").get<int>()));
            }
            if (std::find(seen.begin(), seen.end(), index) != seen.end())
                throw InputError(fmt::format("merge: {}: shard {}/{} given twice", path, index, count));
            seen.push_back(index);
            result.reference_f32.add(stats_from(h.at("reference").at("f32")));
            result.reference_f64.add(stats_from(h.at("reference").at("f64")));
            result.jobs = std::max(result.jobs, h.at("jobs").get<int>());
            result.wall_time_s += h.at("wall_time_s").get<double>();
            const uint64_t slices = h.at("slices");
            const auto &regs = all_regions();
            for (uint64_t k = 0; k < slices; k++) {
                RegionSlice sl;
                uint8_t p = c.get<uint8_t>(), g = c.get<uint8_t>();
                if (p > 1 || g >= regs.size()) throw InputError(fmt::format("merge: {}: corrupt slice header", path));
                sl.precision = p == 0 ? Precision::f32 : Precision::f64;
                sl.region = regs[g];
                sl.begin = c.get<uint64_t>(), sl.end = c.get<uint64_t>(), sl.ties = c.get<uint64_t>();
                uint32_t rows = c.get<uint32_t>(), bins = c.get<uint32_t>();
                if (sl.end < sl.begin || sl.end > result.options.cases || bins != nbins)
                    throw InputError(fmt::format("merge: {}: corrupt slice header", path));
                const uint64_t n = sl.end - sl.begin;
                sl.arc_w = c.doubles(n);
                for (uint32_t r = 0; r < rows; r++) {
                    RowSlice row;
                    row.branch_disagree = c.get<uint64_t>();
                    row.max_ulp = c.get<double>(), row.max_ulp1 = c.get<double>();
                    row.max_norm_err_ulp1 = c.get<double>(), row.max_angle_err_vs_nlerp_rad = c.get<double>();
                    row.bin_max_ulp1 = c.doubles(bins);
                    const uint64_t evaluated = c.get<uint64_t>();
                    if (evaluated > n) throw InputError(fmt::format("merge: {}: corrupt row", path));
                    row.angle_err_rad = c.doubles(evaluated);
                    const uint8_t status = c.get<uint8_t>();
                    if (status > uint8_t(EvalStatus::interrupted))
                        throw InputError(fmt::format("merge: {}: corrupt row status", path));
                    row.status = EvalStatus(status);
                    row.failed_index = c.get<uint64_t>();
                    row.status_detail = c.string();
                    row.failed_case = c.string();
                    sl.rows.push_back(std::move(row));
                }
                result.slices.push_back(std::move(sl));
            }
        } catch (const nlohmann::json::exception &e) {
            throw InputError(fmt::format("merge: {}: malformed header: {}", path, e.what()));
        }
        c.need(8);
        if (data.compare(c.pos, 8, kEnd, 8) != 0 || c.pos + 8 != data.size())
            throw InputError(fmt::format("merge: {}: corrupt (end marker not where expected)", path));
    }
    const int count = first.at("shard").at("count");
    if (int(seen.size()) != count) {
        std::string missing;
        for (int k = 1; k <= count; k++)
            if (std::find(seen.begin(), seen.end(), k) == seen.end()) missing += fmt::format(" {}/{}", k, count);
        throw InputError(fmt::format("merge: shards missing:{} (every shard of the run is needed)", missing));
    }
    // The slices must be a partition: per precision and region, ranges that tile [0, cases) exactly once,
    // each with one row per selected implementation of that precision.
    for (Precision p : {Precision::f32, Precision::f64}) {
        size_t rows = 0;
        for (const auto &io : result.selected) rows += io.impl->precision == p;
        for (Region g : result.options.run_regions()) {
            std::vector<std::pair<uint64_t, uint64_t>> ranges;
            for (const auto &sl : result.slices) {
                if (sl.precision != p || sl.region != g) continue;
                if (sl.rows.size() != rows)
                    throw InputError(fmt::format("merge: a slice of {} {} has {} rows, the selection {}", to_string(g),
                                                 p == Precision::f32 ? "f32" : "f64", sl.rows.size(), rows));
                ranges.push_back({sl.begin, sl.end});
            }
            if (rows == 0 && ranges.empty()) continue;
            std::sort(ranges.begin(), ranges.end());
            uint64_t at = 0;
            for (const auto &[b, e] : ranges) {
                if (b != at)
                    throw InputError(fmt::format("merge: cases {}..{} of {} {} are {} (not a partition of one run)",
                                                 std::min(at, b), std::max(at, b), to_string(g),
                                                 p == Precision::f32 ? "f32" : "f64",
                                                 b > at ? "missing" : "covered twice"));
                at = e;
            }
            if (at != result.options.cases)
                throw InputError(fmt::format("merge: cases {}..{} of {} {} are missing (not a partition of one run)",
                                             at, result.options.cases, to_string(g),
                                             p == Precision::f32 ? "f32" : "f64"));
        }
    }
    return result;
}

}  // namespace qc

#include "run/shard_file.h"
#include "reference/stats_json.h"
#include "base/build_info.h"

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
    h["version"] = 2;  // 2: each row's argmax case indices (issue 38)
    h["seed"] = r.plan.options.seed;
    h["cases"] = r.plan.options.cases;
    h["worst_k"] = r.plan.options.worst_k;
    put_reference_mode(h, r.plan.options.reference);  // merge runs the search with the shards' mode
    json regions = json::array(), ops = json::array(), selected = json::array();
    for (Region g : r.plan.options.regions) regions.push_back(to_string(g));
    for (Op op : r.plan.options.ops) ops.push_back(to_string(op));
    for (const auto &io : r.plan.selected) selected.push_back({{"impl", io.impl->name}, {"op", to_string(io.op)}});
    h["regions"] = regions;
    h["ops"] = ops;
    h["impl_filters"] = r.plan.options.impl_filters;
    h["selected"] = selected;
    h["shard"] = {{"index", r.plan.options.shard.index}, {"count", r.plan.options.shard.count}};
    h["jobs"] = r.jobs;
    h["wall_time_s"] = r.wall_time_s;
    h["reference"] = {{"f32", stats_json(r.reference_f32)}, {"f64", stats_json(r.reference_f64)}};
    h["slices"] = r.parts.size();  // the file format's name for the region parts
    h["build"] = build_identity();

    std::string s;  // the payload, then header and markers around it
    const auto &regs = all_regions();
    for (const RegionPart &part : r.parts) {
        put<uint8_t>(s, part.precision == Precision::f32 ? 0 : 1);
        put<uint8_t>(s, uint8_t(std::find(regs.begin(), regs.end(), part.region) - regs.begin()));
        put<uint64_t>(s, part.begin);
        put<uint64_t>(s, part.end);
        put<uint64_t>(s, part.ties);
        put<uint32_t>(s, uint32_t(part.rows.size()));
        put<uint32_t>(s, uint32_t(curve_bins().size()));
        put_doubles(s, part.arc_w);
        for (const RowPart &row : part.rows) {
            put<uint64_t>(s, row.branch_disagree);
            for (double x : {row.max_ulp, row.max_ulp1, row.max_norm_err_ulp1, row.max_angle_err_vs_nlerp_rad})
                put(s, x);
            for (uint64_t i : {row.argmax_ulp, row.argmax_ulp1, row.argmax_norm}) put<uint64_t>(s, i);
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

namespace {

// The bytes of DIR/shard.bin. Bounded: a regular file only (a folder, a FIFO or /dev/zero is refused before
// any read), and no more than its size.
std::string read_shard_bytes(const std::string &path) {
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
    if (size_t(in.gcount()) != size) throw InputError(fmt::format("merge: {}: changed size while being read", path));
    return data;
}

// The header of a shard file, with the cursor left at the payload, whose checksum it verifies before any of
// the payload is trusted.
nlohmann::json read_header(Cursor &c) {
    const std::string &data = c.data, &path = c.path;
    c.need(8);
    if (data.compare(0, 8, kMagic, 8) != 0)
        throw InputError(fmt::format("merge: {}: not a quatcheck shard file", path));
    c.pos = 8;
    uint64_t len = c.get<uint64_t>();
    c.need(len);
    nlohmann::json h = nlohmann::json::parse(data.substr(c.pos, len), nullptr, false);
    c.pos += len;
    if (h.is_discarded() || !h.is_object() || !h.contains("format") || h["format"] != "quatcheck-shard" ||
        !h.contains("version"))
        throw InputError(fmt::format("merge: {}: unreadable header or unknown shard format version", path));
    if (h["version"] != 2)
        throw InputError(
            fmt::format("merge: {}: shard format version {} (this quatcheck reads 2): rerun the shard with "
                        "this quatcheck",
                        path, h["version"].dump()));
    if (!h.contains("payload_fnv1a64") || !h["payload_fnv1a64"].is_string())
        throw InputError(
            fmt::format("merge: {}: no payload checksum (written by an older quatcheck: rerun the shard)", path));
    if (data.size() < c.pos + 8 ||
        payload_checksum(data.data() + c.pos, data.size() - c.pos - 8) != h["payload_fnv1a64"].get<std::string>())
        throw InputError(fmt::format(
            "merge: {}: payload checksum mismatch (the file was changed or damaged after it was written)", path));
    return h;
}

// What must agree between the shards of one run.
nlohmann::json run_identity(const nlohmann::json &h) {
    nlohmann::json id = nlohmann::json::object();
    for (const char *key : {"seed", "cases", "worst_k", "regions", "ops", "impl_filters", "selected", "build"})
        id[key] = h.at(key);
    id[kReferenceModeKey] = h.contains(kReferenceModeKey) ? h[kReferenceModeKey] : nlohmann::json();
    return id;
}

// The run's plan from the first shard's header, its implementations resolved in the catalogue. Names from
// the header are checked like any input (the checksum covers the payload only).
RunPlan plan_from_header(const nlohmann::json &h, const std::string &path, const std::vector<Impl> &catalogue) {
    auto known = [&](auto parsed, const std::string &what, const std::string &name) {
        if (!parsed) throw InputError(fmt::format("merge: {}: unknown {} '{}' in the shard header", path, what, name));
        return *parsed;
    };
    RunOptions o;
    o.seed = h.at("seed");
    o.cases = h.at("cases");
    o.worst_k = h.at("worst_k");
    o.reference = get_reference_mode(h, path);
    for (const auto &g : h.at("regions"))
        o.regions.push_back(known(parse_region(g.get<std::string>()), "region", g.get<std::string>()));
    for (const auto &op : h.at("ops"))
        o.ops.push_back(known(parse_op(op.get<std::string>()), "op", op.get<std::string>()));
    o.impl_filters = h.at("impl_filters").get<std::vector<std::string>>();
    std::vector<ImplOp> selected;
    for (const auto &e : h.at("selected")) {
        std::string name = e.at("impl");
        auto it = std::find_if(catalogue.begin(), catalogue.end(), [&](const Impl &i) { return i.name == name; });
        if (it == catalogue.end())
            throw InputError(
                fmt::format("merge: {}: implementation '{}' is not loaded (pass the run's --plugin)", path, name));
        selected.push_back({&*it, known(parse_op(e.at("op").get<std::string>()), "op", e.at("op").get<std::string>())});
    }
    return plan_run(o, std::move(selected));
}

// The payload's parts (the header says how many), appended to `parts`; the cursor ends at the end marker.
void read_parts(Cursor &c, uint64_t count, uint64_t cases, std::vector<RegionPart> &parts) {
    const std::string &path = c.path;
    const size_t nbins = curve_bins().size();
    const auto &regs = all_regions();
    for (uint64_t k = 0; k < count; k++) {
        RegionPart part;
        uint8_t p = c.get<uint8_t>(), g = c.get<uint8_t>();
        if (p > 1 || g >= regs.size()) throw InputError(fmt::format("merge: {}: corrupt region-part header", path));
        part.precision = p == 0 ? Precision::f32 : Precision::f64;
        part.region = regs[g];
        part.begin = c.get<uint64_t>(), part.end = c.get<uint64_t>(), part.ties = c.get<uint64_t>();
        uint32_t rows = c.get<uint32_t>(), bins = c.get<uint32_t>();
        if (part.end < part.begin || part.end > cases || bins != nbins)
            throw InputError(fmt::format("merge: {}: corrupt region-part header", path));
        const uint64_t n = part.end - part.begin;
        part.arc_w = c.doubles(n);
        for (uint32_t r = 0; r < rows; r++) {
            RowPart row;
            row.ties = part.ties;  // a shard has no --cases-for caps: every row has the region part's ties
            row.branch_disagree = c.get<uint64_t>();
            row.max_ulp = c.get<double>(), row.max_ulp1 = c.get<double>();
            row.max_norm_err_ulp1 = c.get<double>(), row.max_angle_err_vs_nlerp_rad = c.get<double>();
            row.argmax_ulp = c.get<uint64_t>(), row.argmax_ulp1 = c.get<uint64_t>(),
            row.argmax_norm = c.get<uint64_t>();
            for (uint64_t i : {row.argmax_ulp, row.argmax_ulp1, row.argmax_norm})
                if (i != kNoCase && (i < part.begin || i >= part.end))
                    throw InputError(fmt::format("merge: {}: corrupt row", path));
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
            part.rows.push_back(std::move(row));
        }
        parts.push_back(std::move(part));
    }
    c.need(8);
    if (c.data.compare(c.pos, 8, kEnd, 8) != 0 || c.pos + 8 != c.data.size())
        throw InputError(fmt::format("merge: {}: corrupt (end marker not where expected)", path));
}

// The parts must be a partition: per precision and region of the plan, ranges that tile [0, cases) exactly
// once, each with one row per selected implementation of that precision.
void check_partition(const RunResult &result) {
    const RunPlan &plan = result.plan;
    for (Precision p : {Precision::f32, Precision::f64}) {
        const size_t rows = plan.rows(p).size();
        const char *prec = p == Precision::f32 ? "f32" : "f64";
        for (Region g : plan.regions) {
            std::vector<std::pair<uint64_t, uint64_t>> ranges;
            for (const auto &part : result.parts) {
                if (part.precision != p || part.region != g) continue;
                if (part.rows.size() != rows)
                    throw InputError(fmt::format("merge: a region part of {} {} has {} rows, the selection {}",
                                                 to_string(g), prec, part.rows.size(), rows));
                ranges.push_back({part.begin, part.end});
            }
            if (rows == 0 && ranges.empty()) continue;
            std::sort(ranges.begin(), ranges.end());
            uint64_t at = 0;
            for (const auto &[b, e] : ranges) {
                if (b != at)
                    throw InputError(fmt::format("merge: cases {}..{} of {} {} are {} (not a partition of one run)",
                                                 std::min(at, b), std::max(at, b), to_string(g), prec,
                                                 b > at ? "missing" : "covered twice"));
                at = e;
            }
            if (at != plan.options.cases)
                throw InputError(fmt::format("merge: cases {}..{} of {} {} are missing (not a partition of one run)",
                                             at, plan.options.cases, to_string(g), prec));
        }
    }
}

}  // namespace

RunResult read_shards(const std::vector<std::string> &dirs, const std::vector<Impl> &catalogue) {
    if (dirs.empty()) throw UsageError("merge: name the report folders of every shard");
    RunResult result;
    ShardSet shards("run", dirs.front());
    for (const std::string &dir : dirs) {
        const std::string path = (std::filesystem::path(dir) / "shard.bin").string();
        const std::string data = read_shard_bytes(path);
        Cursor c{data, path};
        const nlohmann::json h = read_header(c);
        try {
            const bool first = shards.empty();
            shards.add(path, h.at("shard").at("index"), h.at("shard").at("count"), run_identity(h));
            if (first) result.plan = plan_from_header(h, path, catalogue);
            result.reference_f32.add(stats_from(h.at("reference").at("f32")));
            result.reference_f64.add(stats_from(h.at("reference").at("f64")));
            result.jobs = std::max(result.jobs, h.at("jobs").get<int>());
            result.wall_time_s += h.at("wall_time_s").get<double>();
            read_parts(c, h.at("slices"), result.plan.options.cases, result.parts);
        } catch (const nlohmann::json::exception &e) {
            throw InputError(fmt::format("merge: {}: malformed header: {}", path, e.what()));
        }
    }
    shards.require_complete();
    check_partition(result);
    return result;
}

}  // namespace qc

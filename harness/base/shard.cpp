#include "base/shard.h"
#include "base/build_info.h"

#include <fmt/format.h>

#include <string>

namespace qc {

std::pair<uint64_t, uint64_t> shard_range(const Shard &s, uint64_t n) {
    auto at = [&](int k) { return uint64_t((unsigned __int128)n * unsigned(k) / unsigned(s.count)); };
    return {at(s.index - 1), at(s.index)};
}

Shard parse_shard(const std::string &text) {
    auto bad = [&] {
        return UsageError(fmt::format("--shard: expected K/N with 1 <= K <= N (e.g. 2/4), got '{}'", text));
    };
    size_t slash = text.find('/');
    if (slash == std::string::npos) throw bad();
    auto number = [&](const std::string &s) {
        if (s.empty() || s.size() > 6 || s.find_first_not_of("0123456789") != std::string::npos) throw bad();
        return std::stoi(s);
    };
    Shard shard{number(text.substr(0, slash)), number(text.substr(slash + 1))};
    if (shard.count < 1 || shard.index < 1 || shard.index > shard.count) throw bad();
    return shard;
}

void ShardSet::add(const std::string &path, int index, int count, const nlohmann::json &identity) {
    if (count < 1 || index < 1 || index > count)
        throw InputError(fmt::format("merge: {}: shard {}/{} is not a slice K/N with 1 <= K <= N", path, index, count));
    if (seen_.empty()) {
        identity_ = identity, count_ = count;
    } else {
        for (const auto &[key, value] : identity_.items())
            if (!identity.contains(key) || identity[key] != value)
                throw InputError(fmt::format("merge: {}: '{}' differs from {}'s: not shards of one {}", path, key,
                                             first_dir_, what_));
        if (identity.size() != identity_.size())
            throw InputError(
                fmt::format("merge: {}: not shards of one {} (other options than {}'s)", path, what_, first_dir_));
        if (count != count_)
            throw InputError(
                fmt::format("merge: {}: shard {}/{} belongs to a {} split {} ways", path, index, count, what_, count_));
    }
    if (auto [it, fresh] = seen_.emplace(index, path); !fresh)
        throw InputError(fmt::format("merge: {}: shard {}/{} given twice (also {})", path, index, count, it->second));
}

void ShardSet::require_complete() const {
    std::string missing;
    for (int k = 1; k <= count_; k++)
        if (!seen_.count(k)) missing += fmt::format(" {}/{}", k, count_);
    if (!missing.empty())
        throw InputError(fmt::format("merge: shards missing:{} (every shard of the {} is needed)", missing, what_));
}

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

}  // namespace qc

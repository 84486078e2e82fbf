#include "plugins/select.h"

#include "quatcheck/types.h"

#include <fmt/format.h>

namespace qc {

bool glob_match(const std::string &pattern, const std::string &text) {
    size_t p = 0, t = 0, star = std::string::npos, mark = 0;
    while (t < text.size()) {
        if (p < pattern.size() && (pattern[p] == '?' || pattern[p] == text[t])) {
            ++p, ++t;
            continue;
        }
        if (p < pattern.size() && pattern[p] == '*') {
            star = p++, mark = t;
            continue;
        }
        if (star != std::string::npos) {
            p = star + 1, t = ++mark;
            continue;
        }
        return false;
    }
    while (p < pattern.size() && pattern[p] == '*') ++p;
    return p == pattern.size();
}

bool filter_matches(const std::string &filter, const Impl &impl) {
    if (filter == impl.name || filter == impl.family) return true;
    return impl.group != "bench" && glob_match(filter, impl.name);
}

std::vector<const Impl *> select_implementations(const std::vector<Impl> &catalogue,
                                                 const std::vector<std::string> &filters,
                                                 const std::function<bool(const Impl &)> &usable,
                                                 std::string_view what) {
    std::vector<const Impl *> out;
    for (const auto &i : catalogue) {
        if (usable && !usable(i)) continue;
        bool take = filters.empty() && i.group != "broken" && i.group != "bench";
        for (const auto &f : filters) take = take || filter_matches(f, i);
        if (take) out.push_back(&i);
    }
    for (const auto &f : filters) {
        bool any = false;
        for (const Impl *i : out) any = any || filter_matches(f, *i);
        if (!any) throw UsageError(fmt::format("--impl: no {} matches '{}' (see quatcheck list)", what, f));
    }
    return out;
}

std::vector<ImplOp> select_impls(const std::vector<Impl> &catalogue, const std::vector<std::string> &filters,
                                 const std::vector<Op> &ops) {
    const std::vector<Op> want = ops.empty() ? std::vector<Op>{Op::slerp, Op::nlerp} : ops;
    std::vector<ImplOp> out;
    for (const Impl *i : select_implementations(catalogue, filters))
        for (Op op : want)
            if (op != Op::squad && i->supports(op)) out.push_back({i, op});
    return out;
}

}  // namespace qc

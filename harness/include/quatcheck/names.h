// Enums the tool prints and parses by name (regions, operations, verdicts, ...): one table of (value, name)
// rows per enum, and one lookup each way, so that printing and parsing cannot drift apart.
//
//   constexpr std::array kOpNames{Named{Op::slerp, "slerp"}, Named{Op::nlerp, "nlerp"}, Named{Op::squad, "squad"}};
//   static_assert(distinct_names(kOpNames));
//   name_of(kOpNames, Op::nlerp)      -> "nlerp"   ("?" for a value the table does not list)
//   parse_name(kOpNames, "squad")     -> Op::squad (std::nullopt for a name the table does not list)
//   values_of<kOpNames>()             -> {slerp, nlerp, squad}, in the table's order (a static vector)
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string_view>
#include <vector>

namespace qc {

template <class E> struct Named {
    E value;
    const char *name;
};

// True when no two rows share a value or a name (check a table with static_assert).
template <class E, size_t N> constexpr bool distinct_names(const std::array<Named<E>, N> &table) {
    for (size_t i = 0; i < N; i++)
        for (size_t j = i + 1; j < N; j++)
            if (table[i].value == table[j].value || std::string_view(table[i].name) == table[j].name) return false;
    return true;
}

template <class E, size_t N> constexpr const char *name_of(const std::array<Named<E>, N> &table, E v) {
    for (const auto &row : table)
        if (row.value == v) return row.name;
    return "?";
}

template <class E, size_t N>
constexpr std::optional<E> parse_name(const std::array<Named<E>, N> &table, std::string_view s) {
    for (const auto &row : table)
        if (s == row.name) return row.value;
    return std::nullopt;
}

// The values of a table (a constexpr variable), in its order, as one vector made on first use.
template <const auto &Table> const auto &values_of() {
    using E = decltype(Table[0].value);
    static const std::vector<E> values = [] {
        std::vector<E> v;
        for (const auto &row : Table) v.push_back(row.value);
        return v;
    }();
    return values;
}

}  // namespace qc

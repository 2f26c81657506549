#pragma once
// Facts: what the decision tree may test about a workload and its estimates. A typed map from a
// fact name to a number, string, bool or list of strings; every name, unit and formula is listed
// in fact_definitions() and docs/decision-rules.md.

#include "gpuplan/catalog/catalog.hpp"
#include "gpuplan/estimate/estimate.hpp"
#include "gpuplan/workload/workload.hpp"

#include <map>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace gpuplan::decide {

enum class FactType { number, string, boolean, list };

// A fact's value: a number, a string, a bool or a list of strings.
using FactValue = std::variant<double, std::string, bool, std::vector<std::string>>;

// Facts by name; a fact that is unknown for this workload is absent, never a sentinel value.
using Facts = std::map<std::string, FactValue, std::less<>>;

// One fact the tree may test: its type, unit, how it is computed and, for strings, its values.
struct FactDefinition {
    std::string_view name;
    FactType type = FactType::number;
    std::string_view unit; // empty for unit-less facts
    std::string_view meaning;
    std::vector<std::string_view> choices; // string facts with a closed set of values
};

// Every fact make_facts() can produce, in documentation order.
[[nodiscard]] const std::vector<FactDefinition>& fact_definitions();

// The definition of `name`; nullptr when no such fact exists.
[[nodiscard]] const FactDefinition* find_fact(std::string_view name);

// `number`, `string`, `bool` or `list`.
[[nodiscard]] std::string_view to_string(FactType type);

// The type a value holds.
[[nodiscard]] FactType type_of(const FactValue& value);

// Builds the facts of `workload` given its per-GPU `estimates` (any order; empty leaves the
// estimate facts absent). Money facts are stated in `currency` (the workload's currency when
// empty) and, through the catalog's fx rates, in USD and CNY; a rate the catalog lacks leaves
// that fact absent.
[[nodiscard]] Facts make_facts(const workload::Workload& workload,
                               std::span<const estimate::GpuEstimate> estimates,
                               const catalog::Catalog& catalog, std::string_view currency);

} // namespace gpuplan::decide

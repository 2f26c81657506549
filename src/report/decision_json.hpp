#pragma once
// JSON forms of the decision and of facts, shared by `rules explain`, recommend and report
// (docs/decision-rules.md, "JSON"). Private to the library: nlohmann stays out of public headers.

#include "gpuplan/decide/decide.hpp"
#include "gpuplan/decide/facts.hpp"

#include <nlohmann/json.hpp>

namespace gpuplan::report {

// A fact value as JSON: number, string, bool or array of strings.
[[nodiscard]] nlohmann::ordered_json fact_value_json(const decide::FactValue& value);

// Every fact in name order: {name: value}.
[[nodiscard]] nlohmann::ordered_json facts_json(const decide::Facts& facts);

// `decision{trace[], candidate_gpus[], excluded_gpus[], purchase_options[], interconnect{}}`.
[[nodiscard]] nlohmann::ordered_json decision_json(const decide::Decision& decision);

} // namespace gpuplan::report

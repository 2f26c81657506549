#pragma once
// The traffic-curve plan in recommend's outputs (docs/cli.md, "Serving to a traffic curve";
// docs/json-output.md `load`, `hours`). Private to the report stage.

#include "gpuplan/curve/curve.hpp"

#include <nlohmann/json.hpp>
#include <string>

namespace gpuplan::report {

// Adds `load` and `hours` to recommend's JSON.
void put_curve_json(nlohmann::ordered_json& out, const curve::CurvePlan& plan);

// The section of the table and markdown outputs: the week's chart, the purchase, utilisation,
// unit costs, the saving against the flat peak fleet and the hours the targets hold.
[[nodiscard]] std::string curve_text(const curve::CurvePlan& plan, const std::string& currency,
                                     bool markdown);

} // namespace gpuplan::report

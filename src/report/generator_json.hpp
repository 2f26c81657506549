#pragma once
// The program that wrote a JSON output, as every output names it. Internal: keeps nlohmann/json
// out of the public headers.

#include "gpuplan/generator.hpp"

#include <nlohmann/json.hpp>

namespace gpuplan::report {

// Adds `generator{name, version}` to `out`, then `generated_at` when the run was stamped
// (--timestamp), so the time always follows the program that wrote it.
void put_generator(nlohmann::ordered_json& out, const GeneratorInfo& generator);

// Adds `generated_at` alone when the run was stamped: outputs without a generator carry it
// after their schema_version.
void put_generated_at(nlohmann::ordered_json& out, const GeneratorInfo& generator);

} // namespace gpuplan::report

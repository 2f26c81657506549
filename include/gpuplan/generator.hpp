#pragma once
// The program that wrote an output and the version of the JSON it writes.

#include <string>
#include <string_view>

namespace gpuplan {

// Version of every JSON output's schema ("MAJOR.MINOR"; docs/json-output.md).
inline constexpr std::string_view k_json_schema_version = "1.7";

// Name and version of the program and the time of the run, injected so that outputs are
// reproducible.
struct GeneratorInfo {
    std::string name = "gpuplan";
    std::string version;
    std::string generated_at{}; // UTC time of the run when asked (--timestamp); empty otherwise

    bool operator==(const GeneratorInfo&) const = default;
};

} // namespace gpuplan

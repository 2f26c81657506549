#pragma once
// The program that wrote an output, named in every JSON document and report.

#include <string>

namespace gpuplan {

// Name and version of the program, injected so that outputs are reproducible.
struct GeneratorInfo {
    std::string name = "gpuplan";
    std::string version;

    bool operator==(const GeneratorInfo&) const = default;
};

} // namespace gpuplan

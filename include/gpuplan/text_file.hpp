#pragma once
// The name (for diagnostics) and content of one input file: what every reader takes. The CLI
// reads files; the core never does.

#include <string>

namespace gpuplan {

struct TextFile {
    std::string name;
    std::string text;

    bool operator==(const TextFile&) const = default;
};

} // namespace gpuplan

#pragma once
// The output formats of the renderers.

#include "gpuplan/generator.hpp"
#include "gpuplan/numbers.hpp"

#include <optional>
#include <string_view>

namespace gpuplan::report {

enum class Format { table, json, markdown };

// `table`, `json`, `markdown` (or `md`); nullopt otherwise.
[[nodiscard]] std::optional<Format> parse_format(std::string_view text);
[[nodiscard]] std::string_view to_string(Format format);

} // namespace gpuplan::report

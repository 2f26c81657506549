#include "gpuplan/report/output_format.hpp"

namespace gpuplan::report {

std::optional<Format> parse_format(std::string_view text) {
    if (text == "table") {
        return Format::table;
    }
    if (text == "json") {
        return Format::json;
    }
    if (text == "markdown" || text == "md") {
        return Format::markdown;
    }
    return std::nullopt;
}

std::string_view to_string(Format format) {
    switch (format) {
    case Format::table:
        return "table";
    case Format::json:
        return "json";
    case Format::markdown:
        return "markdown";
    }
    return "?";
}

} // namespace gpuplan::report

#include "gpuplan/report/output_format.hpp"

#include "gpuplan/enum_names.hpp"

namespace gpuplan::report {

// Names of the values (a constant: internal linkage).
constexpr EnumNames k_format_names{
    std::to_array<std::pair<std::string_view, Format>>({{"table", Format::table},
                                                        {"json", Format::json},
                                                        {"markdown", Format::markdown},
                                                        {"md", Format::markdown}})};

std::optional<Format> parse_format(std::string_view text) {
    return k_format_names.parse(text);
}

std::string_view to_string(Format format) {
    return k_format_names.name(format);
}

} // namespace gpuplan::report

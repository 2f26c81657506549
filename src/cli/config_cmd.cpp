#include "cli/config_cmd.hpp"

#include "detail/strings.hpp"
#include "gpuplan/error.hpp"
#include "gpuplan/fleet/fleet.hpp"
#include "gpuplan/report/text_table.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <string>
#include <sys/stat.h>
#include <vector>

namespace gpuplan::cli {

namespace {

struct Row {
    std::string name;
    std::string value;
    std::string origin;
};

// Columns of the settings table: the names', and the narrowest the values' column is.
constexpr std::size_t k_name_columns = 14;
constexpr std::size_t k_value_columns = 30;

// The settings table. Its value column is 30 columns or, when a value is longer, as wide as the
// longest (--wide, `width` 0) or as the terminal leaves beside the origins; there a value wraps at
// spaces under its column, never inside a path or name, and its origin stays on its first line.
std::string settings_table(const std::vector<Row>& rows, std::size_t width) {
    std::size_t longest_value = k_value_columns;
    std::size_t longest_word = 0;
    std::size_t longest_origin = 0;
    for (const Row& r : rows) {
        longest_value = std::max(longest_value, r.value.size());
        longest_origin = std::max(longest_origin, r.origin.size());
        for (std::size_t start = 0; start <= r.value.size();) {
            const std::size_t stop = std::min(r.value.find(' ', start), r.value.size());
            longest_word = std::max(longest_word, stop - start);
            start = stop + 1;
        }
    }
    std::size_t columns = longest_value;
    if (width > 0) {
        const std::size_t room = width > k_name_columns + 2 + longest_origin
                                     ? width - k_name_columns - 2 - longest_origin
                                     : 0;
        columns = std::max({std::min(columns, room), longest_word, k_value_columns});
    }
    std::string out;
    for (const Row& r : rows) {
        const std::vector<std::string> lines = report::wrap_words(r.value, columns);
        out += fmt::format("{:<{}} {:<{}} {}\n", r.name, k_name_columns, lines.front(), columns,
                           r.origin);
        for (std::size_t i = 1; i < lines.size(); ++i) {
            out += fmt::format("{:<{}} {}\n", "", k_name_columns, lines[i]);
        }
    }
    return out;
}

std::string list_value(const ListSetting& setting) {
    return setting.values.empty() ? "(none)" : fmt::format("{}", fmt::join(setting.values, " "));
}

} // namespace

Exit run_config_show(const CommonOptions& common, Io& io) {
    if (common.format != report::Format::table) {
        throw UsageError("config show: only the table format is written");
    }
    const Settings& s = common.settings;
    const std::vector<Row> rows{
        {"setting", "value", "from"},
        {"currency", s.currency.value.empty() ? "(each workload's)" : s.currency.value,
         s.currency.origin},
        {"catalogs", list_value(s.catalogs), s.catalogs.origin},
        {"discounts", list_value(s.discounts), s.discounts.origin},
        {"discount_rate",
         s.discount_rate.value.empty() ? "(each workload's, else 0.10)" : s.discount_rate.value,
         s.discount_rate.origin},
        {"color", s.color.value, s.color.origin},
        {"accept_soft", s.accept_soft.value, s.accept_soft.origin},
        {"solver_time",
         s.solver_time.value.empty() ? fmt::format("{} (fleet)", fleet::k_default_solver_seconds)
                                     : s.solver_time.value,
         s.solver_time.origin},
        {"calibration", s.calibration.value.empty() ? "(none)" : s.calibration.value,
         s.calibration.origin},
    };
    std::string text = settings_table(rows, common.width);
    struct stat info {};
    const std::string file =
        io.config_file.empty() ? "none (neither XDG_CONFIG_HOME nor HOME is set)"
        : ::stat(io.config_file.c_str(), &info) == 0 ? io.config_file
                                                     : io.config_file + " (not found)";
    text += report::wrap_lines(
        fmt::format("\nconfiguration file: {}\nprecedence: flags > environment (GPUPLAN_*) > "
                    "file > built-in\n",
                    file),
        common.width);
    write_output(common, text, io);
    return Exit::ok;
}

} // namespace gpuplan::cli

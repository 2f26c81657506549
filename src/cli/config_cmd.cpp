#include "cli/config_cmd.hpp"

#include "detail/strings.hpp"
#include "gpuplan/error.hpp"

#include <fmt/format.h>
#include <sys/stat.h>

namespace gpuplan::cli {

namespace {

std::string row(std::string_view name, std::string_view value, std::string_view origin) {
    return fmt::format("{:<14} {:<30} {}\n", name, value, origin);
}

std::string list_value(const ListSetting& setting) {
    return setting.values.empty() ? "(none)" : detail::join(setting.values, " ");
}

} // namespace

Exit run_config_show(const CommonOptions& common, Io& io) {
    if (common.format != report::Format::table) {
        throw UsageError("config show: only the table format is written");
    }
    const Settings& s = common.settings;
    std::string text = row("setting", "value", "from");
    text += row("currency", s.currency.value.empty() ? "(each workload's)" : s.currency.value,
                s.currency.origin);
    text += row("catalogs", list_value(s.catalogs), s.catalogs.origin);
    text += row("discounts", list_value(s.discounts), s.discounts.origin);
    text +=
        row("discount_rate",
            s.discount_rate.value.empty() ? "(each workload's, else 0.10)" : s.discount_rate.value,
            s.discount_rate.origin);
    text += row("color", s.color.value, s.color.origin);
    text += row("accept_soft", s.accept_soft.value, s.accept_soft.origin);
    struct stat info {};
    const std::string file =
        io.config_file.empty() ? "none (neither XDG_CONFIG_HOME nor HOME is set)"
        : ::stat(io.config_file.c_str(), &info) == 0 ? io.config_file
                                                     : io.config_file + " (not found)";
    text += fmt::format("\nconfiguration file: {}\nprecedence: flags > environment (GPUPLAN_*) > "
                        "file > built-in\n",
                        file);
    write_output(common, text, io);
    return Exit::ok;
}

} // namespace gpuplan::cli

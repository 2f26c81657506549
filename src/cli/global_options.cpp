#include "cli/global_options.hpp"

#include "cli/config.hpp"
#include "gpuplan/error.hpp"
#include "gpuplan/report/output_format.hpp"
#include "gpuplan/report/text_table.hpp"

#include <algorithm>

namespace gpuplan::cli {

// The width text and tables are fitted to: 0 with --wide, else the terminal's (at least
// report::k_min_terminal_width).
std::size_t output_width(bool wide, const Io& io) {
    return wide ? 0
                : std::max(io.columns == 0 ? report::k_terminal_width : io.columns,
                           report::k_min_terminal_width);
}

// The common options that follow from the flags and the run's terminal: verbosity, cache
// directory, output width and the timestamp.
void resolve_common(Parsed& parsed, const Io& io) {
    parsed.common.verbosity = parsed.quiet ? -1 : parsed.verbose_count;
    parsed.common.cache_dir = io.cache_dir;
    parsed.common.width = output_width(parsed.common.wide, io);
    if (parsed.timestamp) {
        parsed.common.generated_at = utc_timestamp();
    }
}

// --format (html only for the commands that write it, as markdown turned into a page) and
// --currency checked and set. Throws UsageError.
void resolve_output(Parsed& parsed, std::string_view command) {
    if (parsed.format_text == "html") {
        if (command != "report" && command != "fleet") {
            throw UsageError("--format html: only 'gpuplan report' and 'gpuplan fleet' "
                             "write HTML");
        }
        parsed.common.html = true;
        parsed.format_text = "markdown";
    }
    auto format = report::parse_format(parsed.format_text);
    if (!format) {
        throw UsageError("--format: expected table, json or markdown, got '" + parsed.format_text +
                         "'");
    }
    parsed.common.format = *format;
    if (!parsed.common.currency.empty() && !is_currency_code(parsed.common.currency)) {
        throw UsageError("--currency: expected an ISO 4217 code such as USD or CNY, got '" +
                         parsed.common.currency + "'");
    }
}

// The configuration file and the environment under the flags (config.hpp): fills the defaults
// the flags left open and records where each setting came from.
void apply_settings(Parsed& parsed, const Io& io) {
    CommonOptions& c = parsed.common;
    const auto home = io.env.find("HOME");
    Settings s = parsed.reads_settings
                     ? read_settings(io.config_file, io.env,
                                     home == io.env.end() ? std::string() : home->second)
                     : Settings{};
    if (!c.currency.empty()) {
        s.currency = {c.currency, "--currency"};
    }
    c.currency = s.currency.value;
    if (parsed.color) {
        check_color(*parsed.color, "--color");
        s.color = {*parsed.color, "--color"};
    } else if (parsed.no_color) {
        s.color = {"never", "--no-color"};
    }
    c.color = s.color.value;
    if (!c.catalogs.empty()) {
        s.catalogs.origin =
            s.catalogs.values.empty() ? "--catalog" : s.catalogs.origin + ", then --catalog";
        s.catalogs.values.insert(s.catalogs.values.end(), c.catalogs.begin(), c.catalogs.end());
    }
    c.catalogs = s.catalogs.values;
    c.discounts = s.discounts.values;
    c.discount_rate = s.discount_rate.value;
    c.accept_soft = s.accept_soft.value == "true";
    c.solver_seconds = parse_solver_seconds(s.solver_time.value).value_or(0.0);
    if (!c.calibration.empty()) {
        s.calibration = {c.calibration, "--calibration"};
    }
    c.calibration = s.calibration.value;
    c.settings = std::move(s);
}

} // namespace gpuplan::cli

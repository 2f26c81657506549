#pragma once
// The defaults people set once (docs/config.md): the configuration file
// `$XDG_CONFIG_HOME/gpuplan/config.yaml` and the GPUPLAN_* environment variables, resolved with
// the flags: flags > environment > file > built-in.

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpuplan::cli {

// One resolved setting: its value and where it came from ("built-in", "GPUPLAN_CURRENCY",
// "/home/me/.config/gpuplan/config.yaml:3:11", "--currency").
struct Setting {
    std::string value;
    std::string origin = "built-in";
};

// A list setting (catalog overlays, provider discounts) and where it came from.
struct ListSetting {
    std::vector<std::string> values;
    std::string origin = "built-in";
};

struct Settings {
    Setting currency;      // empty: each workload's own currency
    ListSetting catalogs;  // overlays applied before the --catalog flags
    ListSetting discounts; // PROVIDER=FRACTION, before the --discount flags
    Setting discount_rate; // empty: each workload's own (default 0.10)
    Setting color{"auto"}; // auto, always or never
    // true: soft answers rank among the firm ones (recommend and report --accept-soft)
    Setting accept_soft{"false"};
    // fleet's solver time for a whole run, seconds (fleet --solver-time); empty: the built-in
    Setting solver_time;
    // the calibration file of estimate, recommend, report, fleet and validate (--calibration);
    // empty: none
    Setting calibration;
};

// The configuration file's path: $XDG_CONFIG_HOME/gpuplan/config.yaml, else
// $HOME/.config/gpuplan/config.yaml; empty when neither variable is set (or both are empty).
[[nodiscard]] std::string config_file_from(const char* xdg_config_home, const char* home);

// The environment variables gpuplan reads its defaults from.
[[nodiscard]] const std::vector<std::string>& setting_variables();

// The settings from the configuration file `path` (when it exists; empty = none) and then the
// variables in `env`, each over the last. Throws InputError (file:line:col, exit 3) for an
// invalid file and UsageError naming the variable for an invalid variable. A relative catalog
// path in the file is relative to the file's folder; `~/` is the home folder `home`.
[[nodiscard]] Settings read_settings(const std::string& path,
                                     const std::map<std::string, std::string>& env,
                                     const std::string& home);

// Seconds of solver time as `fleet --solver-time`, the configuration's `solver_time` and
// GPUPLAN_SOLVER_TIME take them: a decimal number above 0 and at most
// fleet::k_max_solver_seconds; nullopt otherwise.
[[nodiscard]] std::optional<double> parse_solver_seconds(std::string_view text);

// Checks a colour choice; throws UsageError naming `where` otherwise.
void check_color(const std::string& value, const std::string& where);

} // namespace gpuplan::cli

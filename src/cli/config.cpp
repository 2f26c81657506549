#include "cli/config.hpp"

#include "cli/common.hpp"
#include "cli/input_file.hpp"
#include "detail/yaml_reader.hpp"
#include "gpuplan/error.hpp"
#include "gpuplan/fleet/fleet.hpp"
#include "gpuplan/units.hpp"

#include <cerrno>
#include <charconv>
#include <filesystem>
#include <fmt/format.h>
#include <sys/stat.h>

namespace gpuplan::cli {

namespace {

constexpr int k_config_schema_version = 1;

bool is_discount(const std::string& entry) {
    const auto eq = entry.find('=');
    const auto fraction =
        eq == std::string::npos ? std::nullopt : parse_fraction(entry.substr(eq + 1));
    return eq != 0 && fraction && *fraction >= 0.0 && *fraction < 1.0;
}

bool is_rate(const std::string& text) {
    const auto rate = parse_fraction(text);
    return rate && *rate >= 0.0 && *rate <= 1.0;
}

std::string origin_of(const detail::YamlNode& node, const std::string& path) {
    const auto [line, column] = node.mark();
    return fmt::format("{}:{}:{}", path, line, column);
}

std::string resolve_path(const std::string& entry, const std::string& folder,
                         const std::string& home) {
    if (entry.starts_with("~/") && !home.empty()) {
        return home + entry.substr(1);
    }
    if (entry.empty() || entry.front() == '/' || entry == "-") {
        return entry;
    }
    return (std::filesystem::path(folder) / entry).string();
}

void read_scalar(const detail::YamlNode& root, std::string_view key, Setting& setting,
                 const std::string& path, bool (*valid)(const std::string&),
                 std::string_view expected) {
    const auto node = root.get(key);
    if (!node) {
        return;
    }
    if (auto text = node->as_string()) {
        if (!valid(*text)) {
            node->error(fmt::format("expected {}, got '{}'", expected, *text));
            return;
        }
        setting = {*text, origin_of(*node, path)};
    }
}

void read_lists(const detail::YamlNode& root, Settings& settings, const std::string& path,
                const std::string& home) {
    if (const auto catalogs = root.get("catalogs")) {
        if (auto list = catalogs->as_string_list()) {
            const std::string folder = std::filesystem::path(path).parent_path().string();
            settings.catalogs.values.clear();
            for (const std::string& entry : *list) {
                settings.catalogs.values.push_back(resolve_path(entry, folder, home));
            }
            settings.catalogs.origin = origin_of(*catalogs, path);
        }
    }
    if (const auto discounts = root.get("discounts")) {
        if (!discounts->is_map()) {
            discounts->error("expected a mapping of provider to discount, such as aws: 15%");
            return;
        }
        settings.discounts = {{}, origin_of(*discounts, path)};
        for (const auto& [provider, value] : discounts->entries()) {
            const auto text = value.as_string();
            if (text && !is_discount(provider + "=" + *text)) {
                value.error(fmt::format("expected a fraction from 0 to below 1 such as 15% or "
                                        "0.15, got '{}'",
                                        *text));
            } else if (text) {
                settings.discounts.values.push_back(provider + "=" + *text);
            }
        }
    }
}

bool solver_time_choice(const std::string& text) {
    return parse_solver_seconds(text).has_value();
}

// What a solver_time setting must be, for messages.
std::string solver_time_expected() {
    return fmt::format("seconds above 0 and at most {}", fleet::k_max_solver_seconds);
}

bool color_choice(const std::string& text) {
    return text == "auto" || text == "always" || text == "never";
}

bool bool_choice(const std::string& text) {
    return text == "true" || text == "false";
}

bool currency_choice(const std::string& text) {
    return is_currency_code(text);
}

void read_file(const std::string& path, const std::string& home, Settings& settings) {
    struct stat info {};
    if (path.empty() || ::stat(path.c_str(), &info) != 0) {
        return; // no file: the built-in defaults
    }
    const TextFile file = read_text_file(path);
    DiagnosticSink sink;
    detail::YamlContext context{file.name, &sink};
    auto root = detail::parse_yaml_document(file.text, context);
    if (root &&
        root->expect_map({"schema_version", "currency", "catalogs", "discounts", "discount_rate",
                          "color", "accept_soft", "solver_time", "calibration"})) {
        if (detail::read_schema_version(*root, "configuration", k_config_schema_version) ==
            detail::SchemaVersion::supported) {
            read_scalar(*root, "currency", settings.currency, path, currency_choice,
                        "an ISO 4217 code such as USD or CNY");
            read_scalar(*root, "discount_rate", settings.discount_rate, path, is_rate,
                        "an annual rate such as 0.10 or 10%");
            read_scalar(*root, "color", settings.color, path, color_choice,
                        "auto, always or never");
            read_scalar(*root, "accept_soft", settings.accept_soft, path, bool_choice,
                        "true or false");
            read_scalar(*root, "solver_time", settings.solver_time, path, solver_time_choice,
                        solver_time_expected());
            read_lists(*root, settings, path, home);
            read_scalar(
                *root, "calibration", settings.calibration, path,
                [](const std::string& text) { return !text.empty(); }, "a calibration file");
            if (!settings.calibration.value.empty()) {
                settings.calibration.value =
                    resolve_path(settings.calibration.value,
                                 std::filesystem::path(path).parent_path().string(), home);
            }
        }
    }
    sink.throw_if_any();
}

std::vector<std::string> split(const std::string& text, char separator) {
    std::vector<std::string> parts;
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t end = std::min(text.find(separator, start), text.size());
        if (end > start) {
            parts.push_back(text.substr(start, end - start));
        }
        start = end + 1;
    }
    return parts;
}

void read_environment(const std::map<std::string, std::string>& env, Settings& settings) {
    const auto variable = [&env](const char* name) -> const std::string* {
        const auto found = env.find(name);
        return found == env.end() || found->second.empty() ? nullptr : &found->second;
    };
    const auto check = [](const std::string& value, const char* name, bool valid,
                          std::string_view expected) {
        if (!valid) {
            throw UsageError(fmt::format("{}: expected {}, got '{}'", name, expected, value));
        }
    };
    if (const std::string* value = variable("GPUPLAN_CURRENCY")) {
        check(*value, "GPUPLAN_CURRENCY", is_currency_code(*value),
              "an ISO 4217 code such as USD or CNY");
        settings.currency = {*value, "GPUPLAN_CURRENCY"};
    }
    if (const std::string* value = variable("GPUPLAN_DISCOUNT_RATE")) {
        check(*value, "GPUPLAN_DISCOUNT_RATE", is_rate(*value),
              "an annual rate such as 0.10 or 10%");
        settings.discount_rate = {*value, "GPUPLAN_DISCOUNT_RATE"};
    }
    if (const std::string* value = variable("GPUPLAN_COLOR")) {
        check(*value, "GPUPLAN_COLOR", color_choice(*value), "auto, always or never");
        settings.color = {*value, "GPUPLAN_COLOR"};
    }
    if (const std::string* value = variable("GPUPLAN_ACCEPT_SOFT")) {
        check(*value, "GPUPLAN_ACCEPT_SOFT", bool_choice(*value), "true or false");
        settings.accept_soft = {*value, "GPUPLAN_ACCEPT_SOFT"};
    }
    if (const std::string* value = variable("GPUPLAN_SOLVER_TIME")) {
        check(*value, "GPUPLAN_SOLVER_TIME", solver_time_choice(*value), solver_time_expected());
        settings.solver_time = {*value, "GPUPLAN_SOLVER_TIME"};
    }
    if (const std::string* value = variable("GPUPLAN_CALIBRATION")) {
        settings.calibration = {*value, "GPUPLAN_CALIBRATION"};
    }
    if (const std::string* value = variable("GPUPLAN_CATALOG")) {
        settings.catalogs = {split(*value, ':'), "GPUPLAN_CATALOG"};
    }
    if (const std::string* value = variable("GPUPLAN_DISCOUNT")) {
        settings.discounts = {split(*value, ','), "GPUPLAN_DISCOUNT"};
        for (const std::string& entry : settings.discounts.values) {
            check(entry, "GPUPLAN_DISCOUNT", is_discount(entry),
                  "PROVIDER=FRACTION entries separated by commas, such as aws=15%,gcp=0.1");
        }
    }
}

} // namespace

std::string config_file_from(const char* xdg_config_home, const char* home) {
    if (xdg_config_home != nullptr && *xdg_config_home != '\0') {
        return std::string(xdg_config_home) + "/gpuplan/config.yaml";
    }
    if (home != nullptr && *home != '\0') {
        return std::string(home) + "/.config/gpuplan/config.yaml";
    }
    return {};
}

const std::vector<std::string>& setting_variables() {
    static const std::vector<std::string> k_variables{
        "GPUPLAN_ACCEPT_SOFT",   "GPUPLAN_CALIBRATION", "GPUPLAN_CATALOG",
        "GPUPLAN_COLOR",         "GPUPLAN_CURRENCY",    "GPUPLAN_DISCOUNT",
        "GPUPLAN_DISCOUNT_RATE", "GPUPLAN_SOLVER_TIME"};
    return k_variables;
}

Settings read_settings(const std::string& path, const std::map<std::string, std::string>& env,
                       const std::string& home) {
    Settings settings;
    read_file(path, home, settings);
    read_environment(env, settings);
    return settings;
}

std::optional<double> parse_solver_seconds(std::string_view text) {
    double value = 0.0;
    const char* end = text.data() + text.size();
    const auto [stop, error] = std::from_chars(text.data(), end, value);
    if (text.empty() || error != std::errc() || stop != end || !(value > 0.0) ||
        value > fleet::k_max_solver_seconds) {
        return std::nullopt;
    }
    return value;
}

void check_color(const std::string& value, const std::string& where) {
    if (!color_choice(value)) {
        throw UsageError(fmt::format("{}: expected auto, always or never, got '{}'", where, value));
    }
}

} // namespace gpuplan::cli

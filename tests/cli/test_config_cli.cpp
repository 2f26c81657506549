// The configuration file and the GPUPLAN_* variables under the flags (docs/config.md), run
// in-process with a temporary config folder: no test reads the real user's file.
#include "../support/files.hpp"
#include "cli/app.hpp"
#include "cli/config.hpp"

#include <catch2/catch.hpp>
#include <cstdint>
#include <filesystem>
#include <map>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

namespace {

namespace fs = std::filesystem;
using gpuplan::test::spit;

struct Run {
    int exit_code = 0;
    std::string out;
    std::string err;
};

// A temporary folder holding gpuplan/config.yaml, removed at the end of the test.
struct ConfigHome {
    fs::path root =
        fs::temp_directory_path() / ("gpuplan-config-" + std::to_string(::getpid()) + "-" +
                                     std::to_string(reinterpret_cast<std::uintptr_t>(this)));
    ConfigHome() { fs::create_directories(root / "gpuplan"); }
    ~ConfigHome() { fs::remove_all(root); }
    ConfigHome(const ConfigHome&) = delete;
    ConfigHome& operator=(const ConfigHome&) = delete;
    [[nodiscard]] std::string file() const { return (root / "gpuplan" / "config.yaml").string(); }

    Run run(const std::vector<std::string>& args,
            const std::map<std::string, std::string>& env = {}, bool tty = false) const {
        fs::current_path(GPUPLAN_SOURCE_DIR);
        std::ostringstream out;
        std::ostringstream err;
        gpuplan::cli::Io io{out, err, tty, false, gpuplan::Date{2026, 11, 29}};
        io.config_file = file();
        io.env = env;
        io.env["HOME"] = root.string();
        Run result;
        result.exit_code = gpuplan::cli::run(args, io);
        result.out = out.str();
        result.err = err.str();
        return result;
    }
};

// The `from` column of the row of `setting` in config show's table.
std::string origin_of(const std::string& table, const std::string& setting) {
    std::istringstream lines(table);
    for (std::string line; std::getline(lines, line);) {
        if (line.rfind(setting + " ", 0) == 0) {
            return line.substr(line.find_last_of(' ') + 1);
        }
    }
    return "(no row)";
}

} // namespace

TEST_CASE("config show names the origin of each setting: flag over environment over file",
          "[cli][config]") {
    const ConfigHome home;
    spit(home.file(), "schema_version: 1\ncurrency: CNY\ncolor: never\ndiscount_rate: 0.08\n"
                      "discounts:\n  aws: 15%\n");
    const Run file_only = home.run({"config", "show"});
    REQUIRE(file_only.exit_code == 0);
    CHECK(origin_of(file_only.out, "currency") == home.file() + ":2:11");
    CHECK(origin_of(file_only.out, "color") == home.file() + ":3:8");
    CHECK(origin_of(file_only.out, "discounts") == home.file() + ":6:3");
    CHECK(origin_of(file_only.out, "catalogs") == "built-in");

    const Run with_env = home.run({"config", "show"}, {{"GPUPLAN_CURRENCY", "USD"}});
    CHECK(origin_of(with_env.out, "currency") == "GPUPLAN_CURRENCY");
    CHECK(with_env.out.find("currency       USD ") != std::string::npos);

    const Run with_flag =
        home.run({"--currency", "CNY", "config", "show"}, {{"GPUPLAN_CURRENCY", "USD"}});
    CHECK(origin_of(with_flag.out, "currency") == "--currency");
}

TEST_CASE("without a file or variables every setting is built-in", "[cli][config]") {
    const ConfigHome home;
    const Run r = home.run({"config", "show"});
    REQUIRE(r.exit_code == 0);
    for (const char* setting : {"currency", "catalogs", "discounts", "discount_rate", "color"}) {
        CHECK(origin_of(r.out, setting) == "built-in");
    }
    CHECK(r.out.find("(not found)") != std::string::npos);
}

TEST_CASE("the file's discount rate and currency reach the cost engine; a flag wins",
          "[cli][config]") {
    const ConfigHome home;
    spit(home.file(), "schema_version: 1\ndiscount_rate: 0.5\n");
    const std::vector<std::string> tco = {"tco",   "--preset", "llama-7b-lora",
                                          "--gpu", "H100",     "--gpu-count",
                                          "8",     "--format", "json"};
    CHECK(home.run(tco).out.find("\"discount_rate\": 0.5,") != std::string::npos);
    auto flagged = tco;
    flagged.insert(flagged.end(), {"--discount-rate", "0.2"});
    CHECK(home.run(flagged).out.find("\"discount_rate\": 0.2,") != std::string::npos);
    CHECK(home.run(tco, {{"GPUPLAN_DISCOUNT_RATE", "0.3"}}).out.find("\"discount_rate\": 0.3,") !=
          std::string::npos);
}

TEST_CASE("a bad configuration file is exit 3 with file:line:col; a bad variable exit 2",
          "[cli][config]") {
    const ConfigHome home;
    spit(home.file(), "schema_version: 1\ncolr: never\ncurrency: usd\n");
    const Run bad_file = home.run({"presets"});
    CHECK(bad_file.exit_code == 3);
    CHECK(bad_file.err.find(home.file() + ":2:1: error: /colr: unknown key 'colr'; did you mean "
                                          "'color'?") != std::string::npos);
    CHECK(bad_file.err.find(home.file() + ":3:11: error: /currency: expected an ISO 4217 code") !=
          std::string::npos);

    spit(home.file(), "schema_version: 2\n");
    CHECK(home.run({"presets"}).err.find("unsupported schema_version 2") != std::string::npos);

    spit(home.file(), "schema_version: 1\n");
    const Run bad_variable = home.run({"presets"}, {{"GPUPLAN_COLOR", "sometimes"}});
    CHECK(bad_variable.exit_code == 2);
    CHECK(bad_variable.err ==
          "gpuplan: error: GPUPLAN_COLOR: expected auto, always or never, got 'sometimes'\n");
    CHECK(home.run({"--color", "rainbow", "presets"}).exit_code == 2);
}

TEST_CASE("the generators ignore a broken configuration file", "[cli][config]") {
    const ConfigHome home;
    spit(home.file(), "not: [valid\n");
    CHECK(home.run({"man"}).exit_code == 0);
    CHECK(home.run({"completions", "bash"}).exit_code == 0);
    CHECK(home.run({"presets"}).exit_code == 3);
}

TEST_CASE("colour: --color always and never win; auto needs a terminal and no TERM=dumb",
          "[cli][config]") {
    const ConfigHome home;
    const std::vector<std::string> check = {"--no-default-catalog",
                                            "--catalog",
                                            "tests/fixtures/catalog/minimal.yaml",
                                            "check",
                                            "tests/fixtures/plans/plan-a.json",
                                            "--max-cost",
                                            "1"};
    const auto coloured = [&](std::vector<std::string> args,
                              const std::map<std::string, std::string>& env, bool tty) {
        return home.run(args, env, tty).out.rfind("\033[31mFAIL", 0) == 0;
    };
    CHECK(coloured(check, {}, true));
    CHECK_FALSE(coloured(check, {}, false));
    auto always = check;
    always.insert(always.begin(), "--color=always");
    CHECK(coloured(always, {}, false));
    auto never = check;
    never.insert(never.begin(), "--color=never");
    CHECK_FALSE(coloured(never, {}, true));
    CHECK_FALSE(coloured(check, {{"GPUPLAN_COLOR", "never"}}, true));
    CHECK(coloured(check, {{"GPUPLAN_COLOR", "always"}}, false));
    spit(home.file(), "schema_version: 1\ncolor: always\n");
    CHECK(coloured(check, {}, false));
    CHECK_FALSE(coloured(never, {}, false));
}

TEST_CASE("the configuration file lives under XDG_CONFIG_HOME, else ~/.config", "[cli][config]") {
    using gpuplan::cli::config_file_from;
    CHECK(config_file_from("/x", "/home/me") == "/x/gpuplan/config.yaml");
    CHECK(config_file_from("", "/home/me") == "/home/me/.config/gpuplan/config.yaml");
    CHECK(config_file_from(nullptr, "/home/me") == "/home/me/.config/gpuplan/config.yaml");
    CHECK(config_file_from(nullptr, nullptr).empty());
}

TEST_CASE("fleet's solver time comes from the flag then the variable then the file",
          "[cli][config]") {
    const ConfigHome home;
    spit(home.file(), "schema_version: 1\nsolver_time: 20\n");
    const std::vector<std::string> fleet = {"fleet",
                                            "tests/fixtures/fleet/short-jobs.yaml",
                                            "--catalog",
                                            "tests/fixtures/fleet/catalog.yaml",
                                            "--no-default-catalog",
                                            "--format",
                                            "json"};
    const auto limit = [](const Run& run) {
        const std::size_t at = run.out.find("\"time_limit_seconds\": ");
        return at == std::string::npos ? std::string("(none) " + run.err)
                                       : run.out.substr(at + 22, run.out.find(',', at) - at - 22);
    };
    CHECK(limit(home.run(fleet)) == "20.0");
    CHECK(limit(home.run(fleet, {{"GPUPLAN_SOLVER_TIME", "2.5"}})) == "2.5");
    auto flagged = fleet;
    flagged.insert(flagged.end(), {"--solver-time", "4"});
    CHECK(limit(home.run(flagged, {{"GPUPLAN_SOLVER_TIME", "2.5"}})) == "4.0");
    CHECK(origin_of(home.run({"config", "show"}).out, "solver_time") == home.file() + ":2:14");
    const Run bad = home.run({"presets"}, {{"GPUPLAN_SOLVER_TIME", "0"}});
    CHECK(bad.exit_code == 2);
    CHECK(bad.err.find("GPUPLAN_SOLVER_TIME: expected seconds above 0 and at most 86400, got "
                       "'0'") != std::string::npos);
}

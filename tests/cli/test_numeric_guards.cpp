// Numerical guards at the edges users can reach from files and flags: zero GPUs, hours and
// prices, 0 and 100% interruption and discount rates, horizons of 0 and 600 months. Each edge is
// either refused with a usage error or answered with finite numbers only: no NaN or infinity
// reaches a table, markdown or JSON output.

#include "../support/cli_runner.hpp"

#include <catch2/catch.hpp>
#include <cctype>
#include <nlohmann/json.hpp>

namespace {

using Args = std::vector<std::string>;

// True when `text` shows a NaN or infinity as a word (`nan`, `-inf`, `infinity`).
bool shows_non_finite(const std::string& text) {
    std::string word;
    for (std::size_t i = 0; i <= text.size(); ++i) {
        const char c = i < text.size() ? text[i] : ' ';
        if (std::isalpha(static_cast<unsigned char>(c)) != 0) {
            word += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
            continue;
        }
        if (word == "nan" || word == "inf" || word == "infinity") {
            return true;
        }
        word.clear();
    }
    return false;
}

// Every option of a recommend or tco JSON output has a numeric (not null) npv and total.
void require_numeric_costs(const nlohmann::json& document) {
    REQUIRE(document.contains("options"));
    for (const auto& option : document.at("options")) {
        const auto& cost = option.contains("cost") ? option.at("cost") : option;
        CHECK(cost.at("npv").is_number());
        CHECK(cost.at("total").is_number());
        CHECK(std::isfinite(cost.at("npv").get<double>()));
    }
}

Args with(Args base, const Args& extra) {
    base.insert(base.end(), extra.begin(), extra.end());
    return base;
}

// Runs `args` in every format; an answer must be finite throughout.
void check_finite_answer(const Args& args) {
    for (const char* format : {"table", "markdown", "json"}) {
        INFO("gpuplan " << Catch::Detail::stringify(args) << " --format " << format);
        const auto result = gpuplan::test::run_cli(with(args, {"--format", format}));
        REQUIRE(result.exit_code == 0);
        CHECK_FALSE(shows_non_finite(result.out));
        if (std::string_view(format) == "json") {
            require_numeric_costs(nlohmann::json::parse(result.out));
        }
    }
}

const Args k_recommend{"recommend", "--preset", "bert-large-finetune-squad"};
const Args k_tco{"tco", "--preset", "bert-large-finetune-squad"};

} // namespace

TEST_CASE("zero GPUs, zero hours and a zero horizon are usage errors, not divisions by zero",
          "[guards][cli]") {
    for (const Args& extra :
         {Args{"--gpu-count", "0"}, Args{"--deadline", "0h"}, Args{"--hours-per-day", "0"},
          Args{"--horizon", "0"}, Args{"--max-gpus", "0"}}) {
        for (const Args& command : {k_recommend, k_tco}) {
            const auto result = gpuplan::test::run_cli(with(command, extra));
            INFO(Catch::Detail::stringify(with(command, extra)) << "\n" << result.err);
            CHECK(result.exit_code == 2);
            CHECK(result.out.empty());
            CHECK(result.err.find("error: " + extra.front()) != std::string::npos);
        }
    }
}

TEST_CASE("a 600-month horizon gives finite present values", "[guards][cli]") {
    check_finite_answer(with(k_recommend, {"--horizon", "600"}));
    check_finite_answer(with(k_tco, {"--horizon", "600"}));
}

TEST_CASE("discount rates of 0 and 100% give finite present values", "[guards][cli]") {
    for (const char* rate : {"0", "100%"}) {
        check_finite_answer(with(k_recommend, {"--discount-rate", rate}));
        check_finite_answer(with(k_tco, {"--discount-rate", rate}));
    }
}

TEST_CASE("spot interruption rates of 0 and 1 per node-hour give finite costs", "[guards][cli]") {
    for (const char* rate : {"0", "1"}) {
        check_finite_answer(with(k_recommend, {"--interruptible", "--interruption-rate", rate}));
    }
}

TEST_CASE("a zero budget and a one-minute deadline are verdicts, not errors", "[guards][cli]") {
    check_finite_answer(with(k_recommend, {"--budget", "0 USD"}));
    check_finite_answer(with(k_recommend, {"--deadline", "1min"}));
}

TEST_CASE("free instances (price 0) rank with finite unit costs", "[guards][cli]") {
    const Args zero{"--no-default-catalog", "--catalog", "tests/fixtures/catalog/zero-price.yaml"};
    check_finite_answer(with(k_recommend, zero));
    check_finite_answer(with(k_tco, zero));
}

TEST_CASE("a catalog interruption rate above one per node-hour is refused", "[guards][catalog]") {
    const auto result = gpuplan::test::run_cli(
        {"catalog", "validate", "--no-default-catalog",
         "tests/fixtures/bad/catalog_interruption_rate_above_one/input.yaml"});
    CHECK(result.exit_code == 3);
    CHECK(result.err.find(
              "interruption_rate_per_node_hour/value: expected a non-negative number, got "
              "1.5 (the largest allowed is 1)") != std::string::npos);
}

#include "../support/files.hpp"
#include "gpuplan/limits.hpp"
#include "gpuplan/numbers.hpp"

#include <catch2/catch.hpp>
#include <cmath>
#include <regex>
#include <string>
#include <vector>

using namespace gpuplan;

namespace {

struct DocRow {
    std::string name;
    double value = 0.0;
    std::string unit;
};

// The rows of the table under "## The limits table" in docs/limits.md:
// | `name` | value | unit | what it bounds |
std::vector<DocRow> documented_limits() {
    const std::string text = test::slurp(std::string(GPUPLAN_SOURCE_DIR) + "/docs/limits.md");
    const std::size_t start = text.find("\n## The limits table\n");
    REQUIRE(start != std::string::npos);
    const std::size_t end = text.find("\n## ", start + 1);
    const std::string section = text.substr(start, end - start);
    const std::regex row(R"(\n\| `([a-z_]+)` \| ([0-9.e+]+) \|([^|]*)\|)");
    std::vector<DocRow> rows;
    for (auto it = std::sregex_iterator(section.begin(), section.end(), row);
         it != std::sregex_iterator(); ++it) {
        std::string unit = (*it)[3].str();
        unit.erase(0, unit.find_first_not_of(' '));
        unit.erase(unit.find_last_not_of(' ') + 1);
        rows.push_back({(*it)[1].str(), std::stod((*it)[2].str()), unit});
    }
    return rows;
}

} // namespace

TEST_CASE("docs/limits.md lists every limit of the table with its value and unit", "[limits]") {
    const std::vector<DocRow> rows = documented_limits();
    REQUIRE(rows.size() == limits::k_limits.size());
    for (std::size_t i = 0; i < rows.size(); ++i) {
        INFO("row " << i + 1 << ": " << rows[i].name);
        CHECK(rows[i].name == limits::k_limits.at(i).name);
        CHECK(rows[i].value == limits::k_limits.at(i).value);
        CHECK(rows[i].unit == limits::k_limits.at(i).unit);
    }
}

TEST_CASE("durations, money and counts format at every value the limits allow", "[limits]") {
    // Up to the largest accepted hours, through every unit boundary, no overflow or sign flip.
    for (double hours = 1e-3; hours <= limits::k_max_hours; hours *= 3.7) {
        const std::string text = format_duration(hours);
        INFO(hours << " hours: " << text);
        CHECK(text.find('-') == std::string::npos);
        CHECK(text.find("inf") == std::string::npos);
    }
    CHECK(format_duration(limits::k_max_hours) == "1.14e+14y");
    CHECK(format_duration(6.7e21) == "7.65e+17y");             // 6.7e21 / 8760 hours a year
    CHECK(format_duration(8.76e15 * 1.2) == "1200000000000y"); // below 1e15 months
    CHECK(format_money(limits::k_max_money, "USD") == "1,000,000,000,000,000,000.00 USD");
    CHECK(format_money(-0.0, "USD") == "0.00 USD");
    CHECK(format_price(-0.0) == "0");
    CHECK(format_si(limits::k_max_magnitude) == "1000P");
}

#include "gpuplan/enum_names.hpp"
#include "gpuplan/purchase.hpp"
#include "gpuplan/rank/rank.hpp"
#include "gpuplan/report/launch.hpp"
#include "gpuplan/report/output_format.hpp"

#include <array>
#include <catch2/catch.hpp>
#include <set>
#include <string>

using namespace gpuplan;

namespace {

enum class Colour { red, green, blue };

constexpr EnumNames k_colour_names{std::to_array<std::pair<std::string_view, Colour>>(
    {{"red", Colour::red}, {"green", Colour::green}, {"vert", Colour::green}})};

} // namespace

TEST_CASE("an enum's name is its first entry and aliases only parse", "[enum_names]") {
    STATIC_REQUIRE(k_colour_names.name(Colour::green) == "green");
    STATIC_REQUIRE(k_colour_names.parse("vert") == Colour::green);
    CHECK(k_colour_names.name(Colour::blue) == "?");
    CHECK_FALSE(k_colour_names.parse("Red").has_value());
    CHECK_FALSE(k_colour_names.parse("").has_value());
    CHECK(k_colour_names.spellings() == std::vector<std::string_view>{"red", "green", "vert"});
}

TEST_CASE("every purchase option launcher and objective has a distinct name that parses back",
          "[enum_names]") {
    std::set<std::string> seen;
    for (const PurchaseOption option : k_all_purchase_options) {
        CHECK(parse_purchase_option(to_string(option)) == option);
        CHECK(seen.insert(std::string(to_string(option))).second);
    }
    for (const report::Launcher launcher : report::k_all_launchers) {
        CHECK(report::parse_launcher(report::to_string(launcher)) == launcher);
    }
    for (const rank::Objective objective :
         {rank::Objective::cost, rank::Objective::time, rank::Objective::balanced}) {
        CHECK(rank::parse_objective(rank::to_string(objective)) == objective);
    }
    CHECK(report::parse_format("md") == report::Format::markdown);
    CHECK(report::to_string(report::Format::markdown) == "markdown");
}

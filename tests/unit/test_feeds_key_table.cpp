#include "feeds/key_table.hpp"

#include <catch2/catch.hpp>
#include <string>

using namespace gpuplan::feeds;

TEST_CASE("keys of two strings are numbered in order of first appearance", "[feeds][key_table]") {
    KeyTable table;
    CHECK_FALSE(table.find("aws", "p4d.24xlarge"));
    CHECK(table.intern("aws", "p4d.24xlarge") == 0);
    CHECK(table.intern("aws", "p5.48xlarge") == 1);
    CHECK(table.intern("aws", "p4d.24xlarge") == 0);
    // The parts are compared apart: the same bytes split elsewhere are another key.
    CHECK(table.intern("aw", "sp4d.24xlarge") == 2);
    CHECK(table.intern("", "") == 3);
    CHECK(table.find("aws", "p5.48xlarge") == 1U);
    CHECK(table.first(1) == "aws");
    CHECK(table.second(1) == "p5.48xlarge");
    CHECK(table.size() == 4);
}

TEST_CASE("a key table keeps every number while it grows", "[feeds][key_table]") {
    KeyTable table;
    for (std::uint32_t i = 0; i < 5000; ++i) {
        REQUIRE(table.intern("region-" + std::to_string(i % 97), "zone-" + std::to_string(i)) == i);
    }
    for (std::uint32_t i = 0; i < 5000; ++i) {
        REQUIRE(table.find("region-" + std::to_string(i % 97), "zone-" + std::to_string(i)) == i);
    }
    CHECK_FALSE(table.find("region-0", "zone-5000"));
}

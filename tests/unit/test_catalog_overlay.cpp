#include "../support/diagnostics.hpp"
#include "gpuplan/catalog/loader.hpp"

#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>

using namespace gpuplan;
using namespace gpuplan::catalog;

namespace {

std::string fixture(const std::string& name) {
    std::ifstream in(std::string(GPUPLAN_SOURCE_DIR) + "/tests/fixtures/" + name);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

const std::string k_header = "schema_version: 1\n"
                             "sources:\n"
                             "  deal: {title: Negotiated contract, url: https://example.com/c}\n"
                             "providers:\n"
                             "  - name: testcloud\n"
                             "    instances:\n";

std::vector<std::string> problems(const Catalog& base, const std::string& text) {
    const std::vector<TextFile> files{{"o.yaml", text}};
    return test::input_problems([&] { return overlay_catalog(base, files); });
}

} // namespace

TEST_CASE("a price overlay replaces the rows it names and keeps the instance and other rows",
          "[catalog][overlay]") {
    const std::vector<TextFile> minimal{{"minimal.yaml", fixture("catalog/minimal.yaml")}};
    const Catalog base = load_catalog(minimal);
    const std::vector<TextFile> overlay{
        {"o.yaml", k_header + "      - type: big.8x\n"
                              "        prices:\n"
                              "          - {region: r2, on_demand: 25.5, source: deal, as_of: "
                              "2026-10-01}\n"
                              "          - {region: r3, spot: 9.0, source: deal}\n"}};
    const Catalog merged = overlay_catalog(base, overlay);
    const Instance& before = base.providers.front().instances.front();
    const Instance& after = merged.providers.front().instances.front();
    CHECK(after.gpu == before.gpu);
    CHECK(after.vcpus == before.vcpus);
    CHECK(after.nvlink == before.nvlink);
    REQUIRE(after.prices.size() == 3);
    CHECK(after.prices[0] == before.prices[0]); // r1/r1a untouched
    CHECK(after.prices[1].region == "r2");
    CHECK(after.prices[1].on_demand == 25.5);
    CHECK(after.prices[1].spot == std::nullopt);
    CHECK(after.prices[1].sources == std::vector<std::string>{"deal"});
    CHECK(after.prices[1].as_of == Date{2026, 10, 1});
    CHECK(after.prices[2].region == "r3");
    CHECK(after.prices[2].spot == 9.0);
}

TEST_CASE("a price overlay needs a known type and states only prices", "[catalog][overlay]") {
    const std::vector<TextFile> minimal{{"minimal.yaml", fixture("catalog/minimal.yaml")}};
    const Catalog base = load_catalog(minimal);
    CHECK(problems(base, k_header + "      - type: new.1x\n"
                                    "        prices:\n"
                                    "          - {region: r2, on_demand: 1.5}\n") ==
          std::vector<std::string>{
              "o.yaml:7:9: error: /providers/0/instances/0: missing required key 'gpu'",
              "o.yaml:7:9: error: /providers/0/instances/0: missing required key 'gpu_count'",
              "o.yaml:7:9: error: /providers/0/instances/0: missing required key 'vcpus'",
              "o.yaml:7:9: error: /providers/0/instances/0: missing required key 'memory_gib'"});
    CHECK(problems(base, k_header + "      - type: big.8x\n"
                                    "        nvlink: false\n"
                                    "        prices:\n"
                                    "          - {region: r2, on_demand: 1.5}\n") ==
          std::vector<std::string>{
              "o.yaml:8:17: error: /providers/0/instances/0/nvlink: a price overlay (an instance "
              "without gpu, gpu_count, vcpus and memory_gib) states only prices; give the whole "
              "instance to change 'nvlink'"});
}

TEST_CASE("a feed never replaces a price a dated list gives a later date", "[catalog][overlay]") {
    const std::vector<TextFile> files{
        {"minimal.yaml", fixture("catalog/minimal.yaml")},
        {"list.yaml", k_header + "      - type: big.8x\n"
                                 "        prices:\n"
                                 "          - {region: r2, on_demand: 25.5, source: deal, as_of: "
                                 "2026-10-01}\n"}};
    const Catalog base = load_catalog(files);
    // A feed of big.8x in r1/r1a and r2, dated `as_of` (nullopt: its source states no date).
    const auto feed_of = [&](std::optional<Date> as_of) {
        Provider feed;
        feed.name = "testcloud";
        feed.currency = "USD";
        feed.as_of = as_of.value_or(Date{2026, 12, 1});
        feed.sources = {"feed"};
        Instance big = base.providers.front().instances.front();
        big.prices = {PriceRow{"r1", "r1a", 40.0, std::nullopt, std::nullopt, std::nullopt, {}, {}},
                      PriceRow{"r2", "", 41.0, std::nullopt, std::nullopt, std::nullopt, {}, {}}};
        feed.instances = {big};
        FeedOverlay overlay;
        overlay.names = {"feed.csv"};
        overlay.texts = {"text"};
        overlay.providers = {feed};
        Source source;
        source.id = "feed";
        source.title = "Feed";
        source.undated = !as_of.has_value();
        overlay.sources = {source};
        return overlay_feed(base, overlay).providers.front().instances.front().prices;
    };
    SECTION("an older feed keeps the dated list's row and replaces the others") {
        const auto prices = feed_of(Date{2026, 9, 1});
        REQUIRE(prices.size() == 2);
        CHECK(prices[0].on_demand == 40.0);
        CHECK(prices[1].on_demand == 25.5);
        CHECK(prices[1].as_of == Date{2026, 10, 1});
    }
    SECTION("an undated feed cannot show it is newer: the dated row stays") {
        CHECK(feed_of(std::nullopt)[1].on_demand == 25.5);
    }
    SECTION("a newer feed replaces every row") {
        const auto prices = feed_of(Date{2026, 11, 1});
        CHECK(prices[0].on_demand == 40.0);
        CHECK(prices[1].on_demand == 41.0);
    }
}

#include "gpuplan/catalog/diff.hpp"
#include "gpuplan/catalog/loader.hpp"
#include "gpuplan/catalog/staleness.hpp"

#include <catch2/catch.hpp>

using namespace gpuplan;
using namespace gpuplan::catalog;

namespace {

PriceRow price(std::string region, std::string zone, std::optional<double> on_demand,
               std::optional<double> spot = std::nullopt, std::optional<Date> as_of = {}) {
    PriceRow row;
    row.region = std::move(region);
    row.zone = std::move(zone);
    row.on_demand = on_demand;
    row.spot = spot;
    row.as_of = as_of;
    return row;
}

Instance instance(std::string type, int vcpus, std::vector<PriceRow> rows) {
    Instance out;
    out.type = std::move(type);
    out.gpu = "H100";
    out.gpu_count = 8;
    out.vcpus = vcpus;
    out.memory_gib = 1024;
    out.prices = std::move(rows);
    return out;
}

Catalog with_rows(std::vector<PriceRow> rows, std::string type = "big.8x") {
    Provider provider;
    provider.name = "cloud";
    provider.display_name = "Cloud";
    provider.currency = "USD";
    provider.as_of = Date{2026, 7, 9};
    provider.instances.push_back(instance(std::move(type), 96, std::move(rows)));
    Catalog catalog;
    catalog.providers.push_back(std::move(provider));
    return catalog;
}

using Seen = std::vector<std::tuple<std::string, std::string, std::string, ChangeKind>>;

} // namespace

TEST_CASE("diff reports added, removed and changed prices in key order", "[catalog][diff]") {
    const Catalog a =
        with_rows({price("r1", "a", 10.0, 3.0), price("r2", "", 11.0), price("r3", "", 12.0)});
    const Catalog b = with_rows({price("r1", "a", 10.0, 2.5), price("r0", "", std::nullopt, 4.0),
                                 price("r3", "", 12.0, 5.0)});
    const CatalogDiff diff = diff_prices(a, b);
    Seen seen;
    for (const PriceChange& change : diff.changes) {
        seen.emplace_back(change.region, change.zone, change.field, change.kind);
    }
    CHECK(seen == Seen{{"r0", "", "spot", ChangeKind::added},
                       {"r1", "a", "spot", ChangeKind::changed},
                       {"r2", "", "on_demand", ChangeKind::removed},
                       {"r3", "", "spot", ChangeKind::added}});
    CHECK(diff.changes[1].before == 3.0);
    CHECK(diff.changes[1].after == 2.5);
    CHECK(diff.unchanged == 2); // r1 on_demand, r3 on_demand
    CHECK(diff_prices(a, a).changes.empty());
}

TEST_CASE("stale prices are counted per provider against the injected date",
          "[catalog][staleness]") {
    const Catalog catalog =
        with_rows({price("r1", "", 1.0), price("r2", "", 1.0, std::nullopt, Date{2026, 11, 20})});
    // 2026-07-09 to 2026-11-29 is 22 + 31 + 30 + 31 + 29 = 143 days; 2026-11-20 is 9 days old.
    const auto stale = stale_prices(catalog, Date{2026, 11, 29}, 30.0);
    REQUIRE(stale.size() == 1);
    CHECK(stale.front().stale_rows == 1);
    CHECK(stale.front().rows == 2);
    CHECK(stale.front().oldest == Date{2026, 7, 9});
    CHECK(stale.front().oldest_age_days == 143);
    CHECK(stale_prices(catalog, Date{2026, 11, 29}, 143.0).empty());
    CHECK(stale_prices(catalog, Date{2026, 11, 29}, 8.0).front().stale_rows == 2);
}

TEST_CASE("a feed overlay replaces specs and prices and keeps what feeds cannot know",
          "[catalog][overlay]") {
    Catalog base = with_rows({price("r1", "", 10.0), price("r9", "", 9.0)});
    Instance& curated = base.providers[0].instances[0];
    curated.network_gbps = 3200;
    curated.nvlink = true;
    curated.note = "curated";
    base.providers[0].instances.push_back(instance("old.type", 8, {price("r5", "", 5.0)}));
    Provider feed;
    feed.name = "cloud";
    feed.currency = "USD";
    feed.as_of = Date{2026, 11, 1};
    feed.sources = {"feed"};
    feed.instances.push_back(instance("big.8x", 192, {price("r1", "", 8.0)}));
    feed.instances.push_back(instance("new.1x", 24, {price("r1", "", 1.0)}));
    FeedOverlay overlay;
    overlay.names = {"feed.csv"};
    overlay.texts = {"text"};
    overlay.providers = {feed};
    Source source;
    source.id = "feed";
    source.title = "Feed";
    overlay.sources = {source};
    const Catalog merged = overlay_feed(base, overlay);
    const Provider& provider = merged.providers.front();
    REQUIRE(provider.instances.size() == 3);
    const Instance& big = provider.instances[0];
    CHECK(big.vcpus == 192);
    CHECK(big.network_gbps == 3200);
    CHECK(big.nvlink);
    CHECK(big.note == "curated");
    CHECK(big.prices.size() == 1);
    CHECK(provider.as_of == Date{2026, 11, 1});
    CHECK(provider.sources == std::vector<std::string>{"feed"});
    // The instance the feed does not mention keeps the date and source it was read with.
    CHECK(provider.instances[1].type == "old.type");
    CHECK(provider.instances[1].prices.front().as_of == Date{2026, 7, 9});
    CHECK(provider.instances[2].type == "new.1x");
    CHECK(merged.files == std::vector<std::string>{"feed.csv"});
    CHECK(merged.sources.count("feed") == 1);
}

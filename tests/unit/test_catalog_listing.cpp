#include "gpuplan/catalog/listing.hpp"
#include "gpuplan/embedded.hpp"
#include "gpuplan/error.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <set>

using namespace gpuplan;
using namespace gpuplan::catalog;

TEST_CASE("list_catalog summarises each instance type by its cheapest selected row", "[listing]") {
    const Catalog& catalog = embedded::catalog();
    const Listing listing = list_catalog(catalog, {{"h100"}, {"aws"}, {}});
    REQUIRE_FALSE(listing.instances.empty());
    std::size_t rows = 0;
    for (const InstanceSummary& s : listing.instances) {
        CHECK(s.provider->name == "aws");
        CHECK(s.instance->gpu == "H100"); // the alias resolved to the canonical name
        std::optional<double> cheapest;
        std::set<std::string> regions;
        for (const PriceRow& row : s.instance->prices) {
            regions.insert(row.region);
            if (row.on_demand && (!cheapest || *row.on_demand < *cheapest)) {
                cheapest = row.on_demand;
            }
        }
        CHECK(s.on_demand == cheapest);
        CHECK(s.regions == regions.size());
        rows += s.instance->prices.size();
    }
    CHECK(listing.offers.size() == rows);
    CHECK(listing.provider_count == 1);
    REQUIRE(listing.gpus.size() == 1);
    CHECK(listing.gpus[0]->name == "H100");
    REQUIRE(listing.oldest);
    CHECK(*listing.oldest <= *listing.newest);
}

TEST_CASE("list_catalog orders by price per GPU-hour and converts to a currency", "[listing]") {
    const Catalog& catalog = embedded::catalog();
    const Listing usd = list_catalog(catalog, {{}, {"aws"}, {}}, "", ListSort::price);
    for (std::size_t i = 1; i < usd.instances.size(); ++i) {
        const auto per_gpu = [](const InstanceSummary& s) {
            return s.on_demand ? *s.on_demand / s.instance->gpu_count : 1e300;
        };
        CHECK(per_gpu(usd.instances[i - 1]) <= per_gpu(usd.instances[i]));
    }
    const Listing cny = list_catalog(catalog, {{}, {"aws"}, {}}, "CNY", ListSort::price);
    REQUIRE(cny.instances.size() == usd.instances.size());
    // Every aws price row of the embedded catalog shares the provider's date, so each cheapest
    // price converts at that one rate.
    std::size_t checked = 0;
    for (const InstanceSummary& s : usd.instances) {
        for (const InstanceSummary& c : cny.instances) {
            if (c.instance == s.instance && s.on_demand) {
                const auto rate = fx_rate(catalog, "USD", "CNY", s.as_of);
                REQUIRE(rate);
                CHECK(*rate > 1.0);
                CHECK(*c.on_demand == Approx(*s.on_demand * *rate));
                ++checked;
            }
        }
    }
    const auto priced = std::count_if(usd.instances.begin(), usd.instances.end(),
                                      [](const InstanceSummary& s) { return s.on_demand; });
    CHECK(checked == static_cast<std::size_t>(priced));
    CHECK(checked > 10);
}

TEST_CASE("list_catalog names the closest GPU, provider or the missing rate", "[listing]") {
    const Catalog& catalog = embedded::catalog();
    CHECK_THROWS_WITH(list_catalog(catalog, {{"H1000"}, {}, {}}),
                      "unknown GPU 'H1000'; did you mean 'H100'?");
    CHECK_THROWS_WITH(list_catalog(catalog, {{}, {"awz"}, {}}),
                      "unknown provider 'awz'; did you mean 'aws'?");
    CHECK_THROWS_AS(list_catalog(catalog, {{}, {"aws"}, {}}, "XYZ"), UsageError);
    CHECK(list_catalog(catalog, {{}, {}, {"no-such-region"}}).instances.empty());
}

TEST_CASE("a listing that spans currencies converts to the base currency and names the rates",
          "[listing]") {
    const Catalog& catalog = embedded::catalog();
    // alibaba prices in CNY, the others in USD: one column must not mix them.
    const Listing mixed = list_catalog(catalog, {{"A100-80GB"}, {}, {}}, "", ListSort::price);
    CHECK(mixed.currency == catalog.fx.base);
    REQUIRE_FALSE(mixed.rates.empty());
    for (const ListedRate& rate : mixed.rates) {
        CHECK(rate.from == "CNY");
        CHECK(rate.to == catalog.fx.base);
        CHECK(rate.rate == Approx(*fx_rate(catalog, "CNY", catalog.fx.base, rate.rates_as_of)));
    }
    // Price order is by the per-GPU price the listing shows, ascending.
    for (std::size_t i = 1; i < mixed.instances.size(); ++i) {
        const auto& before = mixed.instances[i - 1].on_demand_per_gpu;
        const auto& after = mixed.instances[i].on_demand_per_gpu;
        if (before && after) {
            CHECK(*before <= *after);
        }
    }
    for (const InstanceSummary& s : mixed.instances) {
        if (s.on_demand && s.instance->gpu_count > 0.0) {
            CHECK(*s.on_demand_per_gpu == Approx(*s.on_demand / s.instance->gpu_count));
        }
    }
    // One provider's own currency is kept as it is, and nothing is converted.
    const Listing one = list_catalog(catalog, {{}, {"alibaba"}, {}});
    CHECK(one.currency.empty());
    CHECK(one.rates.empty());
}

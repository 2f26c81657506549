#include "codecs/bundle.hpp"
#include "gpuplan/catalog/loader.hpp"

#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>

using namespace gpuplan;
using namespace gpuplan::catalog;
using gpuplan::codecs::BundleView;
using gpuplan::codecs::read_bundle;
using gpuplan::codecs::write_bundle;

namespace {

std::string fixture(const std::string& name) {
    std::ifstream in(std::string(GPUPLAN_SOURCE_DIR) + "/tests/fixtures/catalog/" + name);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

std::vector<std::string> problems(const std::string& text) {
    std::vector<TextFile> files{{"c.yaml", text}};
    std::vector<std::string> out;
    for (const Diagnostic& d : validate_catalog(files)) {
        out.push_back(format_diagnostic(d));
    }
    return out;
}

// The minimal fixture with one line replaced.
std::string with(const std::string& from, const std::string& to) {
    std::string text = fixture("minimal.yaml");
    auto pos = text.find(from);
    REQUIRE(pos != std::string::npos);
    return text.replace(pos, from.size(), to);
}

} // namespace

TEST_CASE("a valid catalog loads with aliases resolved to canonical names", "[catalog]") {
    std::vector<TextFile> files{{"minimal.yaml", fixture("minimal.yaml")}};
    const Catalog catalog = load_catalog(files);
    REQUIRE(catalog.gpus.size() == 1);
    REQUIRE(catalog.providers.size() == 1);
    const Instance& instance = catalog.providers[0].instances[0];
    CHECK(instance.gpu == "A100-80GB");
    CHECK(instance.prices.size() == 2);
    CHECK(instance.prices[0].spot == Approx(12.5));
    CHECK_FALSE(instance.prices[1].spot.has_value());
    CHECK(find_gpu(catalog, "a100-80gb") == &catalog.gpus[0]);
    CHECK(fx_rate(catalog, "USD", "CNY").value() == Approx(7.0));
    CHECK(fx_rate(catalog, "CNY", "USD").value() == Approx(1.0 / 7.0));
    CHECK(offer_count(catalog) == 2);
    CHECK(catalog.digest.size() == 16);
}

TEST_CASE("a catalog survives the bundle round trip unchanged", "[catalog][bundle]") {
    std::vector<TextFile> files{{"minimal.yaml", fixture("minimal.yaml")}};
    const Catalog catalog = load_catalog(files);
    const std::string bytes =
        write_bundle(catalog, {{"a.yaml", "text"}}, {{"a.yaml", std::string("\0\1", 2)}});
    const BundleView view = read_bundle(bytes);
    CHECK(view.catalog == catalog);
    REQUIRE(view.files.size() == 1);
    CHECK(view.files[0].name == "a.yaml");
    CHECK(view.files[0].text == "text");
    REQUIRE(view.compiled.size() == 1);
    CHECK(view.compiled[0].name == "a.yaml");
    CHECK(view.compiled[0].text == std::string_view("\0\1", 2));
    CHECK_THROWS_AS(read_bundle(bytes.substr(0, bytes.size() / 2)), RuntimeError);
}

TEST_CASE("bad catalog values are reported with file, line, column and path", "[catalog]") {
    CHECK(problems(with("on_demand: 32.77", "on_demand: -1")) ==
          std::vector<std::string>{"c.yaml:39:48: error: /providers/0/instances/0/prices/0/"
                                   "on_demand: expected a non-negative price, got -1"});
    CHECK(problems(with("on_demand: 32.77", "on_demand: .nan")) ==
          std::vector<std::string>{"c.yaml:39:48: error: /providers/0/instances/0/prices/0/"
                                   "on_demand: expected a non-negative price, got \".nan\""});
    CHECK(problems(with("on_demand: 32.77", "on_demand: \"abc\"")) ==
          std::vector<std::string>{"c.yaml:39:48: error: /providers/0/instances/0/prices/0/"
                                   "on_demand: expected a non-negative price, got \"abc\""});
    CHECK(problems(with("vcpus: 96", "vcpus: 0")) ==
          std::vector<std::string>{"c.yaml:35:16: error: /providers/0/instances/0/vcpus: "
                                   "expected a whole number from 1 to 100000, got \"0\""});
}

TEST_CASE("unknown keys get a did-you-mean hint", "[catalog]") {
    CHECK(problems(with("    instances:", "    instnces:")) ==
          std::vector<std::string>{
              "c.yaml:31:5: error: /providers/0/instnces: unknown key 'instnces'; did you mean "
              "'instances'?",
              "c.yaml:20:5: error: /providers/0: missing required key 'instances'"});
}

TEST_CASE("dangling references and duplicates are reported", "[catalog]") {
    CHECK(problems(with("gpu: a100-80g", "gpu: A100-80")) ==
          std::vector<std::string>{"c.yaml:33:14: error: /providers/0/instances/0/gpu: unknown "
                                   "GPU 'A100-80'; did you mean 'A100-80GB'?"});
    CHECK(problems(with("currency: USD", "currency: EUR")) ==
          std::vector<std::string>{"c.yaml:22:15: error: /providers/0/currency: currency EUR has "
                                   "no exchange rate: add it to `fx.rates`"});
    CHECK(problems(with("{region: r2, on_demand: 30.0}", "{region: r1, zone: r1a, spot: 1}")) ==
          std::vector<std::string>{"c.yaml:40:13: error: /providers/0/instances/0/prices/1: "
                                   "duplicate price row for region 'r1' zone 'r1a'"});
    CHECK(problems(with("source: ds", "source: dx")) ==
          std::vector<std::string>{
              "c.yaml:17:13: error: /gpus/0/source: unknown source 'dx'; did you mean 'ds'?"});
}

TEST_CASE("schema version, syntax errors and empty files fail precisely", "[catalog]") {
    CHECK(
        problems(with("schema_version: 1", "schema_version: 2")) ==
        std::vector<std::string>{"c.yaml:1:17: error: /schema_version: unsupported "
                                 "schema_version 2; this gpuplan reads catalog schema_version 1"});
    CHECK(problems("") ==
          std::vector<std::string>{"c.yaml: error: /: expected a mapping, got nothing"});
    auto syntax = problems("schema_version: 1\ngpus: [\n");
    REQUIRE(syntax.size() == 1);
    CHECK(syntax[0].rfind("c.yaml:3:1: error: invalid YAML:", 0) == 0);
    CHECK(problems(std::string(100, '[')) ==
          std::vector<std::string>{"c.yaml:1:65: error: nesting deeper than 64 levels"});
}

TEST_CASE("an overlay replaces an instance and adds a price without touching the rest",
          "[catalog]") {
    std::vector<TextFile> base{{"minimal.yaml", fixture("minimal.yaml")}};
    const std::string overlay = R"(schema_version: 1
sources:
  deal: {title: Negotiated price sheet}
providers:
  - name: testcloud
    instances:
      - type: big.8x
        gpu: A100-80GB
        gpu_count: 8
        vcpus: 96
        memory_gib: 1152
        prices:
          - {region: r1, on_demand: 20.0, source: deal}
)";
    std::vector<TextFile> overlays{{"deal.yaml", overlay}};
    const Catalog catalog = overlay_catalog(load_catalog(base), overlays);
    const Provider& provider = catalog.providers.at(0);
    CHECK(provider.display_name == "Test Cloud");
    REQUIRE(provider.instances.size() == 1);
    REQUIRE(provider.instances[0].prices.size() == 1);
    CHECK(provider.instances[0].prices[0].on_demand == Approx(20.0));
    CHECK(provider.instances[0].prices[0].sources == std::vector<std::string>{"deal"});
    CHECK(catalog.files == std::vector<std::string>{"minimal.yaml", "deal.yaml"});
}

TEST_CASE("a price row may carry only a yearly subscription, and it survives the bundle",
          "[catalog][bundle]") {
    const std::string text =
        with("- {region: r2, on_demand: 30.0}", "- {region: r2, yearly: 210000}");
    std::vector<TextFile> files{{"c.yaml", text}};
    const Catalog catalog = load_catalog(files);
    const PriceRow& row = catalog.providers[0].instances[0].prices[1];
    CHECK(row.yearly == Approx(210000.0));
    CHECK_FALSE(row.on_demand.has_value());
    CHECK_FALSE(row.monthly.has_value());
    CHECK(read_bundle(write_bundle(catalog, {}, {})).catalog == catalog);
    CHECK(problems(with("- {region: r2, on_demand: 30.0}", "- {region: r2, yearly: -1}")).size() ==
          1);
}

TEST_CASE("several dated exchange rates per currency: the newest converts, a date finds its own",
          "[catalog][fx]") {
    const std::string text = R"(schema_version: 1
sources:
  s: {title: "rates", grade: D}
fx:
  base: USD
  rates:
    - {currency: CNY, per_base: 7.0, as_of: 2020-07-21, source: s}
    - {currency: CNY, per_base: 7.2, as_of: 2023-06-16, source: s}
    - {currency: CNY, per_base: 6.9, as_of: 2026-02-13, source: s}
)";
    const std::vector<TextFile> files{{"fx.yaml", text}};
    const catalog::Catalog c = catalog::load_catalog(files);
    CHECK(catalog::fx_rate(c, "USD", "CNY") == Approx(6.9));
    CHECK(*catalog::fx_rate(c, "USD", "CNY", Date{2023, 6, 17}) == Approx(7.2));
    CHECK(*catalog::fx_rate(c, "USD", "CNY", Date{2021, 1, 1}) == Approx(7.0));
    CHECK(*catalog::fx_rate(c, "USD", "CNY", Date{2019, 1, 1}) == Approx(7.0)); // oldest after
    CHECK(*catalog::fx_rate(c, "USD", "CNY", Date{2027, 1, 1}) == Approx(6.9));
    const std::string twice = text + "    - {currency: CNY, per_base: 7.1, as_of: 2023-06-16, "
                                     "source: s}\n";
    const std::vector<TextFile> bad{{"fx.yaml", twice}};
    CHECK_THROWS_AS(catalog::load_catalog(bad), InputError);
}

TEST_CASE("an AMD GPU reads as cdna3 in an OAM module and survives the bundle",
          "[catalog][bundle]") {
    std::string text = with("architecture: ampere\n    form_factor: sxm",
                            "architecture: cdna3\n    form_factor: oam");
    std::vector<TextFile> files{{"c.yaml", text}};
    const Catalog catalog = load_catalog(files);
    CHECK(catalog.gpus[0].architecture == Architecture::cdna3);
    CHECK(catalog.gpus[0].form_factor == FormFactor::oam);
    CHECK(to_string(Architecture::cdna3) == "cdna3");
    CHECK(to_string(FormFactor::oam) == "oam");
    CHECK(read_bundle(write_bundle(catalog, {}, {})).catalog == catalog);
    REQUIRE(problems(with("architecture: ampere", "architecture: cdna9")).size() == 1);
}

TEST_CASE("a source may be marked undated, and the mark survives the bundle", "[catalog][bundle]") {
    const std::string text =
        with("prices: {title: Test price list, url: https://example.com/prices, grade: P}",
             "prices: {title: Test price list, url: https://example.com/prices, grade: P, "
             "undated: true}");
    std::vector<TextFile> files{{"c.yaml", text}};
    const Catalog catalog = load_catalog(files);
    CHECK(catalog.sources.at("prices").undated);
    CHECK_FALSE(catalog.sources.at("ds").undated);
    CHECK(read_bundle(write_bundle(catalog, {}, {})).catalog == catalog);
}

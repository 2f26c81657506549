#include "gpuplan/catalog/writer.hpp"
#include "gpuplan/embedded.hpp"
#include "gpuplan/feeds/skypilot.hpp"

#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>

using namespace gpuplan;
using namespace gpuplan::catalog;

namespace {

std::string sample(const std::string& name) {
    std::ifstream in(std::string(GPUPLAN_SOURCE_DIR) + "/tests/fixtures/feeds/skypilot/" + name);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

// The embedded catalog without providers: GPU models, fx and sources to read providers against.
Catalog gpu_base() {
    Catalog base = embedded::catalog();
    base.providers.clear();
    return base;
}

} // namespace

TEST_CASE("scalars are plain only when they read back as the same string", "[catalog][writer]") {
    CHECK(yaml_scalar("p4d.24xlarge") == "p4d.24xlarge");
    CHECK(yaml_scalar("n1-highmem-8+T4x1") == "n1-highmem-8+T4x1");
    CHECK(yaml_scalar("no") == "\"no\"");
    CHECK(yaml_scalar("1e5") == "\"1e5\"");
    CHECK(yaml_scalar("a: b") == "\"a: b\"");
    CHECK(yaml_scalar("say \"x\"\n") == "\"say \\\"x\\\"\\n\"");
    CHECK(yaml_scalar("") == "\"\"");
    CHECK(yaml_number(21.957642) == "21.957642");
    CHECK(yaml_number(8.0) == "8");
    CHECK(yaml_number(0.125) == "0.125");
}

TEST_CASE("imported sample feeds written as YAML read back to the same providers",
          "[catalog][writer]") {
    std::vector<feeds::FeedFile> files;
    for (const char* name :
         {"aws_gpu_vms.csv", "aws_blackwell_vms.csv", "azure_gpu_vms.csv", "gcp_gpu_vms.csv",
          "gcp_b200_vms.csv", "lambda_gpu_vms.csv", "lambda_b200_vms.csv", "nebius_gpu_vms.csv",
          "nebius_b200_vms.csv", "oci_gpu_vms_partial.csv", "gcp_n1_hosts.csv"}) {
        files.push_back({name, sample(name), std::nullopt});
    }
    feeds::FeedOptions options;
    options.as_of = Date{2026, 7, 9};
    const Catalog base = gpu_base();
    const feeds::FeedRead read = feeds::read_skypilot(files, options, base.gpus, {});
    const Catalog from_feed = overlay_feed(base, read.overlay);
    const std::string yaml =
        write_providers_yaml(from_feed.providers, from_feed.sources, "test\nround trip");
    CHECK(yaml.rfind("# test\n# round trip\nschema_version: 1\n", 0) == 0);
    const std::vector<TextFile> written{{"imported.yaml", yaml}};
    const Catalog from_yaml = overlay_catalog(base, written);
    REQUIRE(from_yaml.providers.size() == from_feed.providers.size());
    for (std::size_t i = 0; i < from_feed.providers.size(); ++i) {
        CHECK(from_yaml.providers[i].name == from_feed.providers[i].name);
        CHECK(from_yaml.providers[i].as_of == from_feed.providers[i].as_of);
        CHECK(from_yaml.providers[i].instances == from_feed.providers[i].instances);
    }
    CHECK(offer_count(from_yaml) == 2984);
}

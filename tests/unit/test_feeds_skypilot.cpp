#include "../support/diagnostics.hpp"
#include "gpuplan/embedded.hpp"
#include "gpuplan/feeds/skypilot.hpp"

#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>

using namespace gpuplan;
using namespace gpuplan::feeds;

namespace {

constexpr Date k_as_of{2026, 7, 9};

FeedFile sample(const std::string& name) {
    std::ifstream in(std::string(GPUPLAN_SOURCE_DIR) + "/tests/fixtures/feeds/skypilot/" + name);
    std::ostringstream text;
    text << in.rdbuf();
    REQUIRE(!text.str().empty());
    return {name, text.str(), std::nullopt};
}

// The options as the command line gives them: its messages name the flags.
FeedOptions flag_options() {
    FeedOptions options;
    options.provider_name = "--provider";
    options.as_of_name = "--as-of";
    return options;
}

FeedRead read(std::vector<FeedFile> files, FeedOptions options = flag_options()) {
    if (!options.as_of) {
        options.as_of = k_as_of;
    }
    return read_skypilot(files, options, embedded::catalog().gpus, {});
}

std::vector<std::string> problems(std::vector<FeedFile> files,
                                  FeedOptions options = flag_options()) {
    return test::input_problems([&] { return read(std::move(files), std::move(options)); });
}

const catalog::Instance& instance(const FeedRead& feed, std::string_view provider,
                                  std::string_view type) {
    for (const catalog::Provider& p : feed.overlay.providers) {
        for (const catalog::Instance& i : p.instances) {
            if (p.name == provider && i.type == type) {
                return i;
            }
        }
    }
    FAIL("no instance " << type);
    throw std::logic_error("unreachable");
}

const catalog::PriceRow& row(const catalog::Instance& instance, std::string_view region,
                             std::string_view zone) {
    for (const catalog::PriceRow& r : instance.prices) {
        if (r.region == region && r.zone == zone) {
            return r;
        }
    }
    FAIL("no row " << region << " " << zone);
    throw std::logic_error("unreachable");
}

const std::string k_aws_header = "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,"
                                 "GpuInfo,Price,SpotPrice,Region,AvailabilityZone\n";

} // namespace

TEST_CASE("AWS sample rows per GPU model match the published extract counts", "[feeds][skypilot]") {
    const FeedRead feed = read({sample("aws_gpu_vms.csv")});
    // prices/README.md: T4 406, A10G 306, L4 539, L40S 208, V100 69, V100-32GB 7, A100 29,
    // A100-80GB 11, H100 55, H200 31 rows; AUDIT.md: one p5e.48xlarge row has neither price.
    const std::map<std::string, std::size_t> expected{
        {"T4", 406},      {"A10G", 306}, {"L4", 539},       {"L40S", 208}, {"V100", 69},
        {"V100-32GB", 7}, {"A100", 29},  {"A100-80GB", 11}, {"H100", 55},  {"H200", 31}};
    std::map<std::string, std::size_t> csv_rows;
    std::size_t price_rows = 0;
    std::size_t dropped = 0;
    for (const AcceleratorRows& entry : feed.summary.accelerators) {
        csv_rows[entry.accelerator] = entry.csv_rows;
        price_rows += entry.price_rows;
        dropped += entry.dropped;
    }
    CHECK(csv_rows == expected);
    CHECK(dropped == 1);
    CHECK(price_rows == 1661 - 1);
    REQUIRE(feed.overlay.providers.size() == 1);
    CHECK(feed.overlay.providers.front().name == "aws");
    CHECK(feed.overlay.providers.front().instances.size() == 48);
    CHECK(feed.summary.unknown_accelerators.empty());
}

TEST_CASE("fractional GPU counts and empty prices are carried as in the feed",
          "[feeds][skypilot]") {
    const FeedRead feed = read({sample("aws_gpu_vms.csv")});
    CHECK(instance(feed, "aws", "g6f.large").gpu_count == 0.125);
    CHECK(instance(feed, "aws", "g6f.2xlarge").gpu_count == 0.25);
    CHECK(instance(feed, "aws", "gr6f.4xlarge").gpu_count == 0.5);
    const catalog::Instance& p5e = instance(feed, "aws", "p5e.48xlarge");
    for (const catalog::PriceRow& r : p5e.prices) {
        CHECK(!r.on_demand);
        CHECK(r.spot);
    }
    // AUDIT.md source anomaly 5: p4d.24xlarge us-east-1 is 21.957642.
    CHECK(row(instance(feed, "aws", "p4d.24xlarge"), "us-east-1", "use1-az1").on_demand ==
          21.957642);
}

TEST_CASE("GCP instance prices are the exact sum of the accelerator and host rows of a zone",
          "[feeds][skypilot]") {
    const FeedRead feed = read({sample("gcp_gpu_vms.csv")});
    // prices/README.md worked example: A100 x1 2.93391 + a2-highgpu-1g 0.73948 = 3.67339;
    // spot 1.5399 + 0.38812 = 1.92802.
    const catalog::PriceRow& a2 =
        row(instance(feed, "gcp", "a2-highgpu-1g"), "us-central1", "us-central1-a");
    CHECK(a2.on_demand == 3.67339);
    CHECK(a2.spot == 1.92802);
    const catalog::Instance& mega = instance(feed, "gcp", "a3-megagpu-8g");
    CHECK(mega.gpu == "H100");
    CHECK(mega.gpu_count == 8);
    CHECK(instance(feed, "gcp", "g2-standard-48").gpu_count == 4);
    // Without n1 host rows, T4 and V100 accelerator rows price nothing.
    for (const AcceleratorRows& entry : feed.summary.accelerators) {
        if (entry.accelerator == "T4") {
            CHECK(entry.price_rows == 0);
            CHECK(entry.unused == 153);
        }
    }
}

TEST_CASE("the sample feeds import to exactly the prices of the shipped catalog",
          "[feeds][skypilot]") {
    // The shipped provider files were generated from the same extracts by
    // tools/catalog_from_skypilot.py (Python, decimal arithmetic): an independent reading.
    const FeedRead feed = read(
        {sample("aws_gpu_vms.csv"), sample("aws_blackwell_vms.csv"), sample("azure_gpu_vms.csv"),
         sample("gcp_gpu_vms.csv"), sample("gcp_b200_vms.csv"), sample("lambda_gpu_vms.csv"),
         sample("lambda_b200_vms.csv"), sample("nebius_gpu_vms.csv"), sample("nebius_b200_vms.csv"),
         sample("oci_gpu_vms_partial.csv"), sample("gcp_n1_hosts.csv")});
    const catalog::Catalog& shipped = embedded::catalog();
    REQUIRE(feed.overlay.providers.size() == 6);
    // A row of the snapshot is in the shipped catalog as read, corrected by a dated list (its own
    // source: catalog/providers/*_list.yaml), or left out where the instance's note says so
    // (tools/skypilot_meta.py, GCP_LEFT_OUT). Rows and instances only a dated list has
    // carry their own source.
    const auto find_row = [](const catalog::Instance& in, const catalog::PriceRow& r) {
        auto it = std::find_if(in.prices.begin(), in.prices.end(), [&](const catalog::PriceRow& x) {
            return x.region == r.region && x.zone == r.zone;
        });
        return it == in.prices.end() ? nullptr : &*it;
    };
    for (const catalog::Provider& provider : feed.overlay.providers) {
        INFO(provider.name);
        const catalog::Provider* reference = catalog::find_provider(shipped, provider.name);
        REQUIRE(reference != nullptr);
        for (const catalog::Instance& shipped_instance : reference->instances) {
            INFO(shipped_instance.type);
            auto fed = std::find_if(
                provider.instances.begin(), provider.instances.end(),
                [&](const catalog::Instance& i) { return i.type == shipped_instance.type; });
            for (const catalog::PriceRow& r : shipped_instance.prices) {
                if (r.sources.empty()) {
                    REQUIRE(fed != provider.instances.end());
                    CHECK(find_row(*fed, r) != nullptr);
                }
            }
        }
        for (const catalog::Instance& i : provider.instances) {
            INFO(i.type);
            auto it = std::find_if(reference->instances.begin(), reference->instances.end(),
                                   [&](const catalog::Instance& r) { return r.type == i.type; });
            REQUIRE(it != reference->instances.end());
            CHECK(it->gpu == i.gpu);
            CHECK(it->gpu_count == i.gpu_count);
            CHECK(it->vcpus == i.vcpus);
            CHECK(it->memory_gib == i.memory_gib);
            for (const catalog::PriceRow& r : i.prices) {
                const catalog::PriceRow* expected = find_row(*it, r);
                if (expected == nullptr) {
                    CHECK_THAT(it->note,
                               Catch::Contains("left out in") && Catch::Contains(r.region));
                    continue;
                }
                if (!expected->sources.empty()) {
                    continue; // a dated correction of the snapshot
                }
                CHECK(expected->on_demand == r.on_demand);
                CHECK(expected->spot == r.spot);
            }
        }
    }
}

TEST_CASE("the Azure ND96isr_H100_v5 12-GPU source error is corrected and reported",
          "[feeds][skypilot]") {
    const FeedRead feed = read({sample("azure_gpu_vms.csv")});
    CHECK(instance(feed, "azure", "Standard_ND96isr_H100_v5").gpu_count == 8);
    REQUIRE(feed.summary.corrections.size() == 2);
    CHECK_THAT(feed.summary.corrections.front(), Catch::Contains("says 12 GPUs, 8 written"));
    // The source's spot prices equal to on-demand (the H100 sizes) are left out and counted.
    CHECK_THAT(feed.summary.corrections.back(),
               Catch::StartsWith("azure: ") &&
                   Catch::Contains("SpotPrice at or above Price left out"));
    // Other layouts' columns are absent in the v6 Azure file: no zones.
    CHECK(instance(feed, "azure", "Standard_NC12s_v3").prices.front().zone.empty());
}

TEST_CASE("unknown accelerator names are left out and counted, never guessed",
          "[feeds][skypilot]") {
    const FeedRead feed = read({{"aws_vms.csv",
                                 k_aws_header + "p2.xlarge,K80,1,4,61,,0.9,0.3,us-east-1,a\n"
                                                "p2.8xlarge,K80,8,32,488,,7.2,,us-east-1,a\n"
                                                "g5.xlarge,A10G,1,4,16,,1.006,0.4,us-east-1,a\n"
                                                "m5.large,,,2,8,,0.096,,us-east-1,a\n",
                                 std::nullopt}});
    CHECK(feed.summary.unknown_accelerators ==
          std::map<std::string, std::map<std::string, std::size_t>>{{"aws", {{"K80", 2}}}});
    CHECK(feed.summary.cpu_only_rows == 1);
    REQUIRE(feed.overlay.providers.size() == 1);
    CHECK(feed.overlay.providers.front().instances.size() == 1);
}

TEST_CASE("bad cells are all reported with line, column and column name", "[feeds][skypilot]") {
    CHECK(problems({{"aws_vms.csv",
                     k_aws_header + "g5.xlarge,A10G,1,4,16,,abc,0.4,us-east-1,a\n"
                                    "g5.2xlarge,A10G,1,8.5,32,,1.2,-1,us-east-1,a\n"
                                    "g5.4xlarge,A10G,1,16,64,,1.6\n",
                     std::nullopt}}) ==
          std::vector<std::string>{
              "aws_vms.csv:2:24: error: Price: expected a non-negative price, got \"abc\"",
              "aws_vms.csv:3:19: error: vCPUs: expected a non-negative whole number, got \"8.5\"",
              "aws_vms.csv:3:31: error: SpotPrice: expected a non-negative price, got \"-1\"",
              "aws_vms.csv:4:1: error: expected 10 fields as in the header, got 7"});
}

TEST_CASE("inconsistent instance rows and duplicate price rows are errors", "[feeds][skypilot]") {
    CHECK(problems({{"aws_vms.csv",
                     k_aws_header + "g5.xlarge,A10G,1,4,16,,1.0,,us-east-1,a\n"
                                    "g5.xlarge,A10G,2,4,16,,1.0,,us-east-1,b\n"
                                    "g5.2xlarge,A10G,1,8,32,,1.2,,us-east-1,a\n"
                                    "g5.2xlarge,A10G,1,8,32,,1.3,,us-east-1,a\n",
                     std::nullopt}}) ==
          std::vector<std::string>{
              "aws_vms.csv:3:1: error: instance type 'g5.xlarge' has GPU count 2 here but 1 on "
              "aws_vms.csv:2",
              "aws_vms.csv:5:1: error: duplicate price row for instance type 'g5.2xlarge' in "
              "region 'us-east-1' zone 'a' (first on aws_vms.csv:4)"});
}

TEST_CASE("the provider comes from the flag, the file name or the column layout",
          "[feeds][skypilot]") {
    CHECK(provider_from_file_name("prices/aws_gpu_vms.csv") == "aws");
    CHECK(provider_from_file_name("catalogs/v9/gcp/vms.csv") == "gcp");
    CHECK(provider_from_file_name("oci_gpu_vms_partial.csv") == "oci");
    CHECK(provider_from_file_name("feed-100k.csv").empty());
    const std::string lambda_rows = "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,"
                                    "MemoryGiB,Price,Region,GpuInfo,SpotPrice\n"
                                    "gpu_1x_a10,A10,1,30,200,0.75,us-east-1,,\n";
    CHECK(problems({{"prices.csv", lambda_rows, std::nullopt}}) ==
          std::vector<std::string>{
              "prices.csv: error: cannot tell which provider this feed is for (name the file "
              "<provider>_vms.csv or <provider>/vms.csv, or pass --provider)"});
    FeedOptions options = flag_options();
    options.provider = "lambda";
    CHECK(
        read({{"prices.csv", lambda_rows, std::nullopt}}, options).overlay.providers.front().name ==
        "lambda");
    CHECK(problems({{"aws_vms.csv", sample("gcp_gpu_vms.csv").text, std::nullopt}}) ==
          std::vector<std::string>{"aws_vms.csv:1:1: error: the file name says provider 'aws' "
                                   "but the columns are the gcp layout; pass --provider"});
    CHECK(read({{"x.csv", sample("gcp_gpu_vms.csv").text, std::nullopt}})
              .overlay.providers.front()
              .name == "gcp");
}

TEST_CASE("a Provider column lets one feed hold several providers", "[feeds][skypilot]") {
    const FeedRead feed = read({{"feed.csv",
                                 "Provider," + k_aws_header +
                                     "aws,g5.xlarge,A10G,1,4,16,,1.006,0.4,us-east-1,use1-az1\n"
                                     "lambda,gpu_1x_a10,A10,1,30,200,,0.75,,us-east-1,\n",
                                 std::nullopt}});
    REQUIRE(feed.overlay.providers.size() == 2);
    CHECK(feed.overlay.providers[0].name == "aws");
    CHECK(feed.overlay.providers[1].name == "lambda");
    CHECK(feed.overlay.providers[1].display_name == "Lambda");
}

TEST_CASE("a feed's as_of is --as-of, else the file's modification date", "[feeds][skypilot]") {
    const std::string text = k_aws_header + "g5.xlarge,A10G,1,4,16,,1.006,0.4,us-east-1,a\n";
    FeedOptions no_date;
    const FeedRead dated =
        read_skypilot(std::vector<FeedFile>{{"aws.csv", text, Date{2026, 11, 1}}}, no_date,
                      embedded::catalog().gpus, {});
    CHECK(dated.overlay.providers.front().as_of == Date{2026, 11, 1});
    CHECK(dated.summary.dates.front().second.second == AsOfOrigin::file_date);
    FeedOptions given;
    given.as_of = Date{2026, 7, 9};
    const FeedRead flagged =
        read_skypilot(std::vector<FeedFile>{{"aws.csv", text, Date{2026, 11, 1}}}, given,
                      embedded::catalog().gpus, {});
    CHECK(flagged.overlay.providers.front().as_of == Date{2026, 7, 9});
    CHECK(flagged.summary.dates.front().second.second == AsOfOrigin::option);
}

TEST_CASE("GPU models missing from the base catalog come from the fallback and travel along",
          "[feeds][skypilot]") {
    const std::string text = k_aws_header + "g5.xlarge,A10G,1,4,16,,1.006,0.4,us-east-1,a\n";
    FeedOptions options;
    options.as_of = k_as_of;
    const FeedRead feed = read_skypilot(std::vector<FeedFile>{{"aws.csv", text, std::nullopt}},
                                        options, {}, embedded::catalog().gpus);
    REQUIRE(feed.overlay.gpus.size() == 1);
    CHECK(feed.overlay.gpus.front().name == "A10G");
}

TEST_CASE("decimal text adds exactly", "[feeds][skypilot]") {
    CHECK(add_decimal_text("2.93391", "0.73948") == "3.67339");
    CHECK(add_decimal_text("0.1", "0.2") == "0.3");
    CHECK(add_decimal_text("9.99", "0.01") == "10");
    CHECK(add_decimal_text("35.39149", "0") == "35.39149");
    CHECK(add_decimal_text("1e3", "1") == std::nullopt);
    CHECK(add_decimal_text("", "1") == std::nullopt);
}

TEST_CASE("prices are the doubles parse_number reads from their text", "[feeds][skypilot]") {
    // Short plain decimals take a shortcut (an exact integer divided by a power of ten); longer
    // ones, and ones past 2^53 as integers, go through std::from_chars. Both give one value.
    const std::vector<std::string> prices{"0.47615",
                                          "1",
                                          "12.5",
                                          "0.1",
                                          "0.3",
                                          "3.14159265358979",
                                          "000123.4500",
                                          "9007199254740992",
                                          "9007199254740993",
                                          "900719925474099.3",
                                          "12345678901234567.123",
                                          "0.1234567890123456789012",
                                          "1234567890123456789",
                                          "98.7654321"};
    std::string text = k_aws_header;
    for (std::size_t i = 0; i < prices.size(); ++i) {
        // On-demand and spot in different rows (a spot price is kept only below on-demand).
        text += "g5.xlarge,A10G,1,4,16,," + prices[i] + ",,us-east-" + std::to_string(i) + ",\n";
        text += "g5.xlarge,A10G,1,4,16,,," + prices[i] + ",us-west-" + std::to_string(i) + ",\n";
    }
    const FeedRead feed = read({{"aws.csv", text, std::nullopt}});
    const catalog::Instance& g5 = instance(feed, "aws", "g5.xlarge");
    REQUIRE(g5.prices.size() == 2 * prices.size());
    for (const catalog::PriceRow& row : g5.prices) {
        const std::size_t i = std::stoul(row.region.substr(std::string("us-east-").size()));
        INFO(prices[i]);
        const bool east = row.region.rfind("us-east-", 0) == 0;
        CHECK((east ? row.on_demand : row.spot) == parse_number(prices[i]));
    }
}

TEST_CASE("a spot price at or above on-demand is left out and counted", "[feeds][skypilot]") {
    const FeedRead feed = read({{"aws.csv",
                                 k_aws_header + "g5.xlarge,A10G,1,4,16,,1.006,1.006,us-east-1,a\n"
                                                "g5.xlarge,A10G,1,4,16,,1.006,1.2,us-east-1,b\n"
                                                "g5.xlarge,A10G,1,4,16,,1.006,0.4,us-east-1,c\n",
                                 std::nullopt}});
    const catalog::Instance& g5 = instance(feed, "aws", "g5.xlarge");
    REQUIRE(g5.prices.size() == 3);
    CHECK(g5.prices[0].on_demand == 1.006);
    CHECK_FALSE(g5.prices[0].spot.has_value());
    CHECK_FALSE(g5.prices[1].spot.has_value());
    CHECK(g5.prices[2].spot == 0.4);
    CHECK(feed.summary.corrections ==
          std::vector<std::string>{"aws: 2 rows' SpotPrice at or above Price left out (no spot "
                                   "discount to plan with)"});
}

TEST_CASE("an undated snapshot marks its source undated and says so", "[feeds][skypilot]") {
    FeedOptions options;
    options.undated = true;
    const FeedRead feed = read({sample("nebius_gpu_vms.csv")}, options);
    REQUIRE(feed.overlay.sources.size() == 1);
    CHECK(feed.overlay.sources.front().undated);
    CHECK_THAT(feed.overlay.sources.front().note,
               Catch::Contains("the snapshot's own date is unknown"));
    CHECK_FALSE(read({sample("nebius_gpu_vms.csv")}).overlay.sources.front().undated);
}

TEST_CASE("PCIe and NVL instances map to their own cards, per provider", "[feeds][skypilot]") {
    const FeedRead lambda = read({sample("lambda_gpu_vms.csv"), sample("lambda_b200_vms.csv")});
    CHECK(instance(lambda, "lambda", "gpu_1x_h100_pcie").gpu == "H100-PCIe");
    CHECK(instance(lambda, "lambda", "gpu_1x_h100_sxm5").gpu == "H100");
    CHECK(instance(lambda, "lambda", "gpu_1x_a100").gpu == "A100-40GB-PCIe");
    CHECK(instance(lambda, "lambda", "gpu_4x_a100").gpu == "A100-40GB-PCIe");
    CHECK(instance(lambda, "lambda", "gpu_1x_a100_sxm4").gpu == "A100");
    CHECK(instance(lambda, "lambda", "gpu_8x_a100").gpu == "A100");
    CHECK(instance(lambda, "lambda", "gpu_8x_b200_sxm6").gpu == "B200");
    const FeedRead azure = read({sample("azure_gpu_vms.csv")});
    CHECK(instance(azure, "azure", "Standard_NC40ads_H100_v5").gpu == "H100-NVL");
    CHECK(instance(azure, "azure", "Standard_NC80adis_H100_v5").gpu == "H100-NVL");
    CHECK(instance(azure, "azure", "Standard_ND96isr_H100_v5").gpu == "H100");
    CHECK(instance(azure, "azure", "Standard_NC24ads_A100_v4").gpu == "A100-80GB-PCIe");
    CHECK(instance(azure, "azure", "Standard_ND96amsr_A100_v4").gpu == "A100-80GB");
    CHECK(instance(azure, "azure", "Standard_NC6s_v3").gpu == "V100-PCIe");
    CHECK(instance(azure, "azure", "Standard_NC24rs_v3").gpu == "V100-PCIe");
    CHECK(instance(azure, "azure", "Standard_ND40rs_v2").gpu == "V100-32GB");
    // Rows are counted per accelerator name and the card it maps to.
    const auto& counts = lambda.summary.accelerators;
    CHECK(std::count_if(counts.begin(), counts.end(),
                        [](const AcceleratorRows& r) { return r.accelerator == "H100"; }) == 2);
}

TEST_CASE("Blackwell rows of AWS, GCP, Lambda and Nebius import as B200 and B300",
          "[feeds][skypilot]") {
    const FeedRead feed = read({sample("aws_blackwell_vms.csv"), sample("gcp_b200_vms.csv"),
                                sample("nebius_b200_vms.csv")});
    CHECK(instance(feed, "aws", "p6-b200.48xlarge").gpu == "B200");
    CHECK(instance(feed, "aws", "p6-b300.48xlarge").gpu == "B300");
    // GCP A4: the host rows are 0.0, so the accelerator row is the whole price.
    const catalog::Instance& a4 = instance(feed, "gcp", "a4-highgpu-8g");
    CHECK(a4.gpu == "B200");
    CHECK(a4.gpu_count == 8);
    CHECK(row(a4, "us-central1", "us-central1-b").on_demand == 90.216);
    CHECK(instance(feed, "nebius", "gpu-b200-sxm_8gpu-160vcpu-1792gb").gpu == "B200");
    CHECK(feed.summary.unknown_accelerators.empty());
}

TEST_CASE("the feed-only providers are what catalog import writes from their extracts",
          "[feeds][skypilot]") {
    // catalog/providers/{runpod,...}.yaml are written by tools/import_feeds.sh.
    FeedOptions options;
    options.as_of = Date{2026, 12, 1};
    options.undated = true;
    // Shadeform's resales of clouds the catalog carries itself are left out of its file, as
    // tools/import_feeds.sh filters them.
    FeedFile shadeform = sample("shadeform_gpu_vms.csv");
    {
        std::istringstream lines{std::string(shadeform.text.view())};
        std::string kept;
        for (std::string line; std::getline(lines, line);) {
            const std::string cloud = line.substr(0, line.find('_'));
            if (!(cloud == "lambdalabs" || cloud == "nebius" || cloud == "digitalocean" ||
                  cloud == "hyperstack" || cloud == "crusoe" || cloud == "verda" ||
                  cloud == "paperspace" || cloud == "cudo" || cloud == "scaleway")) {
                kept += line + "\n";
            }
        }
        shadeform.text = FeedText(std::move(kept));
    }
    const FeedRead feed = read(
        {sample("runpod_gpu_vms.csv"), sample("vast_gpu_vms.csv"), sample("fluidstack_gpu_vms.csv"),
         sample("cudo_gpu_vms.csv"), sample("hyperbolic_gpu_vms.csv"), shadeform,
         sample("verda_gpu_vms.csv"), sample("paperspace_gpu_vms.csv"), sample("do_gpu_vms.csv")},
        options);
    REQUIRE(feed.overlay.providers.size() == 9);
    for (const catalog::Provider& provider : feed.overlay.providers) {
        INFO(provider.name);
        const catalog::Provider* shipped =
            catalog::find_provider(embedded::catalog(), provider.name);
        REQUIRE(shipped != nullptr);
        CHECK(shipped->as_of == Date{2026, 12, 1});
        // Rows a dated list corrects carry their own source (catalog/providers/*_list.yaml);
        // every other row is the extract's.
        REQUIRE(shipped->instances.size() == provider.instances.size());
        for (std::size_t i = 0; i < provider.instances.size(); ++i) {
            catalog::Instance expected = shipped->instances[i];
            for (std::size_t r = 0;
                 r < expected.prices.size() && r < provider.instances[i].prices.size(); ++r) {
                if (!expected.prices[r].sources.empty()) {
                    expected.prices[r] = provider.instances[i].prices[r];
                }
            }
            CHECK(expected == provider.instances[i]);
        }
        REQUIRE(shipped->sources.size() == 1);
        CHECK(embedded::catalog().sources.at(shipped->sources.front()).undated);
    }
    // Each cloud's PCIe and NVL cards, and its own accelerator names.
    CHECK(instance(feed, "runpod", "8x_H100_SECURE").gpu == "H100-PCIe");
    CHECK(instance(feed, "runpod", "4x_H100-SXM_SECURE").gpu == "H100");
    CHECK(instance(feed, "runpod", "10x_H100-NVL_SECURE").gpu == "H100-NVL");
    CHECK(instance(feed, "runpod", "1x_A100-80GB_SECURE").gpu == "A100-80GB-PCIe");
    CHECK(instance(feed, "runpod", "6x_A100-80GB-SXM_SECURE").gpu == "A100-80GB");
    CHECK(instance(feed, "runpod", "4x_MI300X_SECURE").gpu == "MI300X");
    CHECK(instance(feed, "vast", "1x-H100_NVL-32-65536").gpu == "H100-NVL");
    CHECK(instance(feed, "vast", "1x-H100_SXM-32-65536").gpu == "H100");
    CHECK(instance(feed, "vast", "2x-A100_PCIE-32-65536").gpu == "A100-40GB-PCIe");
    CHECK(instance(feed, "vast", "1x-RTX_4090-32-65536").gpu == "RTX4090");
    CHECK(instance(feed, "cudo", "epyc-genoa-a100-pcie_1x2v4gb").gpu == "A100-80GB-PCIe");
    CHECK(instance(feed, "cudo", "sapphire-rapids-h100_8x96v192gb").gpu == "H100");
    CHECK(instance(feed, "fluidstack", "H100_NVLINK_80GB::8").gpu == "H100");
    CHECK(instance(feed, "verda", "8A100.176V").gpu == "A100-80GB");
    CHECK(instance(feed, "verda", "8A100.40S.176V").gpu == "A100");
    CHECK(instance(feed, "verda", "1B300.30V").gpu == "B300");
    // The importer still names a resold Crusoe A100 80 GB by its card, the PCIe one.
    CHECK(
        instance(read({sample("shadeform_gpu_vms.csv")}, options), "shadeform", "crusoe_A100-80GB")
            .gpu == "A100-80GB-PCIe");
    CHECK(instance(feed, "shadeform", "denvr_A100-sxm4-80GB").gpu == "A100-80GB");
    // Vast.ai's SpotPrice 0.00 is not a free spot market.
    const catalog::Instance& rtx = instance(feed, "vast", "1x-RTX_5090-32-65536");
    CHECK(std::none_of(rtx.prices.begin(), rtx.prices.end(),
                       [](const catalog::PriceRow& r) { return r.spot.has_value(); }));
    CHECK(std::any_of(
        feed.summary.corrections.begin(), feed.summary.corrections.end(),
        [](const std::string& c) { return c.rfind("vast: 52 rows' SpotPrice", 0) == 0; }));
}

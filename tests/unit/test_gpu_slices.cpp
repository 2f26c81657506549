#include "gpuplan/catalog/loader.hpp"
#include "gpuplan/cost/plan.hpp"
#include "gpuplan/estimate/estimate.hpp"
#include "gpuplan/workload/reader.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>

using namespace gpuplan;

namespace {

std::string read(const std::string& path) {
    std::ifstream in(std::string(GPUPLAN_SOURCE_DIR) + "/tests/fixtures/" + path);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

catalog::Catalog slices() {
    const std::vector<TextFile> files{{"slices.yaml", read("catalog/slices.yaml")}};
    return catalog::load_catalog(files);
}

std::vector<std::string> problems(const std::string& text) {
    std::vector<TextFile> files{{"c.yaml", text}};
    std::vector<std::string> out;
    for (const Diagnostic& d : catalog::validate_catalog(files)) {
        out.push_back(format_diagnostic(d));
    }
    return out;
}

std::string slices_with(const std::string& from, const std::string& to) {
    std::string text = read("catalog/slices.yaml");
    const auto pos = text.find(from);
    REQUIRE(pos != std::string::npos);
    return text.replace(pos, from.size(), to);
}

catalog::Gpu l4() {
    catalog::Gpu gpu;
    gpu.name = "L4";
    gpu.architecture = catalog::Architecture::ada;
    gpu.form_factor = catalog::FormFactor::pcie;
    gpu.memory_gib = 24;
    gpu.memory_bandwidth_gb_per_s = 300;
    gpu.tflops[static_cast<std::size_t>(catalog::Precision::fp16)] = 121;
    gpu.tdp_watts = 72;
    gpu.nvlink_gb_per_s = 0;
    return gpu;
}

cost::Plan plan_for(const std::string& workload_file) {
    const catalog::Catalog catalog = slices();
    const workload::Workload w =
        workload::read_workload({workload_file, read("workloads/" + workload_file)});
    return cost::plan(
        w, catalog, cost::Settings{},
        [&](const catalog::Gpu& gpu, const estimate::NodeShape& node, std::optional<int> count) {
            return estimate::estimate(w, gpu, node, count, catalog);
        });
}

const cost::Option& option(const cost::Plan& plan, const std::string& instance) {
    const auto it = std::find_if(plan.options().begin(), plan.options().end(),
                                 [&](const cost::Option& o) { return o.instance == instance; });
    REQUIRE(it != plan.options().end());
    return *it;
}

} // namespace

TEST_CASE("a vendor fraction scales memory, bandwidth and throughput by its share", "[slices]") {
    catalog::Instance instance;
    instance.gpu = "L4";
    instance.gpu_count = 0.125;
    const auto slice = catalog::gpu_slice(l4(), instance);
    REQUIRE(slice.has_value());
    CHECK(slice->label == "1/8 L4");
    const catalog::Gpu gpu = catalog::slice_gpu(l4(), *slice);
    CHECK(gpu.memory_gib == Approx(3.0));
    CHECK(gpu.memory_bandwidth_gb_per_s == Approx(37.5));
    CHECK(gpu.peak_tflops(catalog::Precision::fp16).value() == Approx(121.0 / 8));
    CHECK_FALSE(gpu.peak_tflops(catalog::Precision::bf16).has_value());
    CHECK(gpu.nvlink_gb_per_s == 0.0);
    instance.gpu_memory_gib = 2.5; // the vendor's figure wins
    CHECK(catalog::gpu_slice(l4(), instance)->memory_gib == Approx(2.5));
    instance.gpu_count = 1;
    CHECK_FALSE(catalog::gpu_slice(l4(), instance).has_value());
    CHECK_FALSE(catalog::is_slice(instance));
}

TEST_CASE("a MIG profile takes compute slices of 7 and memory slices of 8", "[slices]") {
    const catalog::Catalog catalog = slices();
    const catalog::Gpu& a100 = catalog.gpus.at(0);
    const catalog::Instance& three = catalog.providers.at(0).instances.at(2);
    REQUIRE(three.mig_profile == "3g.40gb");
    CHECK(three.gpu_count == Approx(3.0 / 7.0));
    CHECK(catalog::is_slice(three));
    const auto slice = catalog::gpu_slice(a100, three);
    REQUIRE(slice.has_value());
    CHECK(slice->label == "A100-80GB MIG 3g.40gb");
    const catalog::Gpu gpu = catalog::slice_gpu(a100, *slice);
    CHECK(gpu.memory_gib == Approx(40.0));
    CHECK(gpu.memory_bandwidth_gb_per_s == Approx(2039.0 / 2));
    CHECK(gpu.peak_tflops(catalog::Precision::bf16).value() == Approx(312.0 * 3 / 7));
    CHECK(gpu.nvlink_gb_per_s == 0.0);
    const catalog::MigProfile* one = catalog::find_mig_profile("A100", "1g.5gb");
    REQUIRE(one != nullptr);
    CHECK(one->compute_slices == 1);
    CHECK(one->memory_slices == 1);
    CHECK(catalog::find_mig_profile("A100-80GB", "1g.5gb") == nullptr);
    CHECK(catalog::mig_profiles("H200").size() == 6);
    CHECK(catalog::mig_profiles("L4").empty());
    CHECK(catalog::mig_compute_slices("7g.141gb") == 7);
    CHECK_FALSE(catalog::mig_compute_slices("8g.80gb").has_value());
    CHECK_FALSE(catalog::mig_compute_slices("1g.gb").has_value());
}

TEST_CASE("the catalog rejects slices it cannot plan", "[slices][catalog]") {
    CHECK(problems(read("catalog/slices.yaml")).empty());
    const auto wrong = problems(slices_with("mig_profile: 1g.10gb", "mig_profile: 1g.5gb"));
    REQUIRE(wrong.size() == 1);
    CHECK_THAT(wrong[0], Catch::Contains("GPU 'A100-80GB' has no MIG profile '1g.5gb'; its "
                                         "profiles: 1g.10gb, 1g.20gb"));
    const auto bad = problems(slices_with("mig_profile: 1g.10gb", "mig_profile: one"));
    REQUIRE_FALSE(bad.empty());
    CHECK_THAT(bad[0], Catch::Contains("'one' is not a MIG profile name"));
    const auto both =
        problems(slices_with("mig_profile: 1g.10gb", "mig_profile: 1g.10gb\n        gpu_count: 1"));
    REQUIRE(both.size() == 1);
    CHECK_THAT(both[0], Catch::Contains("leave gpu_count out"));
    const auto big = problems(slices_with("gpu_memory_gib: 40", "gpu_memory_gib: 96"));
    REQUIRE(big.size() == 1);
    CHECK_THAT(big[0], Catch::Contains("gpu_memory_gib 96 is more than the 80 GiB"));
    const auto whole =
        problems(slices_with("gpu_count: 1\n", "gpu_count: 1\n        gpu_memory_gib: 20\n"));
    REQUIRE(whole.size() == 1);
    CHECK_THAT(whole[0], Catch::Contains("gpu_memory_gib is the memory of a fractional GPU"));
}

TEST_CASE("a small model is served on the cheapest slice, one slice only", "[slices][plan]") {
    const cost::Plan plan = plan_for("serve-1b-slice.yaml");
    const cost::Option* best = nullptr;
    for (const cost::Option& o : plan.options()) {
        CHECK(o.gpu == "A100-80GB");
        if (!o.gpu_slice.empty()) {
            CHECK(o.gpu_count == 1);
            CHECK(o.nodes == 1);
            CHECK_FALSE(o.nvlink);
        }
        if (!o.rejection && (best == nullptr || o.npv < best->npv)) {
            best = &o;
        }
    }
    REQUIRE(best != nullptr);
    CHECK(best->instance == "mig.1g");
    CHECK(best->gpu_slice == "A100-80GB MIG 1g.10gb");
    CHECK(cost::gpus_text(*best) == "A100-80GB MIG 1g.10gb");
    CHECK(cost::gpus_text(option(plan, "whole.1x")) == "1 x A100-80GB");
    CHECK(std::none_of(plan.assumptions.begin(), plan.assumptions.end(), [](const std::string& a) {
        return a.find("not planned") != std::string::npos;
    }));
}

TEST_CASE("a model larger than a slice's memory is rejected on it", "[slices][plan]") {
    const cost::Plan plan = plan_for("serve-13b-slice.yaml");
    const cost::Option& one = option(plan, "mig.1g");
    REQUIRE(one.rejection == cost::Rejection::does_not_fit);
    CHECK(one.detail.limit == Approx(10.0));
    CHECK(one.detail.value > 24.0);
    CHECK_THAT(cost::reason(plan, one),
               Catch::Contains("on one A100-80GB MIG 1g.10gb, which has 10.0 GiB (a job never "
                               "spans several slices)"));
    CHECK_FALSE(option(plan, "mig.3g").rejection.has_value());
    CHECK_FALSE(option(plan, "whole.1x").rejection.has_value());
}

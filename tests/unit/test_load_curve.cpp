#include "../support/diagnostics.hpp"
#include "../support/files.hpp"
#include "codecs/workload_bundle.hpp"
#include "gpuplan/curve/curve.hpp"
#include "gpuplan/embedded.hpp"
#include "gpuplan/error.hpp"
#include "gpuplan/recommend/recommend.hpp"
#include "gpuplan/workload/reader.hpp"

#include <catch2/catch.hpp>
#include <cmath>
#include <map>

using namespace gpuplan;
using namespace gpuplan::workload;

namespace {

const std::string k_service = R"(schema_version: 1
task: inference
model: {params: 8B, layers: 32, hidden: 4096, heads: 32, kv_heads: 8, seq_len: 8192}
)";

// 24 multipliers: `peak` from 09:00 to 19:00, `night` otherwise.
std::string day(const std::string& night, const std::string& peak) {
    std::string out = "[";
    for (int h = 0; h < 24; ++h) {
        out += (h > 0 ? ", " : "") + (h >= 9 && h < 19 ? peak : night);
    }
    return out + "]";
}

// Files a test workload names, by path.
FileLoader files(std::map<std::string, std::string> contents) {
    return [contents](const std::string& path, std::string& why) -> std::optional<TextFile> {
        auto found = contents.find(path);
        if (found == contents.end()) {
            why = "No such file or directory";
            return std::nullopt;
        }
        return TextFile{path, found->second};
    };
}

Workload read(const std::string& text, const FileLoader& load = {}) {
    return read_workload({"dir/w.yaml", text}, {}, {}, {}, nullptr, load);
}

std::vector<std::string> problems(const std::string& text, const FileLoader& load = {}) {
    return test::input_problems([&] { return read(text, load); });
}

} // namespace

TEST_CASE("a weekday curve fills the weekend and scales requests_per_second", "[load]") {
    const Workload w = read(k_service +
                            "inference:\n  requests_per_second: 30\n  load:\n"
                            "    weekday: " +
                            day("0.2", "1") + "\n    growth_per_month: 2%\n");
    REQUIRE(w.inference.load.has_value());
    const Load& load = *w.inference.load;
    REQUIRE(load.hourly.size() == 168);
    CHECK(load.hourly[9] == 1.0);
    CHECK(load.hourly[8] == 0.2);
    CHECK(load.hourly[5 * 24 + 9] == 1.0); // Saturday is a weekday without `weekend`
    CHECK(load.growth_per_month == Approx(0.02));
    const std::vector<double> rates = curve::week_rates(w, 0);
    CHECK(rates[10] == Approx(30.0));
    CHECK(rates[0] == Approx(6.0));
    CHECK(curve::week_rates(w, 12)[10] == Approx(30.0 * std::pow(1.02, 12)));
}

TEST_CASE("a weekend curve and a week curve read as 168 hours", "[load]") {
    const Workload w = read(k_service + "inference:\n  load:\n    weekday: " + day("0.2", "1") +
                            "\n    weekend: " + day("0.1", "0.3") + "\n");
    CHECK(w.inference.load->hourly[5 * 24 + 9] == Approx(0.3));
    CHECK(w.inference.load->hourly[6 * 24 + 0] == Approx(0.1));
    std::string week = "[1";
    for (int h = 1; h < 168; ++h) {
        week += ", 0.5";
    }
    const Workload v = read(k_service + "inference:\n  load:\n    week: " + week + "]\n");
    CHECK(v.inference.load->hourly.front() == 1.0);
    CHECK(v.inference.load->hourly.back() == 0.5);
}

TEST_CASE("a bad load curve is reported at its place", "[load]") {
    CHECK(problems(k_service + "inference:\n  load:\n    weekday: [1, 2]\n") ==
          std::vector<std::string>{
              "dir/w.yaml:6:14: error: /inference/load/weekday: expected 24 hourly multipliers, "
              "got 2"});
    CHECK(problems(k_service + "inference:\n  load:\n    weekday: " + day("0.2", "0.8") + "\n") ==
          std::vector<std::string>{
              "dir/w.yaml:6:5: error: /inference/load: the largest multiplier must be 1 "
              "(requests_per_second is the peak), got 0.8"});
    CHECK(problems(k_service + "inference:\n  hours_per_day: 10\n  load:\n    weekday: " +
                   day("0", "1") + "\n") ==
          std::vector<std::string>{"dir/w.yaml:5:18: error: /inference/hours_per_day: a load "
                                   "curve gives the hours of service itself; drop hours_per_day"});
    CHECK(
        problems(k_service + "inference:\n  load:\n    weekend: " + day("0", "1") + "\n") ==
        std::vector<std::string>{"dir/w.yaml:6:5: error: /inference/load: weekend needs weekday"});
    CHECK(problems(k_service +
                   "inference:\n  autoscaling: {min_replicas: 2, scale_to_zero: true}\n") ==
          std::vector<std::string>{
              "dir/w.yaml:5:31: error: /inference/autoscaling/min_replicas: min_replicas above 0 "
              "keeps replicas warm; it contradicts scale_to_zero: true"});
}

TEST_CASE("a CSV curve is read relative to the workload and its peak is the rate", "[load]") {
    std::string csv = "hour,rate\n";
    for (int h = 0; h < 24; ++h) {
        csv += std::to_string(h) + "," + (h == 12 ? "40" : "10") + "\n";
    }
    const Workload w =
        read(k_service + "inference:\n  load: {csv: rates.csv}\n", files({{"dir/rates.csv", csv}}));
    CHECK(w.inference.requests_per_second == 40.0);
    CHECK(w.inference.load->csv == "rates.csv");
    CHECK(w.inference.load->hourly[12] == 1.0);
    CHECK(w.inference.load->hourly[13] == 0.25);
    CHECK(w.inference.load->hourly[24 + 12] == 1.0);
    CHECK(problems(k_service + "inference:\n  load: {csv: rates.csv}\n",
                   files({{"dir/rates.csv", "1\n2\nx\n"}})) ==
          std::vector<std::string>{
              "dir/rates.csv:3:1: error: /inference/load/csv: expected a rate in requests/s "
              "from 0, got \"x\""});
    CHECK(problems(k_service + "inference:\n  load: {csv: rates.csv}\n",
                   files({{"dir/rates.csv", "1\n2\n"}})) ==
          std::vector<std::string>{"dir/rates.csv:2:1: error: /inference/load/csv: expected 24 "
                                   "hourly rates (a day), 168 (a week) or a multiple of 168 "
                                   "(weeks), got 2"});
    CHECK(problems(k_service + "inference:\n  load: {csv: gone.csv}\n", files({})) ==
          std::vector<std::string>{"dir/w.yaml:5:15: error: /inference/load/csv: cannot read "
                                   "load curve \"dir/gone.csv\": No such file or directory"});
}

TEST_CASE("a workload with a curve survives the bundle codec", "[load]") {
    Workload w = read(k_service + "inference:\n  load:\n    weekday: " + day("0.2", "1") +
                      "\n  autoscaling: {scale_to_zero: true, cold_start_s: 90, headroom: 10%}\n");
    REQUIRE(w.inference.autoscaling.has_value());
    CHECK(w.inference.autoscaling->headroom == Approx(0.1));
    CHECK(codecs::read_workload_bundle(codecs::write_workload_bundle(w)) == w);
}

TEST_CASE("an hour is sized for its one-minute Poisson burst at the targets' percentile",
          "[load]") {
    CHECK(curve::sized_rate(30.0, 50, 0.0) == 30.0);
    CHECK(curve::sized_rate(30.0, 90, 0.0) ==
          Approx(30.0 + 1.2815515655446004 * std::sqrt(30.0 / 60.0)));
    CHECK(curve::sized_rate(30.0, 50, 0.2) == Approx(36.0));
    CHECK(curve::sized_rate(0.0, 90, 0.2) == 0.0);
}

namespace {

std::optional<curve::CurvePlan>
curve_of_example(const std::string& file, const std::vector<std::string>& gpus = {},
                 const std::optional<Autoscaling>& scaling = std::nullopt) {
    const catalog::Catalog catalog = embedded::decode_catalog();
    workload::Workload w =
        read_workload({file, test::slurp(std::string(GPUPLAN_SOURCE_DIR) + "/" + file)});
    if (!gpus.empty()) {
        w.constraints.gpu_models = gpus;
    }
    if (scaling) {
        w.inference.autoscaling = scaling;
    }
    recommend::Settings settings;
    settings.rules = recommend::RuleUse::none;
    const recommend::Recommendation r =
        recommend::recommend(w, catalog, nullptr, settings, GeneratorInfo{});
    return curve::plan_curve(r, catalog);
}

} // namespace

TEST_CASE("a chat service at 30 requests/s for 10 weekday hours costs at most 0.75 of the flat "
          "peak plan with the targets met in every hour",
          "[load]") {
    for (const std::vector<std::string>& gpus :
         {std::vector<std::string>{}, std::vector<std::string>{"A100"}}) {
        const auto plan = curve_of_example("examples/chat-curve.yaml", gpus);
        REQUIRE(plan.has_value());
        CHECK(plan->npv <= 0.75 * plan->flat_peak_npv);
        CHECK(plan->hours_met == 168);
        CHECK(plan->hours_missed.empty());
        REQUIRE(plan->hours.size() == 168);
        // The weekday peak needs more replicas than the night, and the burst covers it.
        CHECK(plan->hours[10].needed > plan->hours[2].needed);
        CHECK(plan->hours[10].committed + plan->hours[10].burst >= 1);
    }
}

TEST_CASE("a scale-to-zero service whose cold start breaks its target is told the warm "
          "replicas that fix it",
          "[load]") {
    const auto plan = curve_of_example("examples/internal-tool-scale-to-zero.yaml");
    REQUIRE(plan.has_value());
    REQUIRE(plan->cold_start.has_value());
    CHECK(plan->cold_start->breaks_target);
    CHECK(plan->cold_start->warm_replicas == 1);
    // The first hour with requests of each weekday starts cold.
    CHECK(plan->hours_missed == std::vector<int>{8, 32, 56, 80, 104});
}

namespace {

Autoscaling scaling_with(int min_replicas, int granularity, double headroom) {
    Autoscaling out;
    out.min_replicas = min_replicas;
    out.granularity = granularity;
    out.headroom = headroom;
    return out;
}

} // namespace

TEST_CASE("min_replicas, granularity and headroom shape the replicas each hour needs", "[load]") {
    const auto plain = curve_of_example("examples/chat-curve.yaml", {"A100"});
    REQUIRE(plain.has_value());
    const auto warm =
        curve_of_example("examples/chat-curve.yaml", {"A100"}, scaling_with(3, 1, 0.0));
    const auto steps =
        curve_of_example("examples/chat-curve.yaml", {"A100"}, scaling_with(0, 3, 0.0));
    const auto roomy =
        curve_of_example("examples/chat-curve.yaml", {"A100"}, scaling_with(0, 1, 1.0));
    REQUIRE(warm.has_value());
    REQUIRE(steps.has_value());
    REQUIRE(roomy.has_value());
    for (std::size_t h = 0; h < 168; ++h) {
        CHECK(warm->hours[h].needed == std::max(3, plain->hours[h].needed));
        CHECK(steps->hours[h].needed % 3 == 0);
        CHECK(steps->hours[h].needed >= plain->hours[h].needed);
        CHECK(roomy->hours[h].needed >= plain->hours[h].needed);
    }
    CHECK(roomy->peak_replicas > plain->peak_replicas);
    CHECK(warm->npv >= plain->npv);
}

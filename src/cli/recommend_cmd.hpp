#pragma once
// `gpuplan recommend` and `gpuplan tco`.

#include "cli/common.hpp"
#include "cli/workload_input.hpp"
#include "gpuplan/cost/plan.hpp"
#include "gpuplan/recommend/recommend.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gpuplan::cli {

// Cost-engine flags shared by recommend and tco, as typed.
struct CostFlags {
    std::vector<std::string> discounts; // PROVIDER=FRACTION, e.g. aws=15%
    std::optional<std::string> interruption_rate;
    std::optional<std::string> checkpoint_gb_per_s;
    std::optional<std::string> storage_price;
    bool bridge = false;
    int simulate = 0;
    std::uint64_t seed = 1;
};

// Which decision tree shapes the search (docs/decision-rules.md).
struct RulesChoice {
    std::string file;     // --rules FILE; empty = the shipped tree
    bool none = false;    // --no-rules
    bool explain = false; // --explain: price excluded options and print the full trace
};

struct RecommendOptions {
    WorkloadInput input;
    CostFlags cost;
    std::string objective = "cost";
    int top = 10;
    bool expand_regions = false; // --expand-regions: one row per option, identical ones too
    bool accept_soft = false;    // --accept-soft: soft answers rank among the firm ones
    bool fail_if_none = false;
    bool details = false;                   // --details: every section after the first screen
    std::vector<std::string> emit;          // --emit KIND FILE, in pairs
    std::optional<std::string> option;      // --option N|ID: the row --emit writes (default 1)
    bool uncertainty = false;               // --uncertainty: the Monte Carlo confidence block
    int draws = recommend::k_default_draws; // --draws N
    RulesChoice rules;
    // Not a flag: check prices the larger GPU counts (as --objective time does) to find an option
    // id ending in @N.
    cost::GpuCounts counts = cost::GpuCounts::minimum;
};

struct TcoOptions {
    WorkloadInput input;
    CostFlags cost;
};

// Parses the cost flags; throws UsageError naming the flag for a bad value.
[[nodiscard]] cost::Settings parse_cost_flags(const CostFlags& flags, const CommonOptions& common);

// Maps recommend's flags to the pipeline's settings and runs it (recommend's answer, also the
// input of check and report); `cache` is the price cache in `catalog`, for its provenance.
// Throws UsageError, InputError as run_recommend.
[[nodiscard]] recommend::Recommendation
make_recommendation(const CommonOptions& common, const RecommendOptions& options,
                    const catalog::Catalog& catalog, const Io& io, bool with_sensitivity = false,
                    const std::optional<recommend::PriceCache>& cache = std::nullopt);

// Ranks every feasible option; exit 4 with --fail-if-none when nothing is feasible.
[[nodiscard]] Exit run_recommend(const CommonOptions& common, const RecommendOptions& options,
                                 Io& io);
// Month-by-month cash flows of each purchase option for one GPU model and count (default: the
// best option of `recommend`).
[[nodiscard]] Exit run_tco(const CommonOptions& common, const TcoOptions& options, Io& io);

} // namespace gpuplan::cli

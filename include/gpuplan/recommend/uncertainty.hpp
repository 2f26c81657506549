#pragma once
// Decision confidence: a seeded Monte Carlo over the inputs a recommendation rests on (the
// estimator's error, price drift by price basis, spot interruption rates, exchange rates, and the
// workload's own utilisation and demand ranges). Each draw re-prices the already priced options
// from their itemised cash flows and re-ranks them; nothing is estimated again. Flip points for
// the top two options are found on the real pipeline, so a flag set just past one reproduces it
// (docs/methodology.md, "C14. Decision confidence"). Pure and deterministic for a given seed.

#include "gpuplan/catalog/catalog.hpp"
#include "gpuplan/cost/plan.hpp"
#include "gpuplan/decide/tree.hpp"
#include "gpuplan/rank/rank.hpp"
#include "gpuplan/workload/workload.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace gpuplan::recommend {

enum class RuleUse;

// Draws when --uncertainty gives no number, and the most a run takes.
inline constexpr int k_default_draws = 2000;
inline constexpr int k_max_draws = 100000;
// The options drawn: the best-ranked groups whose cost is within this factor of the best, at
// most k_max_drawn of them (an option twice the best needs every input against it at once).
inline constexpr double k_drawn_cost_factor = 2.0;
inline constexpr std::size_t k_max_drawn = 200;
// Normal draws are cut at this many standard deviations, so every factor stays finite.
inline constexpr double k_draw_cut_sigmas = 3.0;

// An uncertain input, as the confidence block names it.
enum class UncertainInput {
    estimate,    // the estimator's speed on each GPU model (the MFU, or a service's throughput)
    prices,      // each provider's price of a product, by price basis and age
    spot_rate,   // each spot option's interruption rate, within its source's band
    fx,          // exchange rates into the output currency
    utilisation, // the share of the planned work that happens (uncertainty.utilisation)
    demand,      // a service's request rate (uncertainty.demand)
};
[[nodiscard]] std::string_view to_string(UncertainInput input);

// How one input is drawn in this run, with the source of its spread.
struct InputSpread {
    UncertainInput input = UncertainInput::estimate;
    std::string what;   // "lognormal, median error 26.1% (sigma 0.344)", "uniform 0.6-1.0"
    std::string source; // where the spread comes from (methodology, workload, catalog)

    bool operator==(const InputSpread&) const = default;
};

// Overrides of the default spreads: the workload's `uncertainty:` section.
using UncertaintyInputs = workload::Uncertainty;

// What a run asks of the Monte Carlo.
struct UncertaintySettings {
    int draws = 0; // 0 = no Monte Carlo
    std::uint64_t seed = 1;
    UncertaintyInputs inputs;

    bool operator==(const UncertaintySettings&) const = default;
};

// One drawn option (a ranked group's shown option).
struct OptionConfidence {
    std::size_t group = 0; // index into Recommendation::groups
    double p_best = 0.0;   // share of draws in which it ranks first
    double cost_p50 = 0.0; // undiscounted total, output currency
    double cost_p90 = 0.0;
    double npv_p10 = 0.0;
    double npv_p50 = 0.0;
    double npv_p90 = 0.0;
    double wall_p90_hours = 0.0;          // training: P90 of the wall time; service: its hours
    std::optional<double> latency_p90_ms; // a service with a time target: P90 of its first one
    double p_meets = 0.0;                 // share of draws meeting the deadline, budget, targets

    bool operator==(const OptionConfidence&) const = default;
};

// Where the top two options swap: the value of one input past which the runner-up ranks first.
struct Flip {
    UncertainInput input = UncertainInput::estimate;
    std::string subject; // what the input is of: "all GPUs", a provider, a currency
    double base = 0.0;   // the value the answer used
    double value = 0.0;  // the value at which they swap
    bool below = true;   // the runner-up wins below `value` (else above it)
    std::string winner;  // the runner-up's id
    std::string flag;    // a flag that reproduces it (`--mfu 0.331`); empty when none does

    bool operator==(const Flip&) const = default;
};

// The confidence block of a recommendation.
struct Confidence {
    int draws = 0;
    std::uint64_t seed = 0;
    std::vector<OptionConfidence> options; // drawn groups, in ranked order
    std::size_t groups_total = 0;          // ranked groups, drawn or not
    double top_p_best = 0.0;
    double p_none = 0.0; // draws in which no drawn option meets every constraint
    // Mean extra NPV of the top option over each draw's best (output currency).
    double regret = 0.0;
    std::optional<std::size_t> runner_up; // index into `options` of the most frequent other best
    // The input that decides an answer that is not clear: freezing it at its value gains the top
    // option the most.
    std::optional<UncertainInput> deciding;
    std::vector<Flip> flips;
    std::vector<InputSpread> inputs;

    bool operator==(const Confidence&) const = default;
};

// The P(best) from which the answer is called clear (no input decides it), below which it is
// uncertain, and below which it is a warning.
inline constexpr double k_clear_p_best = 0.95;
inline constexpr double k_uncertain_p_best = 0.8;
inline constexpr double k_warn_p_best = 0.5;

struct Recommendation;

// The confidence of `r` (recommend()'s answer, priced with itemised cash flows) under
// `uncertainty`, ranking each draw as `r` was ranked (`soft`: where soft options rank). The flip
// points of a flag re-run the pipeline with `tree` and `rules`, as the flag would.
[[nodiscard]] Confidence confidence(const Recommendation& r, const catalog::Catalog& catalog,
                                    const decide::Tree* tree, RuleUse rules,
                                    const UncertaintySettings& uncertainty, rank::Soft soft);

} // namespace gpuplan::recommend

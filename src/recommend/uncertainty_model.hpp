#pragma once

// The decision-confidence model: the spreads of a run's inputs and the options it draws, with
// their priced figures split into the parts each input moves (docs/methodology.md C14).

#include "gpuplan/recommend/recommend.hpp"
#include "gpuplan/recommend/uncertainty.hpp"

#include <cstddef>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace gpuplan::recommend::detail {

inline constexpr double k_infinity = std::numeric_limits<double>::infinity();
// A median absolute relative error m of a lognormal factor is sigma = ln(1 + m) / z(0.75).
inline constexpr double k_z75 = 0.6744897501960817;
// docs/methodology.md C14: the estimator's median error per task kind, out of sample.
inline constexpr double k_training_error = 0.261; // the published-runs table, out-of-sample rows
inline constexpr double k_serving_error = 0.20; // held-out serving checks: 9.4% dense, 31.5% newer
// Share of the estimator's log-error common to every GPU model (gpuplan's assumption).
inline constexpr double k_common_error_share = 0.5;
// Median relative error of a price by basis, before age (docs/methodology.md C14).
inline constexpr double k_list_error = 0.02;
inline constexpr double k_snapshot_error = 0.08;
inline constexpr double k_derived_error = 0.15;
inline constexpr double k_negotiated_error = 0.02;
inline constexpr double k_quote_error = 0.15;
// Median relative drift of a price per year of age (lists moved 20-45% within a year).
inline constexpr double k_price_drift_per_year = 0.25;
// The age an undated price is drawn at: the limit past which a dated one is no firm answer.
inline constexpr double k_undated_age_years = cost::k_max_firm_price_age_days / 365.25;
// A sourced spot rate is drawn within / and x this factor; a placeholder within k_spot_rate_swing.
inline constexpr double k_sourced_spot_factor = 2.0;
// Annual volatility of an exchange rate the catalog dates only once.
inline constexpr double k_default_fx_sigma = 0.05;
// Flip search: bisection steps, and the MFU range searched.
inline constexpr int k_bisection_steps = 30;
// Draws of each run that freezes one input to find the one that decides (the same seed, so
// the runs differ only by the frozen input).
inline constexpr int k_deciding_draws = 500;
// Bisection steps on the whole pipeline (each one re-prices every option).
inline constexpr int k_pipeline_steps = 10;
inline constexpr double k_min_mfu = 0.02;
inline constexpr double k_max_mfu = 0.95;
inline constexpr double k_spot_rate_search = 16.0;

// Which inputs a draw moves (all of them, or all but one frozen at its value).
struct Frozen {
    std::optional<UncertainInput> input;
    [[nodiscard]] bool moves(UncertainInput i) const { return input != i; }
};

// A drawn option: its priced figures split into the parts each input moves.
struct Drawn {
    const cost::Option* option = nullptr;
    std::size_t group = 0;
    bool firm = true;
    // NPV and undiscounted total of the items each factor applies to.
    double npv_priced_hourly = 0.0, npv_priced = 0.0, npv_hourly = 0.0, npv_fixed = 0.0;
    double total_priced_hourly = 0.0, total_priced = 0.0, total_hourly = 0.0, total_fixed = 0.0;
    double wall = 0.0;
    double startup = 0.0;
    double judged_ratio = 1.0; // judged wall time (P90 or at the deadline confidence) / wall
    std::size_t gpu_key = 0;
    std::size_t price_key = 0;
    double row_sigma = 0.0;   // this offer's own price error (its basis), drawn alone
    double drift_sigma = 0.0; // drift with age, shared by the provider's product (price_key)
    std::optional<std::size_t> spot_key;
    double spot_span = 1.0; // the rate is drawn within / and x this
    cost::SpotRisk spot;
    int spot_nodes = 1;
    double spot_wall_factor = 1.0;
    std::optional<std::size_t> fx_key;
    // A service: the speed factor it needs for its request rate (times the demand factor) and
    // for its time targets, and its first time target's modelled time.
    double need_rate = 0.0;
    double need_time = 0.0;
    std::optional<double> latency_ms;
};

// Keys interned in first-seen order.
class Keys {
public:
    std::size_t intern(const std::string& key) {
        const auto [it, inserted] = m_index.emplace(key, m_index.size());
        return it->second;
    }
    [[nodiscard]] std::size_t size() const { return m_index.size(); }

private:
    std::map<std::string, std::size_t> m_index;
};

// The spreads of one run, and the keys its draws are shared by.
struct Model {
    double estimate_sigma = 0.0;
    bool inference = false;
    std::vector<Drawn> drawn;
    std::size_t gpus = 0;
    std::size_t prices = 0;
    std::size_t spots = 0;
    std::vector<double> fx_sigma; // per fx key
    std::optional<workload::FactorRange> utilisation;
    std::optional<workload::FactorRange> demand;
    std::optional<double> deadline;
    std::optional<double> budget; // output currency
    rank::Objective objective = rank::Objective::cost;
    rank::Soft soft = rank::Soft::after;
};

// The spot_risk note of a spot option; nullptr for another option.
const cost::Note* spot_note(const cost::Plan& plan, const cost::Option& option);

// The spreads of a run and its drawn options (the `drawn_groups` best-ranked groups).
Model make_model(const Recommendation& r, const catalog::Catalog& catalog,
                 const UncertaintySettings& u, rank::Soft soft, std::size_t drawn_groups);

// The groups drawn: the best-ranked ones within k_drawn_cost_factor of the best's NPV (by time,
// of the best's wall time), at most k_max_drawn.
std::size_t drawn_count(const Recommendation& r);

} // namespace gpuplan::recommend::detail

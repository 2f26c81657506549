#include "report/cost_outputs.hpp"

#include "gpuplan/numbers.hpp"

namespace gpuplan::report {

using nlohmann::ordered_json;

namespace {

ordered_json fx_json(const std::vector<cost::FxUse>& fx) {
    ordered_json out = ordered_json::array();
    for (const cost::FxUse& use : fx) {
        out.push_back(
            {{"from", use.from}, {"to", use.to}, {"rate", use.rate}, {"as_of", use.as_of}});
    }
    return out;
}

} // namespace

std::string percent(double fraction) {
    return format_fixed(fraction * 100.0, 2) + "%";
}

ordered_json items_json(const std::array<double, cost::k_item_count>& items) {
    ordered_json out = ordered_json::object();
    for (std::size_t i = 0; i < cost::k_item_count; ++i) {
        if (items[i] != 0.0) {
            out[std::string(cost::to_string(static_cast<cost::Item>(i)))] = round_money(items[i]);
        }
    }
    return out;
}

ordered_json conventions_json(const cost::Conventions& conventions) {
    ordered_json out;
    out["discount_rate"] = conventions.discount_rate;
    out["monthly_rate"] = conventions.monthly_rate;
    out["horizon_months"] = conventions.horizon_months;
    out["currency"] = conventions.currency;
    out["timing"] = "month 0 is now (undiscounted); month k is the end of month k (730 hours), "
                    "discounted by (1 + monthly_rate)^k";
    out["npv_convention"] = "numpy-financial npv: values[0] at t = 0; Excel NPV() discounts its "
                            "first value one period";
    out["fx"] = fx_json(conventions.fx);
    return out;
}

} // namespace gpuplan::report

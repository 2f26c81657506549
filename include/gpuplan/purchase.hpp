#pragma once
// The seven ways to pay for GPUs that gpuplan compares.

#include <array>
#include <optional>
#include <string_view>

namespace gpuplan {

// Subscriptions are prepaid by the month or the year (包月 and 包年, as Chinese clouds sell them).
enum class PurchaseOption {
    on_demand,
    reserved_1y,
    reserved_3y,
    subscription_monthly,
    subscription_yearly,
    spot,
    self_built
};

inline constexpr std::array<PurchaseOption, 7> k_all_purchase_options{
    PurchaseOption::on_demand,           PurchaseOption::reserved_1y,
    PurchaseOption::reserved_3y,         PurchaseOption::subscription_monthly,
    PurchaseOption::subscription_yearly, PurchaseOption::spot,
    PurchaseOption::self_built};

// `on_demand`, `reserved_1y`, `reserved_3y`, `subscription_monthly`, `subscription_yearly`,
// `spot`, `self_built` (the published names).
[[nodiscard]] std::string_view to_string(PurchaseOption option);
[[nodiscard]] std::optional<PurchaseOption> parse_purchase_option(std::string_view text);

} // namespace gpuplan

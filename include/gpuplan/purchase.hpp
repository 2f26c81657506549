#pragma once
// The five ways to pay for GPUs that gpuplan compares.

#include <array>
#include <optional>
#include <string_view>

namespace gpuplan {

enum class PurchaseOption { on_demand, reserved_1y, reserved_3y, spot, self_built };

inline constexpr std::array<PurchaseOption, 5> k_all_purchase_options{
    PurchaseOption::on_demand, PurchaseOption::reserved_1y, PurchaseOption::reserved_3y,
    PurchaseOption::spot, PurchaseOption::self_built};

// `on_demand`, `reserved_1y`, `reserved_3y`, `spot`, `self_built` (the published names).
[[nodiscard]] std::string_view to_string(PurchaseOption option);
[[nodiscard]] std::optional<PurchaseOption> parse_purchase_option(std::string_view text);

} // namespace gpuplan

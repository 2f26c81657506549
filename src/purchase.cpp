#include "gpuplan/purchase.hpp"

#include "gpuplan/enum_names.hpp"

namespace gpuplan {

// Names of the values (a constant: internal linkage).
constexpr EnumNames k_purchase_option_names{
    std::to_array<std::pair<std::string_view, PurchaseOption>>(
        {{"on_demand", PurchaseOption::on_demand},
         {"reserved_1y", PurchaseOption::reserved_1y},
         {"reserved_3y", PurchaseOption::reserved_3y},
         {"subscription_monthly", PurchaseOption::subscription_monthly},
         {"subscription_yearly", PurchaseOption::subscription_yearly},
         {"spot", PurchaseOption::spot},
         {"self_built", PurchaseOption::self_built}})};

std::string_view to_string(PurchaseOption option) {
    return k_purchase_option_names.name(option);
}

std::optional<PurchaseOption> parse_purchase_option(std::string_view text) {
    return k_purchase_option_names.parse(text);
}

} // namespace gpuplan

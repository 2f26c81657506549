#include "gpuplan/purchase.hpp"

namespace gpuplan {

std::string_view to_string(PurchaseOption option) {
    switch (option) {
    case PurchaseOption::on_demand:
        return "on_demand";
    case PurchaseOption::reserved_1y:
        return "reserved_1y";
    case PurchaseOption::reserved_3y:
        return "reserved_3y";
    case PurchaseOption::subscription_monthly:
        return "subscription_monthly";
    case PurchaseOption::subscription_yearly:
        return "subscription_yearly";
    case PurchaseOption::spot:
        return "spot";
    case PurchaseOption::self_built:
        return "self_built";
    }
    return "?";
}

std::optional<PurchaseOption> parse_purchase_option(std::string_view text) {
    for (PurchaseOption option : k_all_purchase_options) {
        if (to_string(option) == text) {
            return option;
        }
    }
    return std::nullopt;
}

} // namespace gpuplan

#include "gpuplan/report/provenance.hpp"

#include <algorithm>

namespace gpuplan::report {

namespace {

std::optional<Date> cloud_as_of(const catalog::Catalog& catalog, const cost::Option& option) {
    const catalog::Provider* provider = catalog::find_provider(catalog, option.provider);
    if (provider == nullptr) {
        return std::nullopt;
    }
    for (const catalog::Instance& instance : provider->instances) {
        if (instance.type != option.instance) {
            continue;
        }
        const bool reserved = option.purchase == PurchaseOption::reserved_1y ||
                              option.purchase == PurchaseOption::reserved_3y;
        if (reserved) {
            const catalog::Term term = option.purchase == PurchaseOption::reserved_1y
                                           ? catalog::Term::one_year
                                           : catalog::Term::three_years;
            for (const catalog::ReservedPrice& price : instance.reserved) {
                if (price.term == term && (price.region.empty() || price.region == option.region) &&
                    price.as_of) {
                    return price.as_of;
                }
            }
        }
        for (const catalog::PriceRow& row : instance.prices) {
            if (row.region == option.region &&
                (option.zone.empty() || row.zone == option.zone || row.zone.empty())) {
                return row.as_of.value_or(provider->as_of);
            }
        }
    }
    return std::nullopt;
}

std::optional<Date> build_as_of(const catalog::Catalog& catalog, const cost::Option& option) {
    if (!catalog.self_built) {
        return std::nullopt;
    }
    for (const catalog::Build& build : catalog.self_built->builds) {
        if (build.name == option.instance) {
            return build.as_of;
        }
    }
    return std::nullopt;
}

} // namespace

std::optional<Date> option_prices_as_of(const catalog::Catalog& catalog,
                                        const cost::Option& option) {
    return option.purchase == PurchaseOption::self_built ? build_as_of(catalog, option)
                                                         : cloud_as_of(catalog, option);
}

std::optional<std::pair<Date, Date>> prices_used_range(const catalog::Catalog& catalog,
                                                       const std::vector<cost::Option>& options) {
    std::optional<std::pair<Date, Date>> range;
    for (const cost::Option& option : options) {
        const std::optional<Date> date = option_prices_as_of(catalog, option);
        if (!date) {
            continue;
        }
        if (!range) {
            range = std::pair{*date, *date};
        } else {
            range->first = std::min(range->first, *date);
            range->second = std::max(range->second, *date);
        }
    }
    return range;
}

double max_monthly(const cost::CashFlows& flows) {
    const std::vector<double> amounts = flows.amounts();
    return amounts.empty() ? 0.0 : *std::max_element(amounts.begin(), amounts.end());
}

} // namespace gpuplan::report

// The catalog audit: per price row, the checks of docs/catalog-format.md ("Audit").

#include "gpuplan/catalog/audit.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <map>
#include <optional>

namespace gpuplan::catalog {

namespace {

// A regional price is an outlier below half or above twice the type's median.
constexpr double k_outlier_low = 0.5;
constexpr double k_outlier_high = 2.0;
// Fewer regions than this give no median worth comparing with.
constexpr std::size_t k_min_regions_for_median = 3;
// A resold row this much below the origin's price is cheaper (prices are rounded to cents).
constexpr double k_resale_tolerance = 0.01;
constexpr long k_days_per_year = 365;

double median(std::vector<double> values) {
    std::sort(values.begin(), values.end());
    const std::size_t n = values.size();
    return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2.0;
}

std::string where(const Instance& instance, const PriceRow& row) {
    return row.zone.empty() ? fmt::format("{} {}", instance.type, row.region)
                            : fmt::format("{} {}/{}", instance.type, row.region, row.zone);
}

bool note_names(const Instance& instance, std::string_view what) {
    return !what.empty() && instance.note.find(what) != std::string::npos;
}

// The sources a row's date rests on: its own, else its provider's.
const std::vector<std::string>& row_sources(const Provider& provider, const PriceRow& row) {
    return row.sources.empty() ? provider.sources : row.sources;
}

bool states_a_date(const Catalog& catalog, const std::vector<std::string>& sources) {
    return std::any_of(sources.begin(), sources.end(), [&](const std::string& id) {
        const auto it = catalog.sources.find(id);
        return it != catalog.sources.end() && it->second.as_of.has_value();
    });
}

long max_age_days(const Catalog& catalog, const Provider& provider) {
    const Product* product = find_product(catalog, provider.name);
    if (product != nullptr && product->max_price_age_days) {
        return static_cast<long>(product->max_price_age_days->value);
    }
    return k_default_max_price_age_days;
}

// The origin provider's lowest on-demand price for `gpu_count` GPUs of `gpu`, in `currency`
// (per GPU-hour when no instance of that count exists: then `per_gpu` is set).
struct OriginPrice {
    double per_hour = 0.0;
    bool per_gpu = false;
    std::string instance;
};

std::optional<OriginPrice> origin_price(const Catalog& catalog, const Provider& origin,
                                        const Instance& resold, const std::string& currency) {
    const auto rate = fx_rate(catalog, origin.currency, currency);
    if (!rate) {
        return std::nullopt;
    }
    std::optional<OriginPrice> same_count;
    std::optional<OriginPrice> per_gpu;
    for (const Instance& instance : origin.instances) {
        if (instance.gpu != resold.gpu || instance.gpu_count <= 0.0) {
            continue;
        }
        for (const PriceRow& row : instance.prices) {
            if (!row.on_demand) {
                continue;
            }
            const double price = *row.on_demand * *rate;
            if (instance.gpu_count == resold.gpu_count &&
                (!same_count || price < same_count->per_hour)) {
                same_count = OriginPrice{price, false, instance.type};
            }
            const double one = price / instance.gpu_count;
            if (!per_gpu || one < per_gpu->per_hour) {
                per_gpu = OriginPrice{one, true, instance.type};
            }
        }
    }
    return same_count ? same_count : per_gpu;
}

class Auditor {
public:
    Auditor(const Catalog& catalog, Date today, const AuditScope& scope)
        : m_catalog(catalog), m_scope(scope) {
        m_report.today = today;
    }

    AuditReport run() {
        for (const Provider& provider : m_catalog.providers) {
            audit_provider(provider);
        }
        return std::move(m_report);
    }

private:
    bool in_scope(const Provider& provider, const Instance& instance) const {
        return m_scope.empty() || m_scope.contains({provider.name, instance.type});
    }

    void add(AuditFinding finding) { m_report.findings.push_back(std::move(finding)); }

    // The dates of one provider's rows, gathered so that each date finding is one line.
    struct DateTally {
        std::size_t undated = 0;
        std::map<std::string, std::size_t> unstated; // source ids -> rows dated without a date
        std::size_t too_old = 0;
        std::optional<Date> oldest;
        std::size_t within_year = 0;
    };

    void tally_date(const Provider& provider, const PriceRow& row, long max_age,
                    DateTally& tally) const {
        const std::optional<Date> date = price_as_of(m_catalog, provider, row);
        if (!date) {
            ++tally.undated;
            return;
        }
        const std::vector<std::string>& sources = row_sources(provider, row);
        if (!states_a_date(m_catalog, sources)) {
            ++tally.unstated[fmt::format("{}", fmt::join(sources, ", "))];
        }
        const long age = m_report.today.days_since_epoch() - date->days_since_epoch();
        if (age <= k_days_per_year) {
            ++tally.within_year;
        }
        if (age > max_age) {
            ++tally.too_old;
            tally.oldest = tally.oldest ? std::min(*tally.oldest, *date) : *date;
        }
    }

    void audit_provider(const Provider& provider) {
        bool any = false;
        DateTally tally;
        const long max_age = max_age_days(m_catalog, provider);
        for (const Instance& instance : provider.instances) {
            if (!in_scope(provider, instance)) {
                continue;
            }
            any = true;
            audit_regions(provider, instance);
            audit_resale(provider, instance);
            for (const PriceRow& row : instance.prices) {
                ++m_report.rows;
                audit_spot(provider, instance, row);
                tally_date(provider, row, max_age, tally);
            }
        }
        if (any) {
            ++m_report.providers;
            m_report.undated += tally.undated;
            m_report.dated_within_year += tally.within_year;
            add_date_findings(provider, tally, max_age);
        }
    }

    void add_date_findings(const Provider& provider, const DateTally& tally, long max_age) {
        for (const auto& [sources, rows] : tally.unstated) {
            add({AuditCheck::date_not_from_source,
                 true,
                 provider.name,
                 {},
                 {},
                 {},
                 rows,
                 fmt::format("{} price row{} dated although {} states no date of its own (mark "
                             "the source `undated: true`, or give it the date it states)",
                             rows, rows == 1 ? " is" : "s are",
                             sources.empty() ? std::string("no source") : sources)});
        }
        if (tally.too_old > 0) {
            add({AuditCheck::price_too_old,
                 true,
                 provider.name,
                 {},
                 {},
                 {},
                 tally.too_old,
                 fmt::format("{} price row{} older than {} days (the oldest dated {}, {} days "
                             "before {})",
                             tally.too_old, tally.too_old == 1 ? " is" : "s are", max_age,
                             tally.oldest->to_string(),
                             m_report.today.days_since_epoch() - tally.oldest->days_since_epoch(),
                             m_report.today.to_string())});
        }
        if (tally.undated > 0) {
            add({AuditCheck::undated_price,
                 false,
                 provider.name,
                 {},
                 {},
                 {},
                 tally.undated,
                 fmt::format("{} price row{} no date: {} states none, so their age is unknown",
                             tally.undated, tally.undated == 1 ? " has" : "s have",
                             fmt::join(provider.sources, ", "))});
        }
    }

    void audit_spot(const Provider& provider, const Instance& instance, const PriceRow& row) {
        if (row.spot && row.on_demand && *row.spot >= *row.on_demand) {
            add({AuditCheck::spot_not_below_on_demand, true, provider.name, instance.type,
                 row.region, row.zone, 1,
                 fmt::format("{}: spot {:g} is not below on-demand {:g} {}", where(instance, row),
                             *row.spot, *row.on_demand, provider.currency)});
        }
    }

    void audit_regions(const Provider& provider, const Instance& instance) {
        std::vector<double> prices;
        std::set<std::string> regions;
        for (const PriceRow& row : instance.prices) {
            if (row.on_demand) {
                prices.push_back(*row.on_demand);
                regions.insert(row.region);
            }
        }
        if (regions.size() < k_min_regions_for_median) {
            return;
        }
        const double mid = median(prices);
        for (const PriceRow& row : instance.prices) {
            if (!row.on_demand || mid <= 0.0 || note_names(instance, row.region)) {
                continue;
            }
            const double ratio = *row.on_demand / mid;
            if (ratio < k_outlier_low || ratio > k_outlier_high) {
                add({AuditCheck::regional_outlier, true, provider.name, instance.type, row.region,
                     row.zone, 1,
                     fmt::format("{}: on-demand {:g} is {:.2f}x the median {:g} {} of its {} "
                                 "regions, and no note of the instance names the region",
                                 where(instance, row), *row.on_demand, ratio, mid,
                                 provider.currency, regions.size())});
            }
        }
    }

    void audit_resale(const Provider& provider, const Instance& instance) {
        const Product* product = find_product(m_catalog, provider.name);
        if (product == nullptr) {
            return;
        }
        for (const Resale& resale : product->resells) {
            if (std::none_of(
                    resale.instances.begin(), resale.instances.end(),
                    [&](const std::string& p) { return matches_instance(p, instance.type); })) {
                continue;
            }
            const Provider* origin = find_provider(m_catalog, resale.origin);
            if (origin == nullptr || note_names(instance, resale.origin)) {
                return;
            }
            const auto price = origin_price(m_catalog, *origin, instance, provider.currency);
            if (!price) {
                return;
            }
            for (const PriceRow& row : instance.prices) {
                if (!row.on_demand) {
                    continue;
                }
                const double own = price->per_gpu && instance.gpu_count > 0.0
                                       ? *row.on_demand / instance.gpu_count
                                       : *row.on_demand;
                if (own < price->per_hour * (1.0 - k_resale_tolerance)) {
                    add({AuditCheck::resold_below_origin, true, provider.name, instance.type,
                         row.region, row.zone, 1,
                         fmt::format("{}: resold at {:.4g}{} {}, {:.0f}% below {}'s own {:.4g} "
                                     "({}), and no note of the instance names {}",
                                     where(instance, row), own, price->per_gpu ? " per GPU" : "",
                                     provider.currency, 100.0 * (1.0 - own / price->per_hour),
                                     origin->name, price->per_hour, price->instance,
                                     resale.origin)});
                }
            }
            return;
        }
    }

    const Catalog& m_catalog;
    const AuditScope& m_scope;
    AuditReport m_report;
};

} // namespace

std::string_view to_string(AuditCheck check) {
    return k_audit_check_names.at(static_cast<std::size_t>(check));
}

std::size_t AuditReport::errors() const {
    return static_cast<std::size_t>(std::count_if(findings.begin(), findings.end(),
                                                  [](const AuditFinding& f) { return f.error; }));
}

AuditReport audit_catalog(const Catalog& catalog, Date today, const AuditScope& scope) {
    return Auditor(catalog, today, scope).run();
}

} // namespace gpuplan::catalog

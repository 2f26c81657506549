#include "gpuplan/catalog/catalog.hpp"

#include "detail/strings.hpp"

#include <algorithm>

namespace gpuplan::catalog {

std::string_view to_string(Architecture value) {
    switch (value) {
    case Architecture::volta:
        return "volta";
    case Architecture::turing:
        return "turing";
    case Architecture::ampere:
        return "ampere";
    case Architecture::ada:
        return "ada";
    case Architecture::hopper:
        return "hopper";
    case Architecture::blackwell:
        return "blackwell";
    case Architecture::cdna3:
        return "cdna3";
    }
    return "?";
}

std::string_view to_string(FormFactor value) {
    switch (value) {
    case FormFactor::sxm:
        return "sxm";
    case FormFactor::pcie:
        return "pcie";
    case FormFactor::oam:
        return "oam";
    }
    return "?";
}

std::string_view to_string(Precision value) {
    switch (value) {
    case Precision::fp32:
        return "fp32";
    case Precision::tf32:
        return "tf32";
    case Precision::fp16:
        return "fp16";
    case Precision::bf16:
        return "bf16";
    case Precision::fp8:
        return "fp8";
    case Precision::int8:
        return "int8";
    case Precision::int4:
        return "int4";
    }
    return "?";
}

std::string_view to_string(Term value) {
    return value == Term::one_year ? "1y" : "3y";
}

std::string_view to_string(Payment value) {
    switch (value) {
    case Payment::no_upfront:
        return "no_upfront";
    case Payment::partial_upfront:
        return "partial_upfront";
    case Payment::all_upfront:
        return "all_upfront";
    }
    return "?";
}

std::optional<Precision> parse_precision(std::string_view text) {
    for (std::size_t i = 0; i < k_precision_count; ++i) {
        auto precision = static_cast<Precision>(i);
        if (to_string(precision) == text) {
            return precision;
        }
    }
    return std::nullopt;
}

int term_months(Term term) {
    return term == Term::one_year ? 12 : 36;
}

const Gpu* find_gpu(const Catalog& catalog, std::string_view name) {
    for (const Gpu& gpu : catalog.gpus) {
        if (detail::iequals(gpu.name, name)) {
            return &gpu;
        }
    }
    for (const Gpu& gpu : catalog.gpus) {
        for (const std::string& alias : gpu.aliases) {
            if (detail::iequals(alias, name)) {
                return &gpu;
            }
        }
    }
    return nullptr;
}

const Provider* find_provider(const Catalog& catalog, std::string_view name) {
    for (const Provider& provider : catalog.providers) {
        if (detail::iequals(provider.name, name)) {
            return &provider;
        }
    }
    return nullptr;
}

const FxRate* find_fx_rate(const Catalog& catalog, std::string_view currency) {
    const FxRate* newest = nullptr;
    for (const FxRate& rate : catalog.fx.rates) {
        if (rate.currency == currency && (newest == nullptr || newest->as_of < rate.as_of)) {
            newest = &rate;
        }
    }
    return newest;
}

const FxRate* find_fx_rate(const Catalog& catalog, std::string_view currency, Date on) {
    const FxRate* best = nullptr; // the newest on or before `on`, else the oldest after it
    for (const FxRate& rate : catalog.fx.rates) {
        if (rate.currency != currency) {
            continue;
        }
        const bool before = !(on < rate.as_of);
        const bool best_before = best != nullptr && !(on < best->as_of);
        if (best == nullptr || (before && (!best_before || best->as_of < rate.as_of)) ||
            (!before && !best_before && rate.as_of < best->as_of)) {
            best = &rate;
        }
    }
    return best;
}

std::optional<double> fx_rate(const Catalog& catalog, std::string_view from, std::string_view to,
                              std::optional<Date> on) {
    auto per_base = [&](std::string_view code) -> std::optional<double> {
        if (code == catalog.fx.base) {
            return 1.0;
        }
        if (const FxRate* rate =
                on ? find_fx_rate(catalog, code, *on) : find_fx_rate(catalog, code)) {
            return rate->per_base;
        }
        return std::nullopt;
    };
    auto from_rate = per_base(from);
    auto to_rate = per_base(to);
    if (!from_rate || !to_rate) {
        return std::nullopt;
    }
    return *to_rate / *from_rate;
}

std::vector<std::string> currencies(const Catalog& catalog) {
    std::vector<std::string> codes{catalog.fx.base};
    for (const FxRate& rate : catalog.fx.rates) {
        codes.push_back(rate.currency);
    }
    std::sort(codes.begin(), codes.end());
    codes.erase(std::unique(codes.begin(), codes.end()), codes.end());
    return codes;
}

std::size_t offer_count(const Catalog& catalog) {
    std::size_t count = 0;
    for (const Provider& provider : catalog.providers) {
        for (const Instance& instance : provider.instances) {
            count += instance.prices.size();
        }
    }
    return count;
}

std::optional<std::pair<Date, Date>> price_date_range(const Catalog& catalog) {
    std::optional<std::pair<Date, Date>> range;
    auto widen = [&](const Date& date) {
        if (!range) {
            range = std::pair{date, date};
        } else {
            range->first = std::min(range->first, date);
            range->second = std::max(range->second, date);
        }
    };
    for (const Provider& provider : catalog.providers) {
        for (const Instance& instance : provider.instances) {
            for (const PriceRow& row : instance.prices) {
                widen(row.as_of.value_or(provider.as_of));
            }
        }
    }
    return range;
}

} // namespace gpuplan::catalog

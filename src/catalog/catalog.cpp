#include "gpuplan/catalog/catalog.hpp"

#include "detail/strings.hpp"
#include "gpuplan/limits.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <fmt/format.h>

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
    case Precision::nvfp4:
        return "nvfp4";
    case Precision::mxfp4:
        return "mxfp4";
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

namespace {

// NVIDIA Multi-Instance GPU User Guide, "Supported MIG Profiles": one table per GPU memory size;
// the +me (media extension) variants have the same slices and are not listed.
constexpr std::array<MigProfile, 6> k_mig_a100_40gb{{{"1g.5gb", 1, 1},
                                                     {"1g.10gb", 1, 2},
                                                     {"2g.10gb", 2, 2},
                                                     {"3g.20gb", 3, 4},
                                                     {"4g.20gb", 4, 4},
                                                     {"7g.40gb", 7, 8}}};
constexpr std::array<MigProfile, 6> k_mig_80gb{{{"1g.10gb", 1, 1},
                                                {"1g.20gb", 1, 2},
                                                {"2g.20gb", 2, 2},
                                                {"3g.40gb", 3, 4},
                                                {"4g.40gb", 4, 4},
                                                {"7g.80gb", 7, 8}}};
constexpr std::array<MigProfile, 6> k_mig_h100_94gb{{{"1g.12gb", 1, 1},
                                                     {"1g.24gb", 1, 2},
                                                     {"2g.24gb", 2, 2},
                                                     {"3g.47gb", 3, 4},
                                                     {"4g.47gb", 4, 4},
                                                     {"7g.94gb", 7, 8}}};
constexpr std::array<MigProfile, 6> k_mig_h200{{{"1g.18gb", 1, 1},
                                                {"1g.35gb", 1, 2},
                                                {"2g.35gb", 2, 2},
                                                {"3g.71gb", 3, 4},
                                                {"4g.71gb", 4, 4},
                                                {"7g.141gb", 7, 8}}};

struct MigTable {
    std::string_view gpu;
    std::span<const MigProfile> profiles;
};
const std::array<MigTable, 8> k_mig_tables{{{"A100", k_mig_a100_40gb},
                                            {"A100-40GB-PCIe", k_mig_a100_40gb},
                                            {"A100-80GB", k_mig_80gb},
                                            {"A100-80GB-PCIe", k_mig_80gb},
                                            {"H100", k_mig_80gb},
                                            {"H100-PCIe", k_mig_80gb},
                                            {"H100-NVL", k_mig_h100_94gb},
                                            {"H200", k_mig_h200}}};

// `share` as a fraction of small whole numbers (0.125 -> "1/8"), else as a decimal.
std::string share_text(double share) {
    constexpr int k_largest_denominator = 64;
    for (int d = 1; d <= k_largest_denominator; ++d) {
        const double n = std::round(share * d);
        if (n >= 1.0 && std::abs(share * d - n) < 1e-9) {
            return fmt::format("{:g}/{}", n, d);
        }
    }
    return fmt::format("{:g}", share);
}

} // namespace

std::span<const MigProfile> mig_profiles(std::string_view gpu) {
    for (const MigTable& table : k_mig_tables) {
        if (detail::iequals(table.gpu, gpu)) {
            return table.profiles;
        }
    }
    return {};
}

const MigProfile* find_mig_profile(std::string_view gpu, std::string_view profile) {
    for (const MigProfile& p : mig_profiles(gpu)) {
        if (p.name == profile) {
            return &p;
        }
    }
    return nullptr;
}

std::optional<int> mig_compute_slices(std::string_view profile) {
    const std::size_t dot = profile.find('.');
    if (profile.size() < 6 || dot != 2 || profile[1] != 'g' || profile[0] < '1' ||
        profile[0] > '7' || !profile.ends_with("gb")) {
        return std::nullopt;
    }
    const std::string_view memory = profile.substr(3, profile.size() - 5);
    if (memory.empty() ||
        !std::all_of(memory.begin(), memory.end(), [](char c) { return c >= '0' && c <= '9'; })) {
        return std::nullopt;
    }
    return profile[0] - '0';
}

bool is_slice(const Instance& instance) {
    return !instance.mig_profile.empty() || instance.gpu_count < 1.0;
}

std::optional<GpuSlice> gpu_slice(const Gpu& parent, const Instance& instance) {
    if (!instance.mig_profile.empty()) {
        const MigProfile* profile = find_mig_profile(parent.name, instance.mig_profile);
        if (profile == nullptr) {
            return std::nullopt;
        }
        const double memory_share =
            static_cast<double>(profile->memory_slices) / k_mig_memory_slices;
        return GpuSlice{.label = fmt::format("{} MIG {}", parent.name, profile->name),
                        .compute_share =
                            static_cast<double>(profile->compute_slices) / k_mig_compute_slices,
                        .bandwidth_share = memory_share,
                        .memory_gib = parent.memory_gib * memory_share};
    }
    if (instance.gpu_count <= 0.0 || instance.gpu_count >= 1.0) {
        return std::nullopt;
    }
    const double share = instance.gpu_count;
    return GpuSlice{.label = fmt::format("{} {}", share_text(share), parent.name),
                    .compute_share = share,
                    .bandwidth_share = share,
                    .memory_gib = instance.gpu_memory_gib.value_or(parent.memory_gib * share)};
}

Gpu slice_gpu(const Gpu& parent, const GpuSlice& slice) {
    Gpu out = parent;
    out.name = slice.label;
    out.aliases.clear();
    out.memory_gib = slice.memory_gib;
    out.memory_bandwidth_gb_per_s = parent.memory_bandwidth_gb_per_s * slice.bandwidth_share;
    for (std::optional<double>& peak : out.tflops) {
        if (peak) {
            *peak *= slice.compute_share;
        }
    }
    out.tdp_watts = parent.tdp_watts * slice.compute_share;
    out.nvlink_gb_per_s = 0.0;
    out.mig_instances = 0;
    return out;
}

namespace {

template <class E, std::size_t N>
std::string_view enum_name(const std::array<std::string_view, N>& names, E value) {
    const auto index = static_cast<std::size_t>(value);
    return index < N ? names.at(index) : std::string_view("?");
}

} // namespace

std::string_view to_string(Fabric value) {
    return enum_name(k_fabric_names, value);
}

std::string_view to_string(SoldAs value) {
    return enum_name(k_sold_as_names, value);
}

std::string_view to_string(Capacity value) {
    return enum_name(k_capacity_names, value);
}

const Product* find_product(const Catalog& catalog, std::string_view name) {
    for (const Product& product : catalog.products) {
        if (detail::iequals(product.provider, name)) {
            return &product;
        }
    }
    return nullptr;
}

const SpotBand* find_spot_band(const Product* product, std::string_view instance,
                               std::string_view region) {
    if (product == nullptr) {
        return nullptr;
    }
    for (const SpotBand& band : product->spot_bands) {
        if (band.instance == instance &&
            std::find(band.regions.begin(), band.regions.end(), region) != band.regions.end()) {
            return &band;
        }
    }
    return nullptr;
}

bool matches_instance(std::string_view pattern, std::string_view type) {
    if (!pattern.empty() && pattern.back() == '*') {
        pattern.remove_suffix(1);
        return type.substr(0, pattern.size()) == pattern;
    }
    return pattern == type;
}

const Cluster* find_cluster(const Catalog& catalog, std::string_view provider,
                            std::string_view instance) {
    const Product* product = find_product(catalog, provider);
    if (product == nullptr) {
        return nullptr;
    }
    const auto names = [&](const Cluster& c) {
        return std::any_of(c.instances.begin(), c.instances.end(),
                           [&](const std::string& p) { return matches_instance(p, instance); });
    };
    const auto it = std::find_if(product->clusters.rbegin(), product->clusters.rend(), names);
    return it == product->clusters.rend() ? nullptr : &*it;
}

bool has_nvlink(const Instance& instance, const Gpu& gpu) {
    if (instance.nvlink) {
        return true;
    }
    // HGX and OAM boards connect every module over NVLink or Infinity Fabric; a PCIe card needs
    // a bridge, which only the instance can state.
    return gpu.form_factor != FormFactor::pcie && gpu.nvlink_gb_per_s > 0.0 &&
           instance.gpu_count >= 2.0 && instance.gpu_count == std::floor(instance.gpu_count) &&
           !is_slice(instance);
}

bool is_undated(const Catalog& catalog, const std::vector<std::string>& sources) {
    if (sources.empty()) {
        return false;
    }
    return std::all_of(sources.begin(), sources.end(), [&](const std::string& id) {
        const auto it = catalog.sources.find(id);
        return it != catalog.sources.end() && it->second.undated && !it->second.as_of;
    });
}

std::optional<Date> price_as_of(const Catalog& catalog, const Provider& provider,
                                const PriceRow& row) {
    if (is_undated(catalog, row.sources.empty() ? provider.sources : row.sources)) {
        return std::nullopt;
    }
    return row.as_of.value_or(provider.as_of);
}

std::string price_as_of_text(const Catalog& catalog, const Provider& provider,
                             const PriceRow& row) {
    const auto date = price_as_of(catalog, provider, row);
    return date ? date->to_string() : std::string("undated");
}

const Provider* find_provider(const Catalog& catalog, std::string_view name) {
    for (const Provider& provider : catalog.providers) {
        if (detail::iequals(provider.name, name)) {
            return &provider;
        }
    }
    return nullptr;
}

Named find_named(const Catalog& catalog, std::string_view name) {
    if (const Gpu* gpu = find_gpu(catalog, name)) {
        return {gpu, nullptr, nullptr};
    }
    if (const Provider* provider = find_provider(catalog, name)) {
        return {nullptr, provider, nullptr};
    }
    for (const Provider& provider : catalog.providers) {
        for (const Instance& instance : provider.instances) {
            if (instance.type == name) {
                return {nullptr, &provider, &instance};
            }
        }
    }
    if (catalog.self_built) {
        for (const Build& build : catalog.self_built->builds) {
            if (detail::iequals(build.name, name) ||
                detail::iequals("self_built/" + build.name, name)) {
                return {nullptr, nullptr, nullptr, &build};
            }
        }
    }
    return {};
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

namespace {

bool valid_price(const std::optional<double>& price) {
    return !price ||
           (std::isfinite(*price) && *price >= 0.0 && *price <= limits::k_max_price_per_hour);
}

// What is out of range in one instance; empty when nothing.
std::string invalid_instance(const Instance& instance) {
    if (!(instance.gpu_count >= limits::k_min_instance_gpus &&
          instance.gpu_count <= limits::k_max_instance_gpus)) {
        return fmt::format("GPU count {:g}", instance.gpu_count);
    }
    for (const PriceRow& row : instance.prices) {
        for (const auto& price : {row.on_demand, row.spot, row.monthly, row.yearly}) {
            if (!valid_price(price)) {
                return fmt::format("price {:g} in {}", *price, row.region);
            }
        }
    }
    for (const ReservedPrice& price : instance.reserved) {
        if (!valid_price(price.effective_per_hour) ||
            !(price.upfront_fraction >= 0.0 && price.upfront_fraction <= 1.0)) {
            return fmt::format("commitment price {:g}", price.effective_per_hour);
        }
    }
    if (const auto& rate = instance.spot_interruption_rate_per_node_hour;
        rate && !(rate->value >= 0.0 && rate->value <= k_max_interruption_rate_per_node_hour)) {
        return fmt::format("spot interruption rate {:g}", rate->value);
    }
    return {};
}

} // namespace

std::string invalid_value(const Catalog& catalog) {
    for (const Provider& provider : catalog.providers) {
        for (const Instance& instance : provider.instances) {
            if (std::string what = invalid_instance(instance); !what.empty()) {
                return fmt::format("{}/{}: {}", provider.name, instance.type, what);
            }
        }
    }
    return {};
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
                if (const auto date = price_as_of(catalog, provider, row)) {
                    widen(*date);
                }
            }
        }
    }
    return range;
}

} // namespace gpuplan::catalog

#include "cost/firmness.hpp"

#include <algorithm>
#include <fmt/format.h>

namespace gpuplan::cost::detail {

PriceBasis price_basis_of(const catalog::Catalog& catalog,
                          const std::vector<std::string>& sources) {
    for (const std::string& id : sources) {
        const auto it = catalog.sources.find(id);
        if (it != catalog.sources.end() &&
            (it->second.grade == "L" || it->second.grade == "L2" || it->second.grade == "P")) {
            return PriceBasis::list;
        }
    }
    return PriceBasis::snapshot;
}

std::optional<double> spot_share(const catalog::PriceRow& row) {
    if (row.spot && row.on_demand && *row.on_demand > 0.0) {
        return *row.spot / *row.on_demand;
    }
    return std::nullopt;
}

std::vector<double> spot_shares(const catalog::Instance& instance) {
    std::vector<double> out;
    for (const catalog::PriceRow& row : instance.prices) {
        if (const auto share = spot_share(row)) {
            out.push_back(*share);
        }
    }
    std::sort(out.begin(), out.end());
    return out;
}

std::optional<SpotOutlier> spot_outlier(const std::vector<double>& sorted,
                                        std::optional<double> own, double share) {
    const std::size_t skip =
        own ? static_cast<std::size_t>(std::lower_bound(sorted.begin(), sorted.end(), *own) -
                                       sorted.begin())
            : sorted.size();
    const bool skipped = skip < sorted.size();
    const std::size_t n = skipped ? sorted.size() - 1 : sorted.size();
    if (n < 2) {
        return std::nullopt;
    }
    // The k-th of the others: the sorted shares with the one at `skip` taken out.
    const auto other = [&](std::size_t k) { return sorted[k < skip ? k : k + 1]; };
    const double median = n % 2 == 1 ? other(n / 2) : (other(n / 2 - 1) + other(n / 2)) / 2.0;
    if (share >= k_spot_outlier_fraction * median) {
        return std::nullopt;
    }
    return SpotOutlier{share, other(0), other(n - 1)};
}

void describe_interconnect(Option& option, const catalog::Cluster* cluster, bool nvlink,
                           int gpus_per_node) {
    option.nvlink_domain = nvlink ? gpus_per_node : 1;
    if (cluster == nullptr) {
        return;
    }
    option.fabric = cluster->fabric;
    option.sold_as = cluster->sold_as;
    option.cluster_max_nodes = cluster->max_nodes;
    option.interconnect_sources = cluster->sources;
    if (cluster->nvlink_domain) {
        option.nvlink_domain = *cluster->nvlink_domain;
    }
}

bool may_span_nodes(const Option& option) {
    if (option.nodes <= 1) {
        return true;
    }
    if (option.purchase == PurchaseOption::self_built) {
        return option.network_gbps.has_value(); // the build pays for its own fabric
    }
    const bool fabric =
        option.fabric != catalog::Fabric::unknown && option.fabric != catalog::Fabric::none;
    const bool sold =
        option.sold_as == catalog::SoldAs::vm || option.sold_as == catalog::SoldAs::cluster;
    return fabric && sold &&
           (!option.cluster_max_nodes || option.nodes <= *option.cluster_max_nodes);
}

std::string unsold_commitment(const catalog::Product* product, const std::string& instance,
                              catalog::Term term, int gpu_count, int& min_gpus) {
    min_gpus = 0;
    if (product == nullptr || !product->commitments) {
        return "no source says the provider sells this commitment";
    }
    bool type_sold = false;
    for (const catalog::CommitmentSale& sale : *product->commitments) {
        if (std::none_of(sale.instances.begin(), sale.instances.end(), [&](const std::string& p) {
                return catalog::matches_instance(p, instance);
            })) {
            continue;
        }
        type_sold = true;
        if (std::find(sale.terms.begin(), sale.terms.end(), term) == sale.terms.end()) {
            continue;
        }
        if (sale.min_gpus && gpu_count < *sale.min_gpus) {
            min_gpus = *sale.min_gpus;
            continue;
        }
        return {};
    }
    if (min_gpus > 0) {
        return fmt::format("commitments start at {} GPUs", min_gpus);
    }
    return type_sold
               ? fmt::format("no {} term is sold for this instance type", catalog::to_string(term))
               : "no commitment is sold for this instance type";
}

} // namespace gpuplan::cost::detail

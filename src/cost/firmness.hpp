#pragma once
// What makes an answer firm or soft (docs/methodology.md, "Firm and soft answers"): the basis of
// a price, the facts of an instance's interconnect, the spot price of each row as a share of its
// on-demand price, and whether a provider sells a commitment term for an instance.

#include "gpuplan/catalog/catalog.hpp"
#include "gpuplan/cost/plan.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

namespace gpuplan::cost::detail {

// The basis of prices citing `sources`: list when a source is the provider's own list or
// documentation (grade L, L2 or P), else snapshot (a third party's copy).
[[nodiscard]] PriceBasis price_basis_of(const catalog::Catalog& catalog,
                                        const std::vector<std::string>& sources);

// Each price row's spot price as a share of its on-demand price, sorted: what a region's spot
// price is compared with.
[[nodiscard]] std::vector<double> spot_shares(const catalog::Instance& instance);

// The share of on-demand of one price row's spot price; nullopt unless the row has both.
[[nodiscard]] std::optional<double> spot_share(const catalog::PriceRow& row);

// A spot price's share of on-demand against the instance type's other rows (`sorted`, from
// spot_shares, less the row `own` the price comes from when it is among them): the share and the
// others' lowest and highest, when it is an outlier (below k_spot_outlier_fraction of the others'
// median, with at least two others); nullopt otherwise.
struct SpotOutlier {
    double share = 0.0;
    double low = 0.0;
    double high = 0.0;
};
[[nodiscard]] std::optional<SpotOutlier> spot_outlier(const std::vector<double>& sorted,
                                                      std::optional<double> own, double share);

// The option's interconnect: the fabric and how nodes are sold (from `cluster`, nullptr when no
// source states them), the NVLink domain and the sources.
void describe_interconnect(Option& option, const catalog::Cluster* cluster, bool nvlink,
                           int gpus_per_node);

// Whether a job on `option` may span its nodes: one node always; several only over a known
// fabric of a type the provider sells as VMs that join a cluster, or as a cluster product, up
// to its largest size.
[[nodiscard]] bool may_span_nodes(const Option& option);

// Why a commitment term is not sold as `option` would buy it: empty when `product` says it is
// sold for the instance type, the term and this many GPUs.
[[nodiscard]] std::string unsold_commitment(const catalog::Product* product,
                                            const std::string& instance, catalog::Term term,
                                            int gpu_count, int& min_gpus);

} // namespace gpuplan::cost::detail

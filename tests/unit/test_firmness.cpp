#include "cost/firmness.hpp"
#include "gpuplan/catalog/catalog.hpp"

#include <catch2/catch.hpp>

using namespace gpuplan;
using namespace gpuplan::cost;
using namespace gpuplan::cost::detail;

TEST_CASE("a spot zone far below the others' share of on-demand is an outlier", "[firmness]") {
    // The AWS case: one zone at 10% of on-demand, the others at 21-31%.
    catalog::Instance instance;
    instance.prices = {{"us-east-1", "use1-az1", 1.0, 0.21, {}, {}, {}, {}},
                       {"us-east-1", "use1-az2", 1.0, 0.26, {}, {}, {}, {}},
                       {"us-east-1", "use1-az3", 1.0, 0.10, {}, {}, {}, {}},
                       {"us-east-2", "use2-az1", 1.0, 0.31, {}, {}, {}, {}}};
    const std::vector<double> shares = spot_shares(instance);
    const auto outlier = spot_outlier(shares, 0.10, 0.10);
    REQUIRE(outlier.has_value());
    CHECK(outlier->low == Approx(0.21));
    CHECK(outlier->high == Approx(0.31));
    CHECK_FALSE(spot_outlier(shares, 0.21, 0.21).has_value());
    // A price from no row of the list is compared with all of them.
    CHECK(spot_outlier(shares, std::nullopt, 0.10).has_value());
    // With fewer than two other rows there is nothing to compare with.
    CHECK_FALSE(spot_outlier({0.05, 0.5}, 0.05, 0.05).has_value());
    CHECK(spot_share(instance.prices.front()) == Approx(0.21));
    CHECK_FALSE(spot_share(catalog::PriceRow{"r", "", 1.0, {}, {}, {}, {}, {}}).has_value());
}

TEST_CASE("several nodes need a known fabric sold as VMs or a cluster, within its size",
          "[firmness]") {
    Option option;
    option.nodes = 1;
    CHECK(may_span_nodes(option)); // one node needs no fabric
    option.nodes = 4;
    CHECK_FALSE(may_span_nodes(option)); // unknown fabric: one node at most
    option.fabric = catalog::Fabric::infiniband;
    CHECK_FALSE(may_span_nodes(option)); // a fabric, but not sold joined
    option.sold_as = catalog::SoldAs::vm;
    CHECK(may_span_nodes(option));
    option.cluster_max_nodes = 2;
    CHECK_FALSE(may_span_nodes(option));
    option.cluster_max_nodes.reset();
    option.fabric = catalog::Fabric::none;
    CHECK_FALSE(may_span_nodes(option));
    option.sold_as = catalog::SoldAs::single;
    option.fabric = catalog::Fabric::ethernet;
    CHECK_FALSE(may_span_nodes(option));
}

TEST_CASE("a commitment is sold only for the types, terms and sizes the provider names",
          "[firmness]") {
    int min_gpus = 0;
    CHECK(unsold_commitment(nullptr, "p5.48xlarge", catalog::Term::one_year, 8, min_gpus) ==
          "no source says the provider sells this commitment");
    catalog::Product product;
    product.provider = "lambda";
    product.commitments =
        std::vector<catalog::CommitmentSale>{{{"gpu_8x_*"}, {catalog::Term::one_year}, 16, {}, {}}};
    CHECK(unsold_commitment(&product, "gpu_8x_h100_sxm5", catalog::Term::one_year, 8, min_gpus) ==
          "commitments start at 16 GPUs");
    CHECK(min_gpus == 16);
    CHECK(unsold_commitment(&product, "gpu_8x_h100_sxm5", catalog::Term::one_year, 16, min_gpus)
              .empty());
    CHECK(unsold_commitment(&product, "gpu_8x_h100_sxm5", catalog::Term::three_years, 16,
                            min_gpus) == "no 3y term is sold for this instance type");
    CHECK(unsold_commitment(&product, "gpu_1x_b200", catalog::Term::one_year, 16, min_gpus) ==
          "no commitment is sold for this instance type");
}

TEST_CASE("SXM and OAM boards imply NVLink; PCIe cards and single GPUs do not", "[firmness]") {
    catalog::Gpu sxm;
    sxm.form_factor = catalog::FormFactor::sxm;
    sxm.nvlink_gb_per_s = 900;
    catalog::Gpu pcie = sxm;
    pcie.form_factor = catalog::FormFactor::pcie;
    catalog::Instance eight;
    eight.gpu_count = 8;
    catalog::Instance one;
    one.gpu_count = 1;
    CHECK(catalog::has_nvlink(eight, sxm));
    CHECK_FALSE(catalog::has_nvlink(eight, pcie));
    CHECK_FALSE(catalog::has_nvlink(one, sxm));
    eight.nvlink = true; // a bridge the instance states
    CHECK(catalog::has_nvlink(eight, pcie));
}

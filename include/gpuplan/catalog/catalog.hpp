#pragma once
// The catalog: GPU models, cloud instance types with prices, self-built server builds and site
// costs, exchange rates and measured benchmarks. Plain values; see docs/catalog-format.md.

#include "gpuplan/source.hpp"
#include "gpuplan/units.hpp"

#include <array>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace gpuplan::catalog {

// NVIDIA generations in release order, then AMD's (cdna3: Instinct MI300 series). Code that
// compares NVIDIA generations treats cdna3 as the newest (PCIe Gen5 hosts).
enum class Architecture { volta, turing, ampere, ada, hopper, blackwell, cdna3 };
// sxm: NVIDIA SXM module; pcie: PCIe card; oam: OCP Accelerator Module (AMD Instinct).
enum class FormFactor { sxm, pcie, oam };
// Numeric precisions a GPU may support; int8 and int4 are TOPS, the rest TFLOPS. nvfp4 and mxfp4
// are the two 4-bit float block formats (E2M1 values; NVFP4: one FP8 E4M3 scale per 16 values,
// MXFP4: one E8M0 scale per 32, docs/methodology.md E1).
enum class Precision { fp32, tf32, fp16, bf16, fp8, int8, int4, nvfp4, mxfp4 };
inline constexpr std::size_t k_precision_count = 9;
enum class Term { one_year, three_years };
enum class Payment { no_upfront, partial_upfront, all_upfront };

[[nodiscard]] std::string_view to_string(Architecture value);
[[nodiscard]] std::string_view to_string(FormFactor value);
[[nodiscard]] std::string_view to_string(Precision value);
[[nodiscard]] std::string_view to_string(Term value);
[[nodiscard]] std::string_view to_string(Payment value);
[[nodiscard]] std::optional<Precision> parse_precision(std::string_view text);
// The highest spot interruption rate gpuplan plans with, per node-hour: one interruption an hour
// already leaves almost no progress between restarts (docs/limits.md).
inline constexpr double k_max_interruption_rate_per_node_hour = 1.0;

// Months in a commitment term: 12 or 36.
[[nodiscard]] int term_months(Term term);

// A sourced scalar parameter (a site cost, a spot interruption rate).
struct Parameter {
    double value = 0.0;
    std::vector<std::string> sources;
    std::optional<Date> as_of;
    std::string note;

    bool operator==(const Parameter&) const = default;
};

struct Gpu {
    std::string name;
    std::vector<std::string> aliases;
    Architecture architecture = Architecture::ampere;
    FormFactor form_factor = FormFactor::sxm;
    double memory_gib = 0.0;
    double memory_bandwidth_gb_per_s = 0.0;
    // Dense peak TFLOPS (TOPS for integers) per Precision; nullopt = not supported.
    std::array<std::optional<double>, k_precision_count> tflops{};
    double tdp_watts = 0.0;
    double nvlink_gb_per_s = 0.0; // total per GPU, both directions; 0 = no NVLink
    int mig_instances = 0;
    int released = 0;
    std::vector<std::string> sources;
    Date as_of;
    std::string note;

    [[nodiscard]] std::optional<double> peak_tflops(Precision precision) const {
        return tflops.at(static_cast<std::size_t>(precision));
    }
    bool operator==(const Gpu&) const = default;
};

struct PriceRow {
    std::string region;
    std::string zone;                // empty when the provider prices whole regions
    std::optional<double> on_demand; // per instance-hour, provider currency
    std::optional<double> spot;
    std::optional<double> monthly; // monthly subscription (包月), per instance-month, where sold
    std::optional<double> yearly;  // yearly subscription (包年), per instance-year, where sold
    std::vector<std::string> sources; // empty = the provider's
    std::optional<Date> as_of;        // nullopt = the provider's

    bool operator==(const PriceRow&) const = default;
};

// A commitment price published for one instance.
struct ReservedPrice {
    Term term = Term::one_year;
    Payment payment = Payment::no_upfront;
    double effective_per_hour = 0.0; // whole term's cost / hours in the term
    double upfront_fraction = 0.0;   // share of the term's total paid at the start
    std::string region;              // empty = every region
    std::vector<std::string> sources;
    std::optional<Date> as_of;

    bool operator==(const ReservedPrice&) const = default;
};

// A provider-wide commitment discount used when an instance has no explicit price.
struct ReservedDiscount {
    Term term = Term::one_year;
    Payment payment = Payment::no_upfront;
    double discount = 0.0; // fraction off the on-demand rate
    double upfront_fraction = 0.0;
    bool is_default = false; // a market-survey placeholder, not the provider's published rate
    std::vector<std::string> sources;

    bool operator==(const ReservedDiscount&) const = default;
};

struct Instance {
    std::string type;
    std::string gpu; // canonical GPU name (aliases resolved at load)
    // GPUs per instance; below 1 a vendor fraction of one GPU (0.125 = 1/8), with a MIG profile
    // the profile's compute share (compute slices / 7).
    double gpu_count = 0.0;
    std::string mig_profile;              // NVIDIA MIG profile of `gpu`, e.g. 1g.10gb; empty = none
    std::optional<double> gpu_memory_gib; // a vendor fraction's GPU memory as the vendor states it
    int vcpus = 0;
    double memory_gib = 0.0;
    std::optional<double> network_gbps;
    std::vector<std::string> network_sources;
    bool nvlink = false;
    std::optional<double> local_nvme_gb;
    std::optional<Parameter> spot_interruption_rate_per_node_hour;
    std::vector<PriceRow> prices;
    std::vector<ReservedPrice> reserved;
    std::string note;

    bool operator==(const Instance&) const = default;
};

struct Billing {
    double granularity_seconds = 3600.0;
    double minimum_seconds = 0.0;
    std::vector<std::string> sources;

    bool operator==(const Billing&) const = default;
};

struct SpotTerms {
    Parameter interruption_rate_per_node_hour;
    Parameter notice_seconds;
    Parameter restart_minutes;

    bool operator==(const SpotTerms&) const = default;
};

struct Provider {
    std::string name;
    std::string display_name;
    std::string currency;
    Date as_of;
    std::vector<std::string> sources;
    Billing billing;
    std::optional<SpotTerms> spot;
    std::vector<ReservedDiscount> reserved_discounts;
    std::optional<Parameter> egress_per_gb;
    std::vector<Instance> instances;
    std::string note;

    bool operator==(const Provider&) const = default;
};

struct ResalePoint {
    double months = 0.0;
    double fraction = 0.0;

    bool operator==(const ResalePoint&) const = default;
};

// Site cost parameters for self-built servers; every one sourced.
struct Site {
    std::optional<Parameter> electricity_per_kwh;
    std::optional<Parameter> pue;
    std::optional<Parameter> colocation_per_kw_month;
    std::optional<Parameter> staff_fte_per_node;
    std::optional<Parameter> staff_cost_per_fte_year;
    std::optional<Parameter> maintenance_rate_per_year;
    std::optional<Parameter> utilisation;
    std::optional<Parameter> economic_life_months;
    std::vector<ResalePoint> resale_curve; // ascending months
    std::vector<std::string> resale_sources;
    std::optional<Date> resale_as_of;

    bool operator==(const Site&) const = default;
};

struct Build {
    std::string name;
    std::string gpu;
    int gpu_count = 0;
    double capex = 0.0;                  // per node, self_built currency
    double network_capex_per_node = 0.0; // share of fabric and switches per node
    double node_kw = 0.0;                // nameplate IT power per node
    double lead_time_weeks = 0.0;
    std::optional<double> network_gbps;
    bool nvlink = false;
    std::vector<std::string> sources;
    Date as_of;
    std::string note;

    bool operator==(const Build&) const = default;
};

struct SelfBuilt {
    std::string currency;
    Site site;
    std::vector<Build> builds;

    bool operator==(const SelfBuilt&) const = default;
};

struct FxRate {
    std::string currency;
    double per_base = 1.0; // units of `currency` per one unit of the base currency
    Date as_of;
    std::vector<std::string> sources;

    bool operator==(const FxRate&) const = default;
};

struct Fx {
    std::string base = "USD";
    std::vector<FxRate> rates;

    bool operator==(const Fx&) const = default;
};

// A measured throughput (docs/catalog-format.md, `benchmarks`). `metric` is
// samples_per_second_per_gpu or tokens_per_second_per_gpu for training, and
// inference_samples_per_second_per_gpu for inference; training workloads read only the former,
// inference workloads only the latter (docs/methodology.md E3.6, E7.1).
struct Benchmark {
    std::string model;
    std::string gpu;
    Precision precision = Precision::fp32;
    std::string metric;
    double value = 0.0;
    int gpu_count = 1;
    std::vector<std::string> sources;
    Date as_of;
    int batch = 0; // inference: samples per batch measured; 0 = not stated (e.g. MLPerf Offline)

    bool operator==(const Benchmark&) const = default;
};

// How the nodes of an instance type reach each other (docs/catalog-format.md, `products`).
// unknown: no source states it; gpuplan then plans one node at most.
enum class Fabric { unknown, none, ethernet, roce, efa, infiniband };
// How a provider sells nodes together: vm (VMs that join a placement group or cluster on
// demand), cluster (only as a cluster product, with its sizes), single (one machine, never
// joined); unknown: no source states it (one node at most).
enum class SoldAs { unknown, single, vm, cluster };
// How a provider holds its capacity: guaranteed (its own on-demand fleet) or marketplace (hosts
// of third parties that come and go); unknown is planned as marketplace.
enum class Capacity { unknown, guaranteed, marketplace };
// The names of Fabric, SoldAs and Capacity in enumerator order: what to_string writes and the
// catalog reader accepts (every one but `unknown`, which a file never states).
inline constexpr std::array<std::string_view, 6> k_fabric_names{"unknown", "none", "ethernet",
                                                                "roce",    "efa",  "infiniband"};
inline constexpr std::array<std::string_view, 4> k_sold_as_names{"unknown", "single", "vm",
                                                                 "cluster"};
inline constexpr std::array<std::string_view, 3> k_capacity_names{"unknown", "guaranteed",
                                                                  "marketplace"};
[[nodiscard]] std::string_view to_string(Fabric value);
[[nodiscard]] std::string_view to_string(SoldAs value);
[[nodiscard]] std::string_view to_string(Capacity value);

// The scale-out facts of some instance types of a provider.
struct Cluster {
    std::vector<std::string> instances; // type names; a trailing '*' matches a prefix
    Fabric fabric = Fabric::unknown;
    std::optional<double> gbps_per_node;
    SoldAs sold_as = SoldAs::unknown;
    std::optional<int> min_nodes;
    std::optional<int> max_nodes;
    std::optional<int> nvlink_domain; // GPUs in one NVLink domain (72 for NVL72)
    std::vector<std::string> sources;
    std::string note;

    bool operator==(const Cluster&) const = default;
};

// Where a provider sells a commitment term: for these instance types, from this size.
struct CommitmentSale {
    std::vector<std::string> instances; // type names; a trailing '*' matches a prefix
    std::vector<Term> terms;
    std::optional<int> min_gpus;
    std::vector<std::string> sources;
    std::string note;

    bool operator==(const CommitmentSale&) const = default;
};

// Instance types a provider resells from another provider of the catalog (a broker's listing of
// the origin cloud's product): the catalog audit compares their prices with the origin's.
struct Resale {
    std::vector<std::string> instances; // type names; a trailing '*' matches a prefix
    std::string origin;                 // the provider that sells the product itself
    std::vector<std::string> sources;
    std::string note;

    bool operator==(const Resale&) const = default;
};

// A spot market's monthly interruption-frequency bands as AWS's Spot Instance Advisor states them
// (`<5%`, `5-10%`, `10-15%`, `15-20%`, `>20%`): the band index, 0 to 4.
inline constexpr std::array<std::string_view, 5> k_spot_band_names{"<5%", "5-10%", "10-15%",
                                                                   "15-20%", ">20%"};
// The monthly interruption fraction a band stands for: its upper edge; `>20%` has none, so its
// 0.20 is a floor (the answer says so).
inline constexpr std::array<double, 5> k_spot_band_monthly{0.05, 0.10, 0.15, 0.20, 0.20};

// The interruption band of an instance type's spot market in some regions.
struct SpotBand {
    std::string instance;
    int band = 0; // index into k_spot_band_names
    std::vector<std::string> regions;
    std::vector<std::string> sources;
    std::optional<Date> as_of;

    bool operator==(const SpotBand&) const = default;
};

// A published commitment price of `products` (applied to the instance's `reserved` at load).
struct ProductReservedPrice {
    std::string instance;
    ReservedPrice price;

    bool operator==(const ProductReservedPrice&) const = default;
};

// The curated product facts of one provider, from the `products` sections of every file.
struct Product {
    std::string provider;
    Capacity capacity = Capacity::unknown;
    std::vector<std::string> capacity_sources;
    std::optional<Parameter> startup_minutes; // provisioning, boot and image start
    std::vector<Cluster> clusters;            // later entries win
    // nullopt: no file says where the provider sells commitments (every commitment is a quote
    // unless the instance has a published price).
    std::optional<std::vector<CommitmentSale>> commitments;
    std::vector<ProductReservedPrice> reserved_prices; // sorted by instance type
    // The age in days past which a price of this provider is stale (the catalog audit); nullopt
    // = the default of docs/catalog-format.md.
    std::optional<Parameter> max_price_age_days;
    std::vector<Resale> resells;
    std::vector<SpotBand> spot_bands; // in file order

    bool operator==(const Product&) const = default;
};

struct Catalog {
    std::vector<Gpu> gpus;
    std::vector<Provider> providers;
    std::vector<Product> products;
    std::optional<SelfBuilt> self_built;
    Fx fx;
    std::vector<Benchmark> benchmarks;
    std::map<std::string, Source> sources;
    std::vector<std::string> files; // names of the files this catalog was read from, in order
    std::string digest;             // fnv1a64 over the files' contents, in order

    bool operator==(const Catalog&) const = default;
};

// The GPU named `name` or one of its aliases, compared case-insensitively; nullptr if none.
[[nodiscard]] const Gpu* find_gpu(const Catalog& catalog, std::string_view name);

// A MIG profile of NVIDIA's MIG user guide: compute slices out of 7, memory slices out of 8.
struct MigProfile {
    std::string_view name; // e.g. 1g.10gb
    int compute_slices = 0;
    int memory_slices = 0;
};
inline constexpr int k_mig_compute_slices = 7;
inline constexpr int k_mig_memory_slices = 8;
// The MIG profiles of a GPU model (canonical name); empty when gpuplan knows none for it.
[[nodiscard]] std::span<const MigProfile> mig_profiles(std::string_view gpu);
[[nodiscard]] const MigProfile* find_mig_profile(std::string_view gpu, std::string_view profile);
// The compute slices a profile name starts with (`3g.40gb` -> 3); nullopt when it is not a name
// of the form <1-7>g.<memory>gb.
[[nodiscard]] std::optional<int> mig_compute_slices(std::string_view profile);

// The part of one GPU an instance sells: a vendor fraction or a MIG profile. A slice has the
// parent's memory, bandwidth and throughput times its shares and no NVLink
// (docs/methodology.md, "GPU slices").
struct GpuSlice {
    std::string label;            // "1/8 L4", "A100-80GB MIG 1g.10gb"
    double compute_share = 1.0;   // of the parent's tensor and vector throughput
    double bandwidth_share = 1.0; // of the parent's memory bandwidth
    double memory_gib = 0.0;

    bool operator==(const GpuSlice&) const = default;
};
// Whether the instance sells part of one GPU (a fraction below 1 or a MIG profile).
[[nodiscard]] bool is_slice(const Instance& instance);
// The slice `instance` sells of `parent`; nullopt for whole GPUs and for a MIG profile `parent`
// does not have.
[[nodiscard]] std::optional<GpuSlice> gpu_slice(const Gpu& parent, const Instance& instance);
// `parent` as the slice sees it: named by the slice's label, its figures scaled, no NVLink.
[[nodiscard]] Gpu slice_gpu(const Gpu& parent, const GpuSlice& slice);
[[nodiscard]] const Provider* find_provider(const Catalog& catalog, std::string_view name);
// The product facts of provider `name`; nullptr when no file states any.
[[nodiscard]] const Product* find_product(const Catalog& catalog, std::string_view name);
// The spot interruption band `product` states for `instance` in `region`; nullptr when none.
[[nodiscard]] const SpotBand* find_spot_band(const Product* product, std::string_view instance,
                                             std::string_view region);
// Whether `pattern` (a type name, or a prefix ending in '*') names instance type `type`.
[[nodiscard]] bool matches_instance(std::string_view pattern, std::string_view type);
// The scale-out facts of `instance` of `provider` (the last matching entry); nullptr = unknown.
[[nodiscard]] const Cluster* find_cluster(const Catalog& catalog, std::string_view provider,
                                          std::string_view instance);
// Whether the GPUs of `instance` talk over NVLink: stated by the instance, or implied by an
// SXM or OAM module with NVLink on a board of two or more (docs/methodology.md, "Interconnect").
[[nodiscard]] bool has_nvlink(const Instance& instance, const Gpu& gpu);

// What a name given to `gpuplan catalog show` names: a GPU model (find_gpu), else a provider
// (find_provider), else the first instance type of that name in the catalog's provider order
// (`provider` is then its provider). All null when nothing has that name.
struct Named {
    const Gpu* gpu = nullptr;
    const Provider* provider = nullptr;
    const Instance* instance = nullptr;
    const Build* build = nullptr; // a self-built build
};
[[nodiscard]] Named find_named(const Catalog& catalog, std::string_view name);
// Units of `to` per unit of `from` through the base currency, at the newest rates (or, with
// `on`, at the rates find_fx_rate picks for that date); nullopt if either is unknown.
[[nodiscard]] std::optional<double> fx_rate(const Catalog& catalog, std::string_view from,
                                            std::string_view to,
                                            std::optional<Date> on = std::nullopt);
// The newest rate record for `currency` (nullptr for the base or an unknown code).
[[nodiscard]] const FxRate* find_fx_rate(const Catalog& catalog, std::string_view currency);
// The rate record for `currency` nearest `on`: the newest dated on or before it, else the oldest
// after it (nullptr for the base or an unknown code).
[[nodiscard]] const FxRate* find_fx_rate(const Catalog& catalog, std::string_view currency,
                                         Date on);
// The currencies the catalog converts between: the base and every rated one, sorted.
[[nodiscard]] std::vector<std::string> currencies(const Catalog& catalog);
// Whether figures citing `sources` (catalog source ids) have no date of their own: each source
// is marked undated and states no as_of of its own (an as_of beside them is the day they were
// read, never the day the prices were set). False for an empty list.
[[nodiscard]] bool is_undated(const Catalog& catalog, const std::vector<std::string>& sources);
// The date of a price row: its own as_of, else its provider's; nullopt when its sources (its
// own, else its provider's) are undated.
[[nodiscard]] std::optional<Date> price_as_of(const Catalog& catalog, const Provider& provider,
                                              const PriceRow& row);
// "undated", or the row's date as YYYY-MM-DD.
[[nodiscard]] std::string price_as_of_text(const Catalog& catalog, const Provider& provider,
                                           const PriceRow& row);
// The first value of `catalog`'s providers outside the ranges the readers enforce (a price that is
// NaN, negative or above limits::k_max_price_per_hour; a GPU count outside the instance limits; a
// spot interruption rate outside its range), as "provider/instance: what"; empty when none. For
// catalogs that reach gpuplan without a reader: the price cache.
[[nodiscard]] std::string invalid_value(const Catalog& catalog);
// Number of price rows (offers) across all providers.
[[nodiscard]] std::size_t offer_count(const Catalog& catalog);
// Oldest and newest as_of of every dated price row (price_as_of); nullopt for a catalog without
// dated prices.
[[nodiscard]] std::optional<std::pair<Date, Date>> price_date_range(const Catalog& catalog);

} // namespace gpuplan::catalog

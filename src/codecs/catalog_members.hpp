#pragma once
// How each catalog type is serialised by codecs::BinaryWriter and BinaryReader: every member,
// once, in order. Used by the bundle (src/codecs/bundle.cpp) and by every other encoding that
// holds catalog types. The bottom layer's Date and Source are listed in binary_codec.hpp.

#include "codecs/binary_codec.hpp"
#include "gpuplan/catalog/catalog.hpp"

namespace gpuplan::catalog {

template <class A> void members(A& a, Parameter& v) {
    a(v.value), a(v.sources), a(v.as_of), a(v.note);
}
template <class A> void members(A& a, Gpu& v) {
    a(v.name), a(v.aliases), a(v.architecture), a(v.form_factor), a(v.memory_gib),
        a(v.memory_bandwidth_gb_per_s), a(v.tflops), a(v.tdp_watts), a(v.nvlink_gb_per_s),
        a(v.mig_instances), a(v.released), a(v.sources), a(v.as_of), a(v.note);
}
template <class A> void members(A& a, PriceRow& v) {
    a(v.region), a(v.zone), a(v.on_demand), a(v.spot), a(v.monthly), a(v.yearly), a(v.sources),
        a(v.as_of);
}
template <class A> void members(A& a, ReservedPrice& v) {
    a(v.term), a(v.payment), a(v.effective_per_hour), a(v.upfront_fraction), a(v.region),
        a(v.sources), a(v.as_of);
}
template <class A> void members(A& a, ReservedDiscount& v) {
    a(v.term), a(v.payment), a(v.discount), a(v.upfront_fraction), a(v.is_default), a(v.sources);
}
template <class A> void members(A& a, Instance& v) {
    a(v.type), a(v.gpu), a(v.gpu_count), a(v.mig_profile), a(v.gpu_memory_gib), a(v.vcpus),
        a(v.memory_gib), a(v.network_gbps), a(v.network_sources), a(v.nvlink), a(v.local_nvme_gb),
        a(v.spot_interruption_rate_per_node_hour), a(v.prices), a(v.reserved), a(v.note);
}
template <class A> void members(A& a, Billing& v) {
    a(v.granularity_seconds), a(v.minimum_seconds), a(v.sources);
}
template <class A> void members(A& a, SpotTerms& v) {
    a(v.interruption_rate_per_node_hour), a(v.notice_seconds), a(v.restart_minutes);
}
template <class A> void members(A& a, Provider& v) {
    a(v.name), a(v.display_name), a(v.currency), a(v.as_of), a(v.sources), a(v.billing), a(v.spot),
        a(v.reserved_discounts), a(v.egress_per_gb), a(v.instances), a(v.note);
}
template <class A> void members(A& a, ResalePoint& v) {
    a(v.months), a(v.fraction);
}
template <class A> void members(A& a, Site& v) {
    a(v.electricity_per_kwh), a(v.pue), a(v.colocation_per_kw_month), a(v.staff_fte_per_node),
        a(v.staff_cost_per_fte_year), a(v.maintenance_rate_per_year), a(v.utilisation),
        a(v.economic_life_months), a(v.resale_curve), a(v.resale_sources), a(v.resale_as_of);
}
template <class A> void members(A& a, Build& v) {
    a(v.name), a(v.gpu), a(v.gpu_count), a(v.capex), a(v.network_capex_per_node), a(v.node_kw),
        a(v.lead_time_weeks), a(v.network_gbps), a(v.nvlink), a(v.sources), a(v.as_of), a(v.note);
}
template <class A> void members(A& a, SelfBuilt& v) {
    a(v.currency), a(v.site), a(v.builds);
}
template <class A> void members(A& a, FxRate& v) {
    a(v.currency), a(v.per_base), a(v.as_of), a(v.sources);
}
template <class A> void members(A& a, Fx& v) {
    a(v.base), a(v.rates);
}
template <class A> void members(A& a, Benchmark& v) {
    a(v.model), a(v.gpu), a(v.precision), a(v.metric), a(v.value), a(v.gpu_count), a(v.sources),
        a(v.as_of), a(v.batch);
}
template <class A> void members(A& a, Cluster& v) {
    a(v.instances), a(v.fabric), a(v.gbps_per_node), a(v.sold_as), a(v.min_nodes), a(v.max_nodes),
        a(v.nvlink_domain), a(v.sources), a(v.note);
}
template <class A> void members(A& a, CommitmentSale& v) {
    a(v.instances), a(v.terms), a(v.min_gpus), a(v.sources), a(v.note);
}
template <class A> void members(A& a, Resale& v) {
    a(v.instances), a(v.origin), a(v.sources), a(v.note);
}
template <class A> void members(A& a, SpotBand& v) {
    a(v.instance), a(v.band), a(v.regions), a(v.sources), a(v.as_of);
}
template <class A> void members(A& a, ProductReservedPrice& v) {
    a(v.instance), a(v.price);
}
template <class A> void members(A& a, Product& v) {
    a(v.provider), a(v.capacity), a(v.capacity_sources), a(v.startup_minutes), a(v.clusters),
        a(v.commitments), a(v.reserved_prices), a(v.max_price_age_days), a(v.resells),
        a(v.spot_bands);
}
template <class A> void members(A& a, Catalog& v) {
    a(v.gpus), a(v.providers), a(v.products), a(v.self_built), a(v.fx), a(v.benchmarks),
        a(v.sources), a(v.files), a(v.digest);
}

} // namespace gpuplan::catalog

#include "estimate/data_pipeline.hpp"

#include "estimate/constants.hpp"

#include <algorithm>
#include <cmath>

namespace gpuplan::estimate::detail {

DataCache cache_for(double dataset_gb, const NodeShape& node) {
    if (node.host_memory_gib && dataset_gb * k_bytes_per_gb <=
                                    k_host_cache_share * *node.host_memory_gib * k_bytes_per_gib) {
        return DataCache::host_ram;
    }
    if (node.local_nvme_gb && *node.local_nvme_gb >= dataset_gb) {
        return DataCache::local_nvme;
    }
    return DataCache::none;
}

namespace {

double cache_gb_per_s(DataCache cache) {
    switch (cache) {
    case DataCache::host_ram:
        return k_host_cache_gb_per_s;
    case DataCache::local_nvme:
        return k_nvme_gb_per_s;
    case DataCache::none:
        break;
    }
    return k_network_disk_gb_per_s;
}

// CPU decode of every sample of every epoch on the vCPUs that come with the GPUs used (E6).
double decode_seconds(const workload::Workload& w, const NodeShape& node, int gpus) {
    if (!w.data.decode_samples_per_second_per_vcpu || !w.data.samples || node.vcpus <= 0) {
        return 0.0;
    }
    const double gpn = std::max(1, node.gpus_per_node);
    const double vcpus = node.vcpus * static_cast<double>(gpus) / gpn;
    return *w.data.samples * w.data.epochs / (vcpus * *w.data.decode_samples_per_second_per_vcpu);
}

} // namespace

DataTiming data_timing(const workload::Workload& w, const NodeShape& node, int gpus,
                       double train_seconds) {
    DataTiming t;
    t.decode_seconds = decode_seconds(w, node, gpus);
    if (w.data.dataset_gb && *w.data.dataset_gb > 0.0) {
        const double dataset_gb = *w.data.dataset_gb;
        const double nodes = std::ceil(static_cast<double>(gpus) / std::max(1, node.gpus_per_node));
        t.cache = cache_for(dataset_gb, node);
        // Every epoch after staging reads the dataset once across all nodes.
        t.read_seconds = dataset_gb * w.data.epochs / (nodes * cache_gb_per_s(t.cache));
        if (t.cache != DataCache::none) {
            const double network_gb_per_s =
                node.network_gbps.value_or(k_default_network_gbps) / k_bits_per_byte;
            t.stage_seconds = dataset_gb / std::min(k_object_store_gb_per_s, network_gb_per_s);
        }
    }
    const double data_seconds = std::max(t.read_seconds, t.decode_seconds);
    // Loading overlaps compute, so each epoch takes the longer of the two.
    t.wall_seconds = std::max(train_seconds, data_seconds) + t.stage_seconds;
    t.bound = data_seconds > k_data_bottleneck_share * train_seconds;
    return t;
}

} // namespace gpuplan::estimate::detail

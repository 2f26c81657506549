#include "estimate/training.hpp"

#include "estimate/common.hpp"
#include "estimate/constants.hpp"
#include "estimate/data_pipeline.hpp"
#include "gpuplan/units.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <fmt/format.h>
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gpuplan::estimate::detail {

namespace {

using catalog::Architecture;
using catalog::Gpu;
using catalog::Precision;
using workload::Family;
using workload::Method;
using workload::Offload;
using workload::Recompute;
using workload::Sharding;
using workload::Workload;

// Per-direction bandwidth in GB/s between GPUs of one node (E5.3).
// Per-direction PCIe bandwidth in GB/s of the GPU's generation (E5.3).
double pcie_gb_per_s(const Gpu& gpu) {
    if (gpu.architecture <= Architecture::turing) {
        return k_pcie3_gb_per_s;
    }
    return gpu.architecture >= Architecture::hopper ? k_pcie5_gb_per_s : k_pcie4_gb_per_s;
}

double intra_node_gb_per_s(const Gpu& gpu, const NodeShape& node) {
    if (node.nvlink && gpu.nvlink_gb_per_s > 0.0) {
        return gpu.nvlink_gb_per_s / 2.0;
    }
    return pcie_gb_per_s(gpu);
}

double inter_node_gb_per_s(const NodeShape& node) {
    return node.network_gbps.value_or(k_default_network_gbps) / k_bits_per_byte;
}

// GPU counts tried (E5.2): 1, 2, 4, ... below a node, one node, then whole nodes, up to `cap`.
// Past k_fine_nodes nodes the step grows with the count (at most 1/k_step_divisor of it). A lazy
// range: a cap of a million GPUs costs nothing until the search walks that far.
constexpr long long k_fine_nodes = 128;
constexpr long long k_step_divisor = 32;
class CandidateCounts {
public:
    CandidateCounts(int gpus_per_node, int cap) : gpn_(std::max(1, gpus_per_node)), cap_(cap) {}

    class iterator {
    public:
        using value_type = int;
        using difference_type = std::ptrdiff_t;
        iterator() = default;
        iterator(int n, int gpn, int cap) : n_(n > cap ? 0 : n), gpn_(gpn), cap_(cap) {}
        int operator*() const { return n_; }
        iterator& operator++() {
            const long long next = n_ < gpn_ ? std::min<long long>(2LL * n_, gpn_)
                                             : static_cast<long long>(n_) + step();
            n_ = next > cap_ ? 0 : static_cast<int>(next);
            return *this;
        }
        bool operator==(const iterator& other) const { return n_ == other.n_; }
        bool operator!=(const iterator& other) const { return n_ != other.n_; }

    private:
        // Whole nodes up to k_fine_nodes nodes, then the largest power of two of nodes at most
        // 1/k_step_divisor of the count, so that a cap of a million GPUs is a few hundred counts.
        long long step() const {
            const long long nodes = n_ / gpn_;
            long long step_nodes = 1;
            while (nodes >= k_fine_nodes && step_nodes * 2 * k_step_divisor <= nodes) {
                step_nodes *= 2;
            }
            return step_nodes * gpn_;
        }
        int n_ = 0; // 0: past the end
        int gpn_ = 1;
        int cap_ = 0;
    };

    iterator begin() const { return {1, gpn_, cap_}; }
    static iterator end() { return {}; }

private:
    int gpn_;
    int cap_;
};

struct TrainModel {
    double params = 0.0;
    double active = 0.0;
    double trainable = 0.0;
    double weight_bytes = 0.0;    // per parameter of the whole model, as stored
    double grad_bytes = 0.0;      // per trainable parameter
    double optimizer_bytes = 0.0; // per trainable parameter, master weights included
    double activation_scale = 1.0;
    Shape shape;
    double flops_per_unit = 0.0; // per token (transformer) or sample
    double work = 0.0;           // tokens (transformer) or samples (cnn/custom) computed, whole run
    double real_work = 0.0;      // of them, tokens of real data (padding excluded, E2.6)
    double work_per_micro = 0.0; // per replica per micro-batch
    double global_batch = 0.0;   // work units per optimizer step before the d*b floor (E5.4)
    double total_flops = 0.0;
    double checkpoint_bytes = 0.0; // weights and optimizer state, without gradients (E4.7)
    double expert_params = 0.0;    // MoE: parameters of all routed experts (E4.9); 0 if dense
    double experts = 0.0;          // MoE: routed experts per layer; 0 if dense
    double experts_per_token = 0.0;
    std::string flops_convention;

    // Share of the parameters in routed experts (sharded over expert parallelism too).
    [[nodiscard]] double expert_share() const { return safe_div(expert_params, params); }
};

// Tokens per optimizer step when the workload gives none (E5.4).
double default_global_batch_tokens(double active) {
    return active >= k_huge_transformer_params    ? k_global_batch_tokens_huge
           : active >= k_large_transformer_params ? k_global_batch_tokens_large
                                                  : k_global_batch_tokens_small;
}

// How total_flops counts model FLOPs, for the output (E2).
std::string flops_convention(const Workload& w, bool attention) {
    if (w.model.family != Family::transformer) {
        return "3 x forward FLOPs per sample (backward = 2 x forward)";
    }
    const std::string base = w.training.method == Method::full
                                 ? "6N per token (6ND)"
                                 : "4N + 6N_lora per token (frozen base: no weight gradients)";
    return attention ? base + " + attention 12*L*h*s per token (PaLM convention)" : base;
}

// Optimizer state bytes per trainable parameter, without master weights (E4.1): AdamW's two
// fp32 moments, 8-bit AdamW's two block-wise quantised ones, one for SGD momentum and Adafactor.
double optimizer_state_bytes(workload::Optimizer optimizer) {
    switch (optimizer) {
    case workload::Optimizer::adamw:
        return k_adamw_state_bytes;
    case workload::Optimizer::adamw_8bit:
        return k_adamw_8bit_state_bytes;
    case workload::Optimizer::sgd:
    case workload::Optimizer::adafactor:
        break;
    }
    return k_one_moment_state_bytes;
}

// The routed experts of a mixture of experts (E4.9): from params = dense + E x P_e and
// active = dense + k x P_e.
void expert_split(const workload::Model& model, TrainModel& m) {
    if (!model.experts || !model.experts_per_token || m.active >= m.params) {
        return;
    }
    m.experts = *model.experts;
    m.experts_per_token = *model.experts_per_token;
    const double per_expert = (m.params - m.active) / (m.experts - m.experts_per_token);
    m.expert_params = std::min(m.params, per_expert * m.experts);
}

// Tokens the GPUs compute and tokens of real data (E2.6): data.tokens counts real tokens, or
// samples x epochs x the mean length; padded sequences (packing: false) compute seq_len tokens
// for every mean_seq_len of data, packed ones only the data.
void transformer_work(const Workload& w, TrainModel& m) {
    const double seq = m.shape.seq_len;
    const double mean = w.data.mean_seq_len.value_or(seq);
    m.real_work =
        w.data.tokens ? *w.data.tokens : w.data.samples.value_or(0.0) * mean * w.data.epochs;
    const double padding = !w.data.packing && seq > 0.0 && mean > 0.0 ? seq / mean : 1.0;
    m.work = m.real_work * padding;
}

TrainModel train_model(const Workload& w, Precision precision, std::vector<std::string>& notes) {
    TrainModel m;
    m.params = w.model.params;
    m.active = active_params(w.model);
    m.shape = shape_of(w.model);
    const bool mixed = is_mixed(precision);
    const bool transformer = w.model.family == Family::transformer;
    const double state_bytes = optimizer_state_bytes(w.training.optimizer);
    const double compute_bytes = mixed ? 2.0 : 4.0;
    m.activation_scale = mixed ? 1.0 : 2.0;
    m.grad_bytes = w.training.fp32_gradients ? 4.0 : compute_bytes;
    m.optimizer_bytes = (mixed ? 4.0 : 0.0) + state_bytes;
    m.checkpoint_bytes = m.params * (compute_bytes + m.optimizer_bytes);
    if (transformer && !m.shape.known()) {
        notes.emplace_back("shape_missing: no layers, hidden or seq_len; attention FLOPs, "
                           "activation memory and tensor/pipeline parallelism left out");
    }
    const double attention =
        transformer && m.shape.known()
            ? k_train_attention_flops * m.shape.layers * m.shape.attention_width() * m.shape.seq_len
            : 0.0;
    if (w.training.method == Method::full) {
        m.trainable = m.params;
        m.weight_bytes = compute_bytes;
        m.flops_per_unit = k_train_flops_per_param * m.active + attention;
    } else {
        // Adapters on q, k, v, o (E4.5): fp32 weights (4), gradients (4) and AdamW moments (8).
        const bool sized = m.shape.layers > 0.0 && m.shape.hidden > 0.0;
        m.trainable = sized ? 8.0 * k_lora_rank * m.shape.hidden * m.shape.layers
                            : k_lora_trainable_fraction * m.params;
        const double base_bytes = w.training.method == Method::qlora ? k_nf4_bytes : compute_bytes;
        m.weight_bytes = base_bytes + 4.0 * m.trainable / m.params;
        m.grad_bytes = 4.0;
        m.optimizer_bytes = k_lora_adapter_bytes - 8.0;
        m.checkpoint_bytes = m.trainable * k_lora_checkpoint_bytes;
        m.flops_per_unit =
            k_frozen_flops_per_param * m.active + k_train_flops_per_param * m.trainable + attention;
    }
    if (transformer) {
        transformer_work(w, m);
        m.work_per_micro =
            w.training.micro_batch * (m.shape.seq_len > 0.0 ? m.shape.seq_len : k_default_seq_len);
        m.global_batch = w.training.global_batch_tokens ? *w.training.global_batch_tokens
                                                        : default_global_batch_tokens(m.active);
    } else {
        m.flops_per_unit = k_train_flops_per_forward * w.model.flops_per_sample.value_or(0.0);
        m.work = w.data.samples.value_or(0.0) * w.data.epochs;
        m.real_work = m.work;
        m.work_per_micro = w.training.micro_batch;
        m.global_batch = 0.0; // b * G samples per step
    }
    m.total_flops = m.flops_per_unit * m.work;
    m.flops_convention = flops_convention(w, attention > 0.0);
    if (w.training.method == Method::full) {
        expert_split(w.model, m);
    }
    return m;
}

// One way to lay the job out on its GPUs (E5.1): tensor x pipeline x context x data, experts
// spread over `expert` of the data-parallel ranks, and the ZeRO stage.
struct Layout {
    int tensor = 1;
    int pipeline = 1;
    int context = 1;
    int expert = 1;
    Sharding sharding = Sharding::none;
    // GPUs that split the weights.
    [[nodiscard]] int shard() const { return tensor * pipeline; }
    // GPUs that process one data-parallel replica's micro-batch.
    [[nodiscard]] int replica() const { return tensor * pipeline * context; }
};

// Data-parallel replicas of a layout on `gpus` GPUs.
double replicas(Layout layout, int gpus) {
    return std::max(1.0, std::floor(gpus / static_cast<double>(layout.replica())));
}

// Ranks that hold the same weights and so share ZeRO's partitions and the gradient reduction:
// the data-parallel replicas times the context-parallel ranks of each.
double zero_ranks(Layout layout, int gpus) {
    return replicas(layout, gpus) * layout.context;
}

// A short list held inline (degrees of one dimension, ZeRO stages): the layout search builds
// thousands of them per estimate, so none touches the heap. Holds at most N items; powers of two
// of an int are at most 31.
template <typename T, std::size_t N> class ShortList {
public:
    ShortList() = default;
    ShortList(std::initializer_list<T> items) {
        for (T item : items) {
            push_back(item);
        }
    }
    void push_back(T item) {
        if (m_size < N) {
            m_items[m_size++] = item;
        }
    }
    [[nodiscard]] const T* begin() const { return m_items.data(); }
    [[nodiscard]] const T* end() const { return m_items.data() + m_size; }

private:
    std::array<T, N> m_items{};
    std::size_t m_size = 0;
};
using Degrees = ShortList<int, 32>;

// Degrees tried for one dimension: the pinned one, or powers of two from 1 up to `limit`.
Degrees degrees(std::optional<int> pinned, int limit) {
    if (pinned) {
        return {*pinned};
    }
    Degrees out;
    for (long long d = 1; d <= std::max(1, limit); d *= 2) {
        out.push_back(static_cast<int>(d));
    }
    return out;
}

// Context-parallel degrees tried (E5.1): the pinned one; otherwise 1, and powers of two up to
// k_max_context_parallel once the sequence reaches k_context_parallel_min_seq_len.
Degrees context_degrees(const Workload& w, const Shape& shape, bool parallel) {
    if (w.training.context_parallel) {
        return {*w.training.context_parallel};
    }
    const bool long_sequence = parallel && shape.seq_len >= k_context_parallel_min_seq_len;
    return degrees(std::nullopt, long_sequence ? k_max_context_parallel : 1);
}

// Expert-parallel degrees tried (E5.1): 1 for a dense model; the pinned one; otherwise powers
// of two that divide the expert count, up to the ZeRO ranks `ranks` (EP is carved out of them).
Degrees expert_degrees(const Workload& w, const TrainModel& m, double ranks) {
    if (m.experts <= 0.0) {
        return {1};
    }
    if (w.training.expert_parallel) {
        return {*w.training.expert_parallel};
    }
    Degrees out;
    for (long long e = 1; static_cast<double>(e) <= std::min(m.experts, ranks); e *= 2) {
        if (std::fmod(m.experts, static_cast<double>(e)) == 0.0) {
            out.push_back(static_cast<int>(e));
        }
    }
    return out;
}

// Whether tensor degree `t` is allowed: inside a node, at most `gpus`, dividing the heads.
bool tensor_allowed(int t, const Shape& shape, bool parallel, int gpus, int gpn) {
    if (t > gpn || t > gpus) {
        return false;
    }
    return t == 1 || (parallel && shape.heads > 0.0 && std::fmod(shape.heads, t) == 0.0);
}

// Visits the context x expert layouts of one tensor x pipeline pair.
template <typename Visit>
void context_expert_layouts(const Workload& w, const TrainModel& m, const Degrees& contexts,
                            Layout base, int gpus, Visit& visit) {
    for (int cp : contexts) {
        base.context = cp;
        if (gpus % base.replica() != 0) {
            continue;
        }
        for (int ep : expert_degrees(w, m, zero_ranks(base, gpus))) {
            if (std::fmod(zero_ranks(base, gpus), ep) == 0.0) {
                base.expert = ep;
                visit(base);
            }
        }
    }
}

// Visits the tensor x pipeline x context x expert layouts for `gpus` GPUs (E5.1), smaller
// degrees first; the ZeRO stage is chosen per layout by with_stage().
template <typename Visit>
void for_each_layout(const Workload& w, const TrainModel& m, int gpus, int gpn, Visit visit) {
    const Shape& shape = m.shape;
    const bool parallel = w.model.family == Family::transformer && shape.known();
    const int max_tensor = parallel ? k_tensor_parallel_degrees.back() : 1;
    const int max_pipeline = parallel ? static_cast<int>(shape.layers) : 1;
    const Degrees contexts = parallel ? context_degrees(w, shape, parallel) : Degrees{1};
    for (int t : degrees(w.training.tensor_parallel, max_tensor)) {
        if (!tensor_allowed(t, shape, parallel, gpus, gpn)) {
            continue;
        }
        for (int pp : degrees(w.training.pipeline_parallel, std::min(max_pipeline, gpus / t))) {
            if ((pp == 1 || parallel) && gpus % (t * pp) == 0) {
                context_expert_layouts(w, m, contexts, Layout{t, pp}, gpus, visit);
            }
        }
    }
}

// ZeRO stages tried for a layout (E5.1): the pinned one; otherwise none to zero3 while there
// is more than one rank to partition over, zero1 at most with pipeline parallelism (DeepSpeed
// and Megatron-LM do not combine ZeRO-2/3 with pipelining).
ShortList<Sharding, 4> zero_stages(const Workload& w, Layout layout, int gpus) {
    if (w.training.sharding) {
        return {*w.training.sharding};
    }
    if (zero_ranks(layout, gpus) <= 1.0) {
        return {Sharding::none};
    }
    // ZeRO-Offload updates each rank's partition on the CPU: unpartitioned it repeats the work.
    const bool offload = w.training.offload == Offload::optimizer;
    if (layout.pipeline > 1) {
        if (offload) {
            return {Sharding::zero1};
        }
        return {Sharding::none, Sharding::zero1};
    }
    if (offload) {
        return {Sharding::zero1, Sharding::zero2, Sharding::zero3};
    }
    return {Sharding::none, Sharding::zero1, Sharding::zero2, Sharding::zero3};
}

// Micro-batches per data-parallel rank per optimizer step (E5.4): the global batch split over
// the replicas, at least one.
int micro_batches(const TrainModel& m, double dp) {
    if (m.global_batch <= 0.0) {
        return 1;
    }
    return static_cast<int>(std::max(1.0, std::round(m.global_batch / (dp * m.work_per_micro))));
}

// Interleaved 1F1B model chunks per pipeline rank (E5.4).
int virtual_stages(const TrainModel& m, Layout layout) {
    if (layout.pipeline <= 1) {
        return 1;
    }
    const double per_stage = std::floor(m.shape.layers / layout.pipeline);
    return static_cast<int>(std::clamp(per_stage, 1.0, static_cast<double>(k_max_virtual_stages)));
}

// Layers of the model a transformer without a shape is assumed to have (E4.2).
double assumed_layers(const TrainModel& m) {
    if (m.shape.layers > 0.0) {
        return m.shape.layers;
    }
    // N = 12 L h^2 with h = 128 L.
    return std::max(
        1.0, std::round(std::cbrt(m.params / (12.0 * k_hidden_per_layer * k_hidden_per_layer))));
}

double activation_bytes(const Workload& w, const TrainModel& m, Layout layout, int micro) {
    if (w.model.family != Family::transformer) {
        return w.training.micro_batch * w.model.flops_per_sample.value_or(0.0) / 1e9 *
               k_cnn_act_bytes_per_gflop * m.activation_scale;
    }
    if (!m.shape.known()) {
        return 0.0;
    }
    const Recompute recompute = w.training.recompute;
    // Selective recomputation re-runs the attention core, so its scores are never stored.
    const double scores =
        w.training.flash_attention || recompute == Recompute::selective
            ? 0.0
            : k_attention_score_bytes * m.shape.heads * m.shape.seq_len / m.shape.hidden;
    const double full_layer = k_activation_bytes + scores;
    // 1F1B: the first stage holds min(pp, m) micro-batches of L/pp layers.
    const double held = m.shape.layers / layout.pipeline * std::min(layout.pipeline, micro);
    const double per_token = recompute == Recompute::full
                                 ? k_checkpointed_activation_bytes * held + full_layer
                                 : full_layer * held;
    // Context parallelism splits each sequence over `context` GPUs.
    return m.shape.seq_len * w.training.micro_batch * m.shape.hidden * per_token *
           m.activation_scale / (layout.tensor * layout.context);
}

// Parameters per GPU of `count` (the model's or its trainable ones) over the weight shard and
// `ranks` partitions: the dense share over both, the routed experts over `expert` ranks more
// (E4.9).
double per_gpu(const TrainModel& m, double count, Layout layout, double ranks) {
    const double share = m.expert_share();
    const double dense_ranks = layout.shard() * ranks;
    return count * (1.0 - share) / dense_ranks + count * share / (dense_ranks * layout.expert);
}

// Ranks the optimizer states are partitioned over: ZeRO's from stage 1 on (E4.2).
double optimizer_ranks(Layout layout, int gpus) {
    return layout.sharding == Sharding::none ? 1.0 : zero_ranks(layout, gpus);
}

// Host RAM ZeRO-Offload needs on one node, in bytes: the optimizer states of its GPUs (E4.8).
double offload_host_bytes(const TrainModel& m, Layout layout, int gpus, int gpn) {
    return per_gpu(m, m.trainable, layout, optimizer_ranks(layout, gpus)) * m.optimizer_bytes *
           std::min(gpus, gpn);
}

MemoryBreakdown training_memory(const Workload& w, const TrainModel& m, Layout layout, int gpus) {
    const double zr = zero_ranks(layout, gpus);
    const Sharding s = layout.sharding;
    double weights = per_gpu(m, m.params, layout, 1.0) * m.weight_bytes;
    const double grads =
        per_gpu(m, m.trainable, layout, s == Sharding::zero2 || s == Sharding::zero3 ? zr : 1.0) *
        m.grad_bytes;
    const double optimizer =
        w.training.offload == Offload::optimizer
            ? 0.0
            : per_gpu(m, m.trainable, layout, optimizer_ranks(layout, gpus)) * m.optimizer_bytes;
    if (s == Sharding::zero3) {
        const double gathered = w.model.family == Family::transformer
                                    ? k_zero3_gathered_layers * weights * layout.shard() /
                                          (assumed_layers(m) * layout.tensor)
                                    : k_zero3_gathered_share * m.params * m.weight_bytes;
        weights = per_gpu(m, m.params, layout, zr) * m.weight_bytes + gathered;
    }
    MemoryBreakdown mem;
    mem.weights_gib = weights / k_bytes_per_gib;
    mem.gradients_gib = grads / k_bytes_per_gib;
    mem.optimizer_gib = optimizer / k_bytes_per_gib;
    mem.activations_gib =
        activation_bytes(w, m, layout, micro_batches(m, replicas(layout, gpus))) / k_bytes_per_gib;
    mem.overhead_gib = k_framework_overhead_gib;
    return mem;
}

// One optimizer step of a layout (E5.4), in seconds.
struct StepTime {
    double compute = 0.0; // model FLOPs at the core efficiency
    double bubble = 0.0;
    double dp_comm = 0.0; // data-parallel and pipeline traffic, overlappable
    double tp_comm = 0.0; // tensor-parallel all-reduces, on the critical path
    double step = 0.0;
    double steps = 0.0;
    double global_batch = 0.0;
    int micro = 1;
    int virtual_stages = 1;
};

// Bandwidths one step's traffic sees, in bytes/s after k_link_efficiency (E5.3).
struct Links {
    double intra = 0.0; // per GPU inside a node
    double inter = 0.0; // per node
    double pcie = 0.0;  // per GPU to its host
    double gpn = 1.0;
};

Links links_of(const Gpu& gpu, const NodeShape& node) {
    return {intra_node_gb_per_s(gpu, node) * k_bytes_per_gb * k_link_efficiency,
            inter_node_gb_per_s(node) * k_bytes_per_gb * k_link_efficiency,
            pcie_gb_per_s(gpu) * k_bytes_per_gb * k_link_efficiency,
            static_cast<double>(node.gpus_per_node)};
}

// Ring all-reduce of `bytes` per GPU across `dp` ranks, hierarchical over nodes of `l.gpn`
// GPUs with `tensor`-wide model shards (E5.4).
double all_reduce_seconds(double bytes, double dp, int tensor, const Links& l) {
    if (dp <= 1.0) {
        return 0.0;
    }
    const double d_in = std::max(1.0, std::min(dp, std::floor(l.gpn / tensor)));
    const double n_dp = std::max(1.0, dp / d_in);
    return 2.0 * (d_in - 1.0) / d_in * bytes / l.intra +
           2.0 * (n_dp - 1.0) / n_dp * bytes * (l.gpn / d_in) / l.inter;
}

// Per GPU bandwidth of a group of `span` GPUs (consecutive ranks): NVLink or PCIe inside a
// node, the node's network shared by its GPUs once the group leaves the node.
double group_link(const Links& l, double span) {
    return span <= l.gpn ? l.intra : l.inter / l.gpn;
}

// ZeRO-Offload's optimizer step (E4.8): the updated 16-bit weights back over PCIe and the CPU
// update of every node's share, both on the critical path.
double offload_seconds(const TrainModel& m, Layout layout, int gpus, const Links& l) {
    const double params = per_gpu(m, m.trainable, layout, optimizer_ranks(layout, gpus));
    const double upload = params * k_half_bytes / l.pcie;
    const double cpu = params * std::min<double>(gpus, l.gpn) * k_cpu_adam_bytes_per_param /
                       (k_host_memory_gb_per_s * k_bytes_per_gb);
    return upload + cpu;
}

// Data-parallel traffic of one step (E5.4): the gradient all-reduce, or with ZeRO-3 the
// parameters gathered for every micro-batch's forward and backward and the gradients
// reduce-scattered after each backward (each half an all-reduce).
double data_parallel_seconds(const TrainModel& m, Layout layout, int gpus, int micro,
                             const Links& l) {
    const double zr = zero_ranks(layout, gpus);
    const double grads = per_gpu(m, m.trainable, layout, 1.0) * m.grad_bytes;
    if (layout.sharding == Sharding::zero3) {
        const double weights = per_gpu(m, m.params, layout, 1.0) * m.weight_bytes;
        return micro * (all_reduce_seconds(weights, zr, layout.tensor, l) +
                        all_reduce_seconds(grads, zr, layout.tensor, l) / 2.0);
    }
    return all_reduce_seconds(grads, zr, layout.tensor, l);
}

StepTime step_time(const Workload& w, const TrainModel& m, const Gpu& gpu, const NodeShape& node,
                   int gpus, Layout layout, double flops_per_gpu) {
    StepTime t;
    const double dp = replicas(layout, gpus);
    const Links l = links_of(gpu, node);
    t.micro = micro_batches(m, dp);
    t.virtual_stages = virtual_stages(m, layout);
    t.global_batch = t.micro * dp * m.work_per_micro;
    t.steps = std::max(1.0, m.work / t.global_batch);
    t.compute = safe_div(m.total_flops / t.steps, gpus * flops_per_gpu);
    t.bubble = t.compute * (layout.pipeline - 1.0) / (t.virtual_stages * t.micro);
    t.dp_comm = data_parallel_seconds(m, layout, gpus, t.micro, l);
    // One micro-batch's activations on one GPU of its tensor and context groups, 16-bit.
    const double activation = k_half_bytes * m.shape.seq_len * w.training.micro_batch *
                              m.shape.hidden / (layout.tensor * layout.context);
    const double layers = m.shape.layers / layout.pipeline;
    if (layout.pipeline > 1) {
        // Activations forward and gradients backward at each of the v chunk boundaries; stages
        // span nodes when one model replica does not fit in a node.
        const double mp = layout.replica();
        const double link = mp > l.gpn ? l.inter / std::min(l.gpn, mp) : l.intra;
        t.dp_comm += t.micro * 2.0 * t.virtual_stages * activation / link;
    }
    if (layout.context > 1) {
        // Keys and values all-gathered forward, all-gathered and reduce-scattered backward,
        // per layer, overlapped with the attention (E5.4).
        const double kv =
            2.0 * activation * safe_div(m.shape.kv_heads * m.shape.head_dim, m.shape.hidden);
        t.dp_comm += layers * t.micro * k_context_parallel_collectives * kv *
                     (layout.context - 1.0) /
                     group_link(l, static_cast<double>(layout.tensor) * layout.context);
    }
    if (layout.tensor > 1) {
        t.tp_comm = layers * t.micro * k_tp_allreduces * 2.0 * (layout.tensor - 1.0) /
                    layout.tensor * (activation * layout.tensor) / l.intra;
    }
    if (layout.expert > 1) {
        // Tokens dispatched to their experts and combined back, forward and backward (E5.4).
        const double tokens = activation * m.experts_per_token;
        t.tp_comm += layers * t.micro * k_moe_all_to_alls * tokens * (layout.expert - 1.0) /
                     layout.expert /
                     group_link(l, static_cast<double>(layout.tensor) * layout.expert);
    }
    if (w.training.offload == Offload::optimizer) {
        t.tp_comm += offload_seconds(m, layout, gpus, l);
    }
    const double busy = t.compute + t.bubble;
    t.step =
        std::max(busy, t.dp_comm) + (1.0 - k_comm_overlap) * std::min(busy, t.dp_comm) + t.tp_comm;
    return t;
}

// How the efficiency relates to the modelled step (E3.7): an end-to-end MFU stated for this very
// job (training.mfu) already holds communication and bubbles; a benchmark or the table holds
// those of its own layout, so the modelled terms are charged relative to that.
struct Pace {
    double flops_per_gpu = 0.0; // core rate: peak x MFU / reference efficiency
    bool end_to_end = false;    // training.mfu: the time is FLOPs / (peak x MFU), nothing added
};

// The run at one layout: the step, the data pipeline and the resulting wall time.
struct TrainTiming {
    StepTime step;
    DataTiming data;
    double train_seconds = 0.0;    // steps x step time (compute only when end-to-end)
    double wall_seconds = 0.0;     // expected, failures included
    double deadline_seconds = 0.0; // at constraints.deadline_confidence
    double failure_free_seconds = 0.0;
    double scaling_efficiency = 1.0;
    Bottleneck bottleneck = Bottleneck::compute;
    Goodput goodput;
    // Run totals (sums over the stages of a multi-stage run, E5.6).
    double compute_seconds = 0.0;
    double bubble_seconds = 0.0;
    double comm_seconds = 0.0; // all communication, hidden or not
};

// The failures of a run of model `m` on `gpus` GPUs of `node` (E9), the same for all its layouts.
Failures run_failures(const TrainModel& m, const NodeShape& node, int gpus) {
    const int nodes = (gpus + node.gpus_per_node - 1) / std::max(node.gpus_per_node, 1);
    return failures(gpus, nodes, m.checkpoint_bytes / k_bytes_per_gb);
}

// The data pipeline, failures and restarts of a run whose training takes t.train_seconds
// (E6, E9).
void finish_timing(TrainTiming& t, const Workload& w, const NodeShape& node, int gpus,
                   const Failures& failures) {
    t.scaling_efficiency = safe_div(t.compute_seconds, t.train_seconds);
    t.data = data_timing(w, node, gpus, t.train_seconds);
    t.failure_free_seconds = t.data.wall_seconds;
    t.goodput = goodput(failures, t.failure_free_seconds / k_seconds_per_hour,
                        w.constraints.deadline_confidence);
    t.wall_seconds = t.goodput.expected_wall_hours * k_seconds_per_hour;
    t.deadline_seconds = t.goodput.confidence_wall_hours * k_seconds_per_hour;
}

TrainTiming train_timing(const Workload& w, const TrainModel& m, const Gpu& gpu,
                         const NodeShape& node, int gpus, Layout layout, const Pace& pace,
                         const Failures& failures) {
    TrainTiming t;
    t.step = step_time(w, m, gpu, node, gpus, layout, pace.flops_per_gpu);
    if (pace.end_to_end) {
        t.step.bubble = 0.0;
        t.step.dp_comm = 0.0;
        t.step.tp_comm = 0.0;
        t.step.step = t.step.compute;
    }
    t.train_seconds = t.step.steps * t.step.step;
    t.compute_seconds = t.step.steps * t.step.compute;
    t.bubble_seconds = t.step.steps * t.step.bubble;
    t.comm_seconds = t.step.steps * (t.step.dp_comm + t.step.tp_comm);
    finish_timing(t, w, node, gpus, failures);
    t.bottleneck = t.data.bound ? Bottleneck::data_loading
                   : t.step.dp_comm + t.step.tp_comm > t.step.compute + t.step.bubble
                       ? Bottleneck::communication
                       : Bottleneck::compute;
    return t;
}

// A training configuration at one GPU count: the layout with the shortest run that fits, or
// (when none fits) the one needing the least memory.
// One stage of a multi-stage run at one GPU count (E5.6).
struct StagePart {
    Layout layout;
    MemoryBreakdown memory;
    bool fits = false;
    double train_seconds = 0.0;
    int micro = 1;
};

struct TrainConfig {
    Layout layout;
    bool fits = false;
    MemoryBreakdown memory;
    TrainTiming timing;
    bool batch_kept = true;        // one micro-batch per replica stays within the global batch
    std::vector<StagePart> stages; // multi-stage runs only, in the workload's order
};

// Whether the data-parallel replicas of a layout, one micro-batch each, fit in the global batch.
bool keeps_batch(const TrainModel& m, Layout layout, int gpus) {
    const double dp = replicas(layout, gpus);
    return m.global_batch <= 0.0 || dp * m.work_per_micro <= m.global_batch * (1.0 + 1e-9);
}

// Whether `a` should replace `best` as the configuration of one GPU count.
bool better(const TrainConfig& a, const TrainConfig& best) {
    if (a.fits != best.fits) {
        return a.fits;
    }
    if (a.fits && a.batch_kept != best.batch_kept) {
        return a.batch_kept;
    }
    if (!a.fits) {
        return a.memory.total_gib() < best.memory.total_gib();
    }
    // Strictly shorter runs win; ties keep the earlier (smaller t, then pp) layout.
    return a.timing.wall_seconds < best.timing.wall_seconds;
}

// Whether a layout fits: GPU memory (E4) and, with ZeRO-Offload, the host RAM of a node when
// the catalog knows it (E4.8).
bool layout_fits(const Workload& w, const TrainModel& m, const MemoryBreakdown& memory,
                 const Gpu& gpu, const NodeShape& node, Layout layout, int gpus) {
    if (!fits_in(memory, gpu)) {
        return false;
    }
    return w.training.offload != Offload::optimizer || !node.host_memory_gib ||
           offload_host_bytes(m, layout, gpus, node.gpus_per_node) <=
               k_usable_memory_fraction * *node.host_memory_gib * k_bytes_per_gib;
}

// The ZeRO stage of a layout (E5.1): the first of zero_stages() that fits. Stages move as many
// bytes as the one before or more (E5.4), so a later one cannot be faster; when none fits, the
// last (the most partitioned) stays.
TrainConfig with_stage(const Workload& w, const TrainModel& m, const Gpu& gpu,
                       const NodeShape& node, Layout layout, int gpus) {
    TrainConfig config{layout, false, {}, {}, keeps_batch(m, layout, gpus), {}};
    for (Sharding stage : zero_stages(w, layout, gpus)) {
        config.layout.sharding = stage;
        config.memory = training_memory(w, m, config.layout, gpus);
        config.fits = layout_fits(w, m, config.memory, gpu, node, config.layout, gpus);
        if (config.fits) {
            break;
        }
    }
    return config;
}

std::optional<TrainConfig> configure(const Workload& w, const TrainModel& m, const Gpu& gpu,
                                     const NodeShape& node, int gpus, const Pace& pace) {
    std::optional<TrainConfig> best;
    const Failures failures = run_failures(m, node, gpus);
    for_each_layout(w, m, gpus, node.gpus_per_node, [&](const Layout& base) {
        TrainConfig config = with_stage(w, m, gpu, node, base, gpus);
        if (best && !config.fits &&
            (best->fits || config.memory.total_gib() >= best->memory.total_gib())) {
            return; // cannot win: skip the timing
        }
        config.timing = train_timing(w, m, gpu, node, gpus, config.layout, pace, failures);
        if (!best || better(config, *best)) {
            best = std::move(config);
        }
    });
    return best;
}

// Whether going from `from` to `to` GPUs gains at least k_min_marginal_scaling of its
// proportional speed-up (E5.2).
bool still_helps(int from, double from_seconds, int to, double to_seconds) {
    const double ideal = static_cast<double>(to) / from - 1.0;
    const double gained = safe_div(from_seconds, to_seconds) - 1.0;
    return ideal <= 0.0 || gained >= k_min_marginal_scaling * ideal;
}

// The term that keeps a configuration from scaling further, for the scaling_limit note.
std::string limiting_term(const TrainTiming& t) {
    const std::array<std::pair<double, std::string_view>, 3> terms = {
        {{t.bubble_seconds, "pipeline bubble"},
         {t.comm_seconds, "communication"},
         {std::max(t.data.read_seconds, t.data.decode_seconds), "data loading"}}};
    const auto* top = std::max_element(
        terms.begin(), terms.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    return fmt::format("{} ({:.1f} h)", top->second, top->first / k_seconds_per_hour);
}

// Memory differences below this count as ties when choosing a count that does not fit.
constexpr double k_memory_tie_gib = 1e-9;

// The system a reference benchmark ran on (E3.1): one node holding all its GPUs, with NVLink
// when its GPU has it (every catalog benchmark is a single 8-GPU DGX/HGX node or one GPU). The
// network of the node being estimated plays no part: the reference never crossed it.
NodeShape reference_node(const Gpu& reference_gpu, int reference_gpus) {
    NodeShape shape;
    shape.gpus_per_node = std::max(1, reference_gpus);
    shape.nvlink = reference_gpu.nvlink_gb_per_s > 0.0;
    return shape;
}

// The core rate of the efficiency (E3.7): the modelled step efficiency of the reference layout,
// on the reference's own GPU and node, is divided out, so that the reference's own layout
// reproduces its MFU.
Pace pace_for(const Workload& w, const TrainModel& m, const Gpu& gpu, const Efficiency& eff,
              double peak, const catalog::Catalog& catalog) {
    Pace pace{peak * eff.mfu, eff.source == EfficiencySource::user};
    if (eff.source == EfficiencySource::table && w.model.family == Family::transformer &&
        m.active >= k_large_transformer_params) {
        // The large-transformer cells come from runs on thousands of GPUs; the others from
        // one to eight GPUs, where the model's overheads are below 1 %.
        pace.flops_per_gpu /= k_table_reference_efficiency;
    } else if (!pace.end_to_end && eff.reference_gpus > 1) {
        const Gpu* measured =
            eff.reference != nullptr ? catalog::find_gpu(catalog, eff.reference->gpu) : nullptr;
        const Gpu& ref_gpu = measured != nullptr ? *measured : gpu;
        const NodeShape ref_node = reference_node(ref_gpu, eff.reference_gpus);
        if (auto ref = configure(w, m, ref_gpu, ref_node, eff.reference_gpus, pace)) {
            pace.flops_per_gpu /= std::max(ref->timing.scaling_efficiency, 1e-6);
        }
    }
    return pace;
}

// The stages of one run (E5.6): each stage's workload (its tokens, sequence length and batch on
// the shared model and settings), model and pace; one stage when the workload has none.
struct Run {
    const Workload* workload = nullptr; // the whole workload: data, constraints
    std::vector<Workload> stages;       // each stage's workload; empty: the workload is the one
    std::vector<TrainModel> models;
    std::vector<Pace> paces;

    // The workload of stage i (of the workload itself without stages).
    [[nodiscard]] const Workload& part(std::size_t i) const {
        return stages.empty() ? *workload : stages[i];
    }
    [[nodiscard]] std::size_t parts() const { return stages.empty() ? 1 : stages.size(); }
};

std::vector<Workload> stage_workloads(const Workload& w) {
    std::vector<Workload> out;
    for (const workload::Stage& stage : w.stages) {
        Workload part = w;
        part.stages.clear();
        part.data.tokens = stage.tokens;
        if (stage.seq_len) {
            part.model.seq_len = stage.seq_len;
        }
        if (stage.global_batch_tokens) {
            part.training.global_batch_tokens = stage.global_batch_tokens;
        }
        out.push_back(std::move(part));
    }
    return out;
}

// The stages run one after the other on the same GPUs, each in its own best layout: the run
// fits when every stage fits, needs the most memory any stage needs, and its training time is
// the sum; data loading, failures and restarts are those of the whole run (E5.6).
TrainConfig combine(const Run& run, const std::vector<TrainConfig>& parts, const NodeShape& node,
                    int gpus) {
    const auto longest = std::max_element(
        parts.begin(), parts.end(), [](const TrainConfig& a, const TrainConfig& b) {
            return a.timing.train_seconds < b.timing.train_seconds;
        });
    TrainConfig out = *longest;
    out.timing.train_seconds = out.timing.compute_seconds = out.timing.bubble_seconds =
        out.timing.comm_seconds = 0.0;
    for (const TrainConfig& part : parts) {
        out.fits = out.fits && part.fits;
        out.batch_kept = out.batch_kept && part.batch_kept;
        if (part.memory.total_gib() > out.memory.total_gib()) {
            out.memory = part.memory;
        }
        out.timing.train_seconds += part.timing.train_seconds;
        out.timing.compute_seconds += part.timing.compute_seconds;
        out.timing.bubble_seconds += part.timing.bubble_seconds;
        out.timing.comm_seconds += part.timing.comm_seconds;
        out.stages.push_back({part.layout, part.memory, part.fits, part.timing.train_seconds,
                              part.timing.step.micro});
    }
    finish_timing(out.timing, *run.workload, node, gpus,
                  run_failures(run.models.front(), node, gpus));
    if (out.timing.data.bound) {
        out.timing.bottleneck = Bottleneck::data_loading;
    } else if (out.timing.bottleneck == Bottleneck::data_loading) {
        out.timing.bottleneck = Bottleneck::compute;
    }
    return out;
}

std::optional<TrainConfig> configure_run(const Run& run, const Gpu& gpu, const NodeShape& node,
                                         int gpus) {
    if (run.models.size() == 1) {
        return configure(run.part(0), run.models.front(), gpu, node, gpus, run.paces.front());
    }
    std::vector<TrainConfig> parts;
    for (std::size_t i = 0; i < run.models.size(); ++i) {
        auto part = configure(run.part(i), run.models[i], gpu, node, gpus, run.paces[i]);
        if (!part) {
            return std::nullopt;
        }
        parts.push_back(std::move(*part));
    }
    return combine(run, parts, node, gpus);
}

struct Choice {
    int gpus = 0;
    TrainConfig config;
};

// The smallest count from `min_gpus` on that meets the deadline; without one, the count where
// more GPUs stop helping or only buy data-loading bandwidth (E5.2), with a scaling_limit note.
std::optional<Choice> choose_count(const Run& run, const Gpu& gpu, const NodeShape& node,
                                   const CandidateCounts& counts, int min_gpus,
                                   std::vector<std::string>& notes) {
    const Workload& w = *run.workload;
    std::optional<Choice> chosen;
    std::optional<std::string> limit; // why the first count skipped did not help
    for (int n : counts) {
        if (n < min_gpus) {
            continue;
        }
        auto config = configure_run(run, gpu, node, n);
        if (!config || !config->fits) {
            continue;
        }
        const double seconds = config->timing.wall_seconds;
        if (chosen && !still_helps(chosen->gpus, chosen->config.timing.wall_seconds, n, seconds)) {
            if (!limit) {
                limit = fmt::format("scaling_limit: {} GPUs would gain less than {:.0f} % of "
                                    "their share over {}; {} limits the run",
                                    n, k_min_marginal_scaling * 100.0, chosen->gpus,
                                    limiting_term(config->timing));
            }
            continue;
        }
        chosen = Choice{n, *config};
        limit.reset();
        if (!w.constraints.deadline_hours ||
            config->timing.deadline_seconds / k_seconds_per_hour <= *w.constraints.deadline_hours) {
            break;
        }
        const TrainTiming& t = config->timing;
        const double data = std::max(t.data.read_seconds, t.data.decode_seconds);
        if (t.data.bound && data >= t.train_seconds) {
            limit = fmt::format(
                "scaling_limit: data loading limits the run on {} GPUs ({:.1f} h of reads or "
                "decode against {:.1f} h of training); more GPUs would only buy I/O: cache the "
                "dataset in host RAM or on local NVMe, or use faster storage",
                n, data / k_seconds_per_hour, t.train_seconds / k_seconds_per_hour);
            break;
        }
    }
    if (limit) {
        notes.push_back(*limit);
    }
    return chosen;
}

// Nothing fits: the count needing the least memory per GPU (the smallest such).
std::optional<Choice> least_memory(const Run& run, const Gpu& gpu, const NodeShape& node,
                                   const CandidateCounts& counts) {
    std::optional<Choice> chosen;
    for (int n : counts) {
        auto config = configure_run(run, gpu, node, n);
        if (config && (!chosen || config->memory.total_gib() <
                                      chosen->config.memory.total_gib() - k_memory_tie_gib)) {
            chosen = Choice{n, *config};
        }
    }
    return chosen;
}

TrainingTime time_of(const TrainTiming& t) {
    TrainingTime out;
    out.compute_hours = t.compute_seconds / k_seconds_per_hour;
    out.bubble_hours = t.bubble_seconds / k_seconds_per_hour;
    out.communication_hours =
        std::max(0.0, t.train_seconds / k_seconds_per_hour - out.compute_hours - out.bubble_hours);
    out.data_loading_hours =
        std::max(t.data.read_seconds, t.data.decode_seconds) / k_seconds_per_hour;
    out.staging_hours = t.data.stage_seconds / k_seconds_per_hour;
    out.goodput_hours =
        std::max(0.0, (t.wall_seconds - t.failure_free_seconds) / k_seconds_per_hour);
    out.bubble_fraction = safe_div(t.step.bubble, t.step.compute);
    out.global_batch = t.step.global_batch;
    out.micro_batches = t.step.micro;
    out.virtual_stages = t.step.virtual_stages;
    out.data_cache = t.data.cache;
    return out;
}

GpuEstimate evaluate(const Workload& w, const GpuEstimate& base, const Choice& c) {
    const int gpn = base.node.gpus_per_node;
    GpuEstimate out = base;
    out.gpu_count = c.gpus;
    out.nodes = (c.gpus + gpn - 1) / gpn;
    out.fits = c.config.fits;
    out.tensor_parallel = c.config.layout.tensor;
    out.pipeline_parallel = c.config.layout.pipeline;
    out.model_parallel = c.config.layout.replica();
    out.context_parallel = c.config.layout.context;
    out.expert_parallel = c.config.layout.expert;
    out.sharding = std::string(workload::to_string(c.config.layout.sharding));
    out.data_parallel = std::max(1, c.gpus / c.config.layout.replica());
    out.memory = c.config.memory;
    out.memory_per_gpu_gib = c.config.memory.total_gib();
    out.wall_hours = c.config.timing.wall_seconds / k_seconds_per_hour;
    out.gpu_hours = out.wall_hours * c.gpus;
    out.scaling_efficiency = c.config.timing.scaling_efficiency;
    out.bottleneck = c.config.timing.bottleneck;
    out.time = time_of(c.config.timing);
    out.time.compute_gpu_hours = out.time.compute_hours * c.gpus;
    out.goodput = c.config.timing.goodput;
    out.meets_deadline = !w.constraints.deadline_hours ||
                         out.goodput->confidence_wall_hours <= *w.constraints.deadline_hours;
    return out;
}

// The mfu_end_to_end note (E3.1): the compute term FLOPs / (peak x MFU) exactly, and the terms
// reported apart from it.
std::string end_to_end_note(const GpuEstimate& e, double peak) {
    return fmt::format("mfu_end_to_end: training.mfu is end-to-end MFU; communication and pipeline "
                       "bubble are inside it, none is added. Compute {:.0f} GPU-hours = {:.4g} "
                       "FLOPs / ({:g} TFLOPS x {:g}); apart from it, goodput (failures, "
                       "checkpoints, restarts) adds {:.0f} GPU-hours and data loading {:.0f}",
                       e.time.compute_gpu_hours, e.total_flops, peak / 1e12, e.mfu,
                       e.time.goodput_hours * e.gpu_count,
                       (e.time.data_loading_hours + e.time.staging_hours) * e.gpu_count);
}

// Expected failures from which a run's goodput is worth a note (E9).
constexpr double k_goodput_note_failures = 1.0;

// The goodput note of a run that expects at least k_goodput_note_failures failures.
void goodput_note(const Goodput& g, std::vector<std::string>& notes) {
    if (g.expected_failures < k_goodput_note_failures) {
        return;
    }
    notes.push_back(fmt::format(
        "goodput: {:.1f} % ({:.0f} failures expected at one per {:.1f} h; a checkpoint every "
        "{:.0f} min, {:.0f} s to write, {:.0f} min to restart); P90 wall {:.1f} h against {:.1f} h "
        "expected and {:.1f} h without failures",
        g.fraction() * 100.0, g.expected_failures, 1.0 / g.failure_rate_per_hour,
        g.checkpoint_interval_hours * 60.0, g.checkpoint_hours * k_seconds_per_hour,
        g.restart_hours * 60.0, g.p90_wall_hours, g.expected_wall_hours,
        g.failure_free_wall_hours));
}

// The notes every training estimate ends with: memory, deadline, unknown network.
void closing_notes(const Workload& w, const Gpu& gpu, const NodeShape& node, GpuEstimate& out) {
    if (out.goodput) {
        goodput_note(*out.goodput, out.notes);
    }
    if (!out.fits) {
        out.notes.push_back(
            does_not_fit(out.memory, fmt::format("on {} GPU(s)", out.gpu_count), gpu));
    }
    if (!out.meets_deadline) {
        out.notes.push_back(fmt::format(
            "deadline_missed: {:.1f} h on {} GPU(s) at P{:g} (failures included) exceeds the {:g} "
            "h "
            "deadline",
            out.goodput ? out.goodput->confidence_wall_hours : out.wall_hours, out.gpu_count,
            w.constraints.deadline_confidence * 100.0, *w.constraints.deadline_hours));
    }
    if (!node.network_gbps && out.nodes > 1) {
        out.notes.push_back(fmt::format("network_bandwidth_unknown: node network assumed {:g} Gbps",
                                        k_default_network_gbps));
    }
}

} // namespace

// The stages' estimates and the note that lists them (E5.6).
void stage_estimates(const Workload& w, const Run& run, const TrainConfig& config,
                     GpuEstimate& out) {
    std::string listed;
    for (std::size_t i = 0; i < config.stages.size() && i < w.stages.size(); ++i) {
        const StagePart& part = config.stages[i];
        StageEstimate stage;
        stage.name = w.stages[i].name;
        stage.tokens = w.stages[i].tokens;
        stage.seq_len = run.models[i].shape.seq_len;
        stage.train_hours = part.train_seconds / k_seconds_per_hour;
        stage.fits = part.fits;
        stage.memory_per_gpu_gib = part.memory.total_gib();
        stage.tensor_parallel = part.layout.tensor;
        stage.pipeline_parallel = part.layout.pipeline;
        stage.context_parallel = part.layout.context;
        stage.expert_parallel = part.layout.expert;
        stage.data_parallel = std::max(1, out.gpu_count / part.layout.replica());
        stage.sharding = std::string(workload::to_string(part.layout.sharding));
        stage.micro_batches = part.micro;
        listed += fmt::format(
            "{}{} {:g}B tokens at {:g}: {:.1f} h on t{} pp{}{}{} d{} {}",
            listed.empty() ? "" : "; ", stage.name, stage.tokens / 1e9, stage.seq_len,
            stage.train_hours, stage.tensor_parallel, stage.pipeline_parallel,
            stage.context_parallel > 1 ? fmt::format(" cp{}", stage.context_parallel) : "",
            stage.expert_parallel > 1 ? fmt::format(" ep{}", stage.expert_parallel) : "",
            stage.data_parallel, stage.sharding);
        out.stages.push_back(std::move(stage));
    }
    if (!listed.empty()) {
        out.notes.push_back("stages: " + listed + " (training time without failures)");
    }
}

GpuEstimate estimate_training(const Workload& w, const Gpu& gpu, const NodeShape& node,
                              std::optional<int> requested, const catalog::Catalog& catalog) {
    GpuEstimate e = start_estimate(gpu, node, w.training.precision);
    Run run{&w, stage_workloads(w), {}, {}};
    std::vector<std::string> repeated; // the later stages' model notes repeat the first's
    for (std::size_t i = 0; i < run.parts(); ++i) {
        run.models.push_back(
            train_model(run.part(i), e.precision, run.models.empty() ? e.notes : repeated));
        e.total_flops += run.models.back().total_flops;
    }
    const TrainModel& m = run.models.front();
    e.flops_convention = m.flops_convention;
    e.checkpoint_gb = m.checkpoint_bytes / k_bytes_per_gb;
    const double peak = peak_flops(gpu, e.precision);
    if (peak <= 0.0) {
        return no_peak(e, gpu);
    }
    const double factor = method_factor(w);
    const Efficiency eff = efficiency(
        run.part(0), gpu, e.precision, table_mfu(w, gpu, e.precision) * factor, m.flops_per_unit,
        catalog, [&](const Gpu& other, Precision p) { return table_mfu(w, other, p) * factor; });
    e.mfu = eff.mfu;
    e.from_benchmark = eff.from_benchmark;
    if (!eff.note.empty()) {
        e.notes.push_back(eff.note);
    }
    for (std::size_t i = 0; i < run.models.size(); ++i) {
        run.paces.push_back(pace_for(run.part(i), run.models[i], gpu, eff, peak, catalog));
    }
    const int cap = w.constraints.max_gpus.value_or(workload::k_default_max_gpus);
    const CandidateCounts counts(e.node.gpus_per_node, cap);
    for (int n : counts) {
        auto config = configure_run(run, gpu, e.node, n);
        if (config && config->fits) {
            e.min_gpus = n;
            break;
        }
    }
    std::optional<Choice> chosen;
    if (requested || w.constraints.gpu_count) {
        const int n = requested ? *requested : *w.constraints.gpu_count;
        if (auto config = configure_run(run, gpu, e.node, n)) {
            chosen = Choice{n, *config};
        }
    } else if (e.min_gpus > 0) {
        chosen = choose_count(run, gpu, e.node, counts, e.min_gpus, e.notes);
    } else {
        chosen = least_memory(run, gpu, e.node, counts);
    }
    if (!chosen) {
        // No layout exists at this count (e.g. fewer GPUs than one tensor group): plain DP.
        const int n = requested ? *requested : w.constraints.gpu_count.value_or(1);
        const Workload& first = run.part(0);
        TrainConfig config{Layout{}, false, training_memory(first, m, Layout{}, n), {}, true, {}};
        config.fits = fits_in(config.memory, gpu);
        config.timing = train_timing(first, m, gpu, e.node, n, Layout{}, run.paces.front(),
                                     run_failures(m, e.node, n));
        chosen = Choice{n, config};
    }
    GpuEstimate out = evaluate(w, e, *chosen);
    if (eff.source == EfficiencySource::user) {
        out.notes.push_back(end_to_end_note(out, peak));
    }
    stage_estimates(w, run, chosen->config, out);
    // The speed while running: failures and restarts are in the wall time, not the throughput.
    double work = 0.0; // real tokens or samples: the padding is no throughput
    for (const TrainModel& model : run.models) {
        work += model.real_work;
    }
    const double work_per_second = safe_div(work, chosen->config.timing.failure_free_seconds);
    out.throughput.samples_per_second = work_per_second;
    out.throughput.tokens_per_second =
        w.model.family == Family::transformer ? work_per_second : 0.0;
    if (!chosen->config.batch_kept) {
        out.notes.push_back(fmt::format("global_batch_raised: {} replicas of one {:g}-token "
                                        "micro-batch exceed the global batch "
                                        "of {:g} tokens; the step holds {:g}",
                                        out.data_parallel, m.work_per_micro, m.global_batch,
                                        out.time.global_batch));
    }
    closing_notes(w, gpu, node, out);
    return out;
}

} // namespace gpuplan::estimate::detail

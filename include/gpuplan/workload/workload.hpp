#pragma once
// The workload: what job to plan (docs/workload-format.md). Every field has a documented
// default; optional fields are nullopt when the user gave nothing and no default applies.

#include "gpuplan/catalog/catalog.hpp"
#include "gpuplan/purchase.hpp"
#include "gpuplan/units.hpp"
#include "gpuplan/workload/calibration.hpp"

#include <optional>
#include <string>
#include <vector>

namespace gpuplan::workload {

using catalog::Precision;

enum class Task { train, finetune, inference };
enum class Family { transformer, cnn, custom };
// adamw_8bit: AdamW with block-wise 8-bit moments (bitsandbytes, E4.1).
enum class Optimizer { adamw, sgd, adafactor, adamw_8bit };
enum class Method { full, lora, qlora };
enum class Sharding { none, zero1, zero2, zero3 };
// Activation recomputation (E4.3): none, Korthikanti's selective (attention core), or full
// (only each layer's input kept).
enum class Recompute { none, selective, full };
// ZeRO-Offload (E4.8): optimizer states and fp32 master weights in host RAM, updated by the CPU.
enum class Offload { none, optimizer };
// How a server batches requests (docs/methodology.md E7): continuous (in-flight) batching admits
// requests every decode step; static batching runs fixed batches to completion.
enum class Batching { continuous, static_batch };
// The serving engine (docs/methodology.md E7.3): generic is the model as fitted (gpt-fast and
// TensorRT-LLM rows); the others scale its prefill and decode times by a published comparison.
enum class Engine { generic, vllm, sglang, tensorrt_llm, tgi };

[[nodiscard]] std::string_view to_string(Task value);
[[nodiscard]] std::string_view to_string(Family value);
[[nodiscard]] std::string_view to_string(Optimizer value);
[[nodiscard]] std::string_view to_string(Method value);
[[nodiscard]] std::string_view to_string(Sharding value);
[[nodiscard]] std::string_view to_string(Recompute value);
[[nodiscard]] std::string_view to_string(Offload value);
// "continuous" or "static".
[[nodiscard]] std::string_view to_string(Batching value);
// "generic", "vllm", "sglang", "tensorrt-llm" or "tgi".
[[nodiscard]] std::string_view to_string(Engine value);
// The engine a name states: the names to_string writes and the spellings benchmark tools and runs
// files use (`trtllm`, `tensorrt_llm`, `trt-llm`, `text-generation-inference`), in any case;
// nullopt for another engine (a training framework, llama.cpp, ...).
[[nodiscard]] std::optional<Engine> parse_engine(std::string_view text);
[[nodiscard]] std::optional<Task> parse_task(std::string_view text);
[[nodiscard]] std::optional<Family> parse_family(std::string_view text);
[[nodiscard]] std::optional<Optimizer> parse_optimizer(std::string_view text);
[[nodiscard]] std::optional<Method> parse_method(std::string_view text);
// Accepts `fsdp` as `zero3`.
[[nodiscard]] std::optional<Sharding> parse_sharding(std::string_view text);

struct Model {
    Family family = Family::transformer;
    double params = 0.0;                 // total parameters
    std::optional<double> active_params; // MoE: used per token (default: params)
    std::optional<int> layers;
    std::optional<int> hidden;
    std::optional<int> heads;
    std::optional<int> kv_heads; // default: heads
    std::optional<int> head_dim; // width of one attention head; default: hidden / heads
    std::optional<int> seq_len;
    std::optional<double> flops_per_sample; // cnn/custom: forward FLOPs per sample
    std::optional<int> experts;             // MoE: routed experts per MoE layer
    std::optional<int> experts_per_token;   // MoE: routed experts each token uses (top-k)
    std::string reference;                  // benchmarks.yaml model name, may be empty

    bool operator==(const Model&) const = default;
};

struct Data {
    std::optional<double> tokens;  // transformer: total training tokens, all epochs
    std::optional<double> samples; // cnn/custom: samples per epoch
    double epochs = 1.0;
    std::optional<double> dataset_gb;
    // CPU decode and augmentation rate per vCPU (samples/s); nullopt = not modelled.
    std::optional<double> decode_samples_per_second_per_vcpu;
    // Transformer: mean real tokens per sequence (nullopt = model.seq_len), and whether short
    // sequences are packed into full windows (no padding computed) or padded (E2.6).
    std::optional<double> mean_seq_len;
    bool packing = true;

    bool operator==(const Data&) const = default;
};

struct Training {
    Precision precision = Precision::bf16;
    Optimizer optimizer = Optimizer::adamw;
    Method method = Method::full;
    std::optional<Sharding> sharding; // pinned ZeRO stage; nullopt = searched (E5.1)
    int micro_batch = 1;
    Recompute recompute = Recompute::none;
    bool fp32_gradients = false; // gradients kept and reduced in fp32 (E4.1)
    Offload offload = Offload::none;
    std::optional<double> mfu; // end-to-end MFU; overrides the efficiency model
    // Tokens per optimizer step (transformer); nullopt = the default by model size (E5.4).
    std::optional<double> global_batch_tokens;
    std::optional<int> tensor_parallel;   // pinned degree; nullopt = searched
    std::optional<int> pipeline_parallel; // pinned degree; nullopt = searched
    std::optional<int> context_parallel;  // pinned degree; nullopt = searched (E5.1)
    std::optional<int> expert_parallel;   // MoE: pinned degree; nullopt = searched (E5.1)
    bool flash_attention = true;          // attention scores are not stored (E4.3)

    bool operator==(const Training&) const = default;
};

// Hours in a typical week, Monday 00:00 first (docs/workload-format.md `inference.load`).
inline constexpr int k_hours_per_week = 168;
inline constexpr int k_hours_per_load_day = 24;

// A service's request rate over a typical week (docs/workload-format.md `inference.load`):
// `hourly` holds 168 multipliers of requests_per_second (Monday 00:00 first; the largest is 1,
// so requests_per_second is the peak), built from weekday/weekend, week or a CSV file.
struct Load {
    std::vector<double> weekday;   // as written: 24 multipliers, or empty
    std::vector<double> weekend;   // as written: 24 multipliers, or empty (= weekday)
    std::string csv;               // as written: the CSV file of hourly requests/s, or empty
    std::vector<double> hourly;    // 168 multipliers of the peak, whatever the form
    double growth_per_month = 0.0; // relative growth of every hour's rate per month

    bool operator==(const Load&) const = default;
};

// How the service scales (docs/workload-format.md `inference.autoscaling`).
struct Autoscaling {
    int min_replicas = 0;               // replicas kept warm in every hour
    bool scale_to_zero = false;         // hours without requests may hold no replica
    std::optional<double> cold_start_s; // override of the derived cold start, seconds
    double headroom = 0.0;              // extra capacity over the hour's sized rate, a fraction
    int granularity = 1;                // replicas are added and removed in steps of this many

    bool operator==(const Autoscaling&) const = default;
};

struct Inference {
    Precision precision = Precision::fp16;
    double requests_per_second = 1.0;
    double input_tokens = 512.0;
    double output_tokens = 256.0;
    int batch = 1;                    // static batching: the largest batch tried
    std::optional<double> latency_ms; // target time of a whole request, at `percentile`
    double hours_per_day = 24.0;
    Batching batching = Batching::continuous;
    Engine engine = Engine::generic;
    std::optional<int> max_batch;       // continuous: most requests in flight; nullopt = default
    std::optional<int> tensor_parallel; // pinned degree; nullopt = searched
    std::optional<double> ttft_ms;      // target time to first token, at `percentile`
    std::optional<double> tpot_ms;      // target time per output token, at `percentile`
    int percentile = 50;                // 50 or 90: the percentile the targets hold at
    std::optional<double> input_tokens_p90;  // 90th-percentile prompt length; nullopt = the mean
    std::optional<double> output_tokens_p90; // 90th-percentile output length; nullopt = the mean
    std::optional<Load> load;                // nullopt: a flat rate, hours_per_day a day
    std::optional<Autoscaling> autoscaling;  // nullopt: the defaults (with a load)

    bool operator==(const Inference&) const = default;
};

struct Schedule {
    int runs = 1;              // how many times the job runs within the horizon
    double every_months = 1.0; // spacing of repeated runs

    bool operator==(const Schedule&) const = default;
};

// GPUs per run or inference fleet when constraints.max_gpus is not given (docs/workload-format.md).
inline constexpr int k_default_max_gpus = 1024;

struct Constraints {
    std::optional<double> deadline_hours;
    // Probability that a training run finishes by the deadline, failures included (E9).
    double deadline_confidence = 0.9;
    std::optional<Money> budget;
    std::vector<std::string> providers;
    std::vector<std::string> regions;
    std::vector<std::string> gpu_models;
    std::optional<int> gpu_count; // run on exactly this many GPUs
    std::optional<int> max_gpus;  // nullopt = k_default_max_gpus
    bool interruptible = false;
    std::vector<PurchaseOption> purchase; // empty = all five

    bool operator==(const Constraints&) const = default;
};

struct Finance {
    double discount_rate = 0.10; // annual
    std::string currency = "USD";

    bool operator==(const Finance&) const = default;
};

struct Reference {
    std::string title;
    std::string url;

    bool operator==(const Reference&) const = default;
};

// One stage of a multi-stage training run (docs/workload-format.md `stages`): its own tokens,
// sequence length and global batch, run one after the other on the same GPUs.
struct Stage {
    std::string name;
    double tokens = 0.0;
    std::optional<int> seq_len;                // nullopt = model.seq_len
    std::optional<double> global_batch_tokens; // nullopt = training.global_batch_tokens

    bool operator==(const Stage&) const = default;
};

// A range of a factor, low to high (uniformly drawn).
struct FactorRange {
    double low = 1.0;
    double high = 1.0;

    bool operator==(const FactorRange&) const = default;
};

// How uncertain the inputs are, overriding the defaults of the decision-confidence Monte Carlo
// (docs/methodology.md C14; `recommend --uncertainty`).
struct Uncertainty {
    std::optional<double> estimate_error;   // median relative error of the estimator
    std::optional<double> price_error;      // median relative error of a dated list price
    std::optional<double> spot_rate_factor; // a sourced spot rate is within / and x this
    std::optional<FactorRange> utilisation; // share of the planned work that happens
    std::optional<FactorRange> demand;      // inference: factor on requests_per_second

    bool operator==(const Uncertainty&) const = default;
};

struct Workload {
    std::string name;
    std::string description;
    Task task = Task::train;
    Model model;
    Data data;
    Training training;
    Inference inference;
    Schedule schedule;
    double horizon_months = 36.0;
    Constraints constraints;
    Finance finance;
    std::vector<Reference> sources;
    std::vector<Stage> stages; // empty: one stage of data.tokens at model.seq_len
    Uncertainty uncertainty;
    // Speed factors from `--calibration FILE` (never read from the workload file); empty = the
    // default estimate.
    Calibration calibration;

    bool operator==(const Workload&) const = default;
};

} // namespace gpuplan::workload

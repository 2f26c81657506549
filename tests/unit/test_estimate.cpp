// Estimator formulas against hand-computed values (docs/methodology.md, "Estimator").

#include "estimate/constants.hpp"
#include "estimate/serving.hpp"
#include "gpuplan/catalog/loader.hpp"
#include "gpuplan/embedded.hpp"
#include "gpuplan/error.hpp"
#include "gpuplan/estimate/estimate.hpp"
#include "gpuplan/workload/reader.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <fstream>
#include <sstream>

using namespace gpuplan;
using namespace gpuplan::estimate;
using workload::Workload;

namespace {

constexpr double k_gib = 1024.0 * 1024.0 * 1024.0;

catalog::Catalog fixture_catalog() {
    std::ifstream in(std::string(GPUPLAN_SOURCE_DIR) + "/tests/fixtures/catalog/minimal.yaml");
    std::ostringstream text;
    text << in.rdbuf();
    std::vector<TextFile> files{{"minimal.yaml", text.str()}};
    return catalog::load_catalog(files);
}

const catalog::Catalog& a100_catalog() {
    static const catalog::Catalog catalog = fixture_catalog();
    return catalog;
}

const catalog::Gpu& a100() {
    return a100_catalog().gpus.at(0);
}

// A V100-like GPU without bf16, for the precision rules.
catalog::Gpu v100() {
    catalog::Gpu gpu = a100();
    gpu.name = "V100";
    gpu.architecture = catalog::Architecture::volta;
    gpu.memory_gib = 16.0;
    gpu.memory_bandwidth_gb_per_s = 900.0;
    gpu.tflops = {};
    gpu.tflops[static_cast<std::size_t>(catalog::Precision::fp32)] = 15.7;
    gpu.tflops[static_cast<std::size_t>(catalog::Precision::fp16)] = 125.0;
    return gpu;
}

Workload train_workload(double params, double tokens) {
    Workload w;
    w.model.params = params;
    w.data.tokens = tokens;
    return w;
}

NodeShape nvlink_node() {
    return NodeShape{8, true, std::nullopt, std::nullopt, std::nullopt, 0};
}

bool finite(const GpuEstimate& e) {
    const double values[] = {e.memory_per_gpu_gib,
                             e.total_flops,
                             e.gpu_hours,
                             e.wall_hours,
                             e.mfu,
                             e.scaling_efficiency,
                             e.checkpoint_gb,
                             e.throughput.samples_per_second,
                             e.throughput.tokens_per_second,
                             e.throughput.decode_tokens_per_second.value_or(0.0),
                             e.throughput.prefill_tokens_per_second.value_or(0.0),
                             e.throughput.requests_per_second_capacity.value_or(0.0),
                             e.memory.total_gib()};
    for (double v : values) {
        if (!std::isfinite(v) || v < 0.0) {
            return false;
        }
    }
    return true;
}

// A benchmark of `model` measured on the fixture's A100-80GB.
constexpr const char* k_inference = "inference_samples_per_second_per_gpu";

catalog::Benchmark a100_benchmark(const std::string& model, catalog::Precision precision,
                                  const std::string& metric, double value, int gpus) {
    return catalog::Benchmark{model,
                              "A100-80GB",
                              precision,
                              metric,
                              value,
                              gpus,
                              {},
                              Date{2026, 1, 1},
                              metric == k_inference ? 1 : 0};
}

} // namespace

TEST_CASE("transformer training FLOPs are 6 N D plus the attention term 12 L h s D", "[estimate]") {
    Workload w = train_workload(6.738e9, 2e12);
    w.model.layers = 32;
    w.model.hidden = 4096;
    w.model.heads = 32;
    w.model.seq_len = 4096;
    const GpuEstimate e = estimate::estimate(w, a100(), nvlink_node(), 8, a100_catalog());
    // c_tok = 6 * 6.738e9 + 12 * 32 * 4096 * 4096 = 4.0428e10 + 6.4425e9 = 4.68705e10 per token.
    CHECK(e.total_flops == Approx(4.68705e10 * 2e12).epsilon(1e-5));
    // Without the shape only 6 N D is counted.
    const GpuEstimate plain =
        estimate::estimate(train_workload(6.738e9, 2e12), a100(), nvlink_node(), 8, a100_catalog());
    CHECK(plain.total_flops == Approx(6.0 * 6.738e9 * 2e12));
}

// ResNet-50 on ImageNet-1k for 90 epochs.
Workload resnet50() {
    Workload w;
    w.model.family = workload::Family::cnn;
    w.model.params = 25.6e6;
    w.model.flops_per_sample = 8.18e9;
    w.data.samples = 1281167;
    w.data.epochs = 90;
    return w;
}

TEST_CASE("cnn training FLOPs are 3 F samples epochs", "[estimate]") {
    const Workload w = resnet50();
    const GpuEstimate e = estimate::estimate(w, a100(), nvlink_node(), 1, a100_catalog());
    CHECK(e.total_flops == Approx(3.0 * 8.18e9 * 1281167 * 90));
    // Ampere cnn default 0.20 (E3.2): 2.8296e18 / (312e12 * 0.20) s = 12.595 h.
    CHECK(e.mfu == Approx(0.20));
    CHECK(e.wall_hours == Approx(2.82963e18 / (312e12 * 0.20) / 3600.0).epsilon(1e-4));
}

TEST_CASE("wall time on 8 GPUs is compute plus the exposed part of a ring all-reduce",
          "[estimate]") {
    Workload w = train_workload(1e9, 1e12);
    const GpuEstimate e = estimate::estimate(w, a100(), nvlink_node(), 8, a100_catalog());
    // Table MFU 0.45 (Ampere, >= 1e9 parameters), divided by the table's reference efficiency.
    const double mfu = 0.45 / estimate::detail::k_table_reference_efficiency;
    // Global batch 4,194,304 tokens = 2,048 micro-batches of 2,048 tokens (no seq_len given) over
    // 8 ranks: 256 each.
    // All-reduce of 2e9 gradient bytes over NVLink at 300 GB/s per direction * 0.8:
    // 2 * 7/8 * 2e9 / 240e9 = 0.0145833 s, hidden but for 20 %.
    const double steps = 1e12 / 4194304.0;
    const double step_compute = 6e9 * 4194304.0 / (8 * 312e12 * mfu);
    const double comm = 2.0 * 7.0 / 8.0 * 2e9 / (300e9 * 0.8);
    CHECK(e.mfu == Approx(0.45));
    CHECK(e.goodput->failure_free_wall_hours ==
          Approx(steps * (step_compute + 0.2 * comm) / 3600.0).epsilon(1e-9));
    CHECK(e.gpu_hours == Approx(e.wall_hours * 8));
    CHECK(e.scaling_efficiency == Approx(step_compute / (step_compute + 0.2 * comm)));
    CHECK(e.time.communication_hours == Approx(steps * 0.2 * comm / 3600.0));
    CHECK(e.time.micro_batches == 256);
    CHECK(e.bottleneck == Bottleneck::compute);
    CHECK(e.nodes == 1);
    CHECK(e.data_parallel == 8);
}

TEST_CASE("training.mfu is end-to-end: the time is FLOPs / (GPUs x peak x MFU), nothing added",
          "[estimate]") {
    // Llama 2 7B, 2T tokens, --mfu 0.40 on 2,048 A100-80GB: 6ND / (312 TFLOPS x 0.40) GPU-hours.
    Workload w = train_workload(6.738e9, 2e12);
    w.training.mfu = 0.40;
    w.training.sharding = workload::Sharding::zero3;
    const GpuEstimate e = estimate::estimate(w, a100(), nvlink_node(), 2048, a100_catalog());
    CHECK(e.goodput->failure_free_wall_hours * e.gpu_count ==
          Approx(6.0 * 6.738e9 * 2e12 / (312e12 * 0.40) / 3600.0).epsilon(1e-12));
    CHECK(e.goodput->failure_free_wall_hours * e.gpu_count == Approx(179967.9).epsilon(1e-6));
    // The expected GPU-hours add only the goodput term (E9).
    CHECK(e.gpu_hours == Approx(e.goodput->expected_wall_hours * e.gpu_count));
    // The compute term is reported apart, exactly; goodput apart from it.
    CHECK(e.time.compute_gpu_hours ==
          Approx(6.0 * 6.738e9 * 2e12 / (312e12 * 0.40) / 3600.0).epsilon(1e-12));
    CHECK(e.time.goodput_hours ==
          Approx(e.goodput->expected_wall_hours - e.goodput->failure_free_wall_hours));
    CHECK(e.time.goodput_hours > 0.0);
    CHECK(e.scaling_efficiency == 1.0);
    CHECK(e.time.communication_hours == 0.0);
    CHECK(e.flops_convention == "6N per token (6ND)");
}

TEST_CASE("memory per GPU follows the model-state, activation and ZeRO formulas", "[estimate]") {
    Workload w = train_workload(1e9, 1e12);
    w.model.layers = 24;
    w.model.hidden = 2048;
    w.model.heads = 16;
    w.model.seq_len = 2048;
    const GpuEstimate e = estimate::estimate(w, a100(), nvlink_node(), 1, a100_catalog());
    // AdamW mixed precision: 2 + 2 + 12 bytes per parameter.
    CHECK(e.memory.weights_gib == Approx(2e9 / k_gib));
    CHECK(e.memory.gradients_gib == Approx(2e9 / k_gib));
    CHECK(e.memory.optimizer_gib == Approx(12e9 / k_gib));
    // FlashAttention keeps no attention scores: s b h 34 per layer = 2048 * 2048 * 34 * 24 bytes.
    CHECK(e.memory.activations_gib == Approx(2048.0 * 2048.0 * 34.0 * 24.0 / k_gib));
    CHECK(e.memory.overhead_gib == 1.5);
    // 1.8626 + 1.8626 + 11.1759 + 3.1875 + 1.5 GiB.
    CHECK(e.memory_per_gpu_gib == Approx(19.5887).epsilon(1e-4));
    // Without it, Korthikanti's s b h (34 + 5 a s / h) = 2048 * 2048 * (34 + 80) * 24 bytes.
    Workload stored = w;
    stored.training.flash_attention = false;
    const GpuEstimate s = estimate::estimate(stored, a100(), nvlink_node(), 1, a100_catalog());
    CHECK(s.memory.activations_gib == Approx(2048.0 * 2048.0 * 114.0 * 24.0 / k_gib));
    CHECK(e.fits);
    CHECK(e.checkpoint_gb == Approx(14.0));

    w.training.recompute = workload::Recompute::full;
    w.training.sharding = workload::Sharding::zero3;
    const GpuEstimate z = estimate::estimate(w, a100(), nvlink_node(), 8, a100_catalog());
    // ZeRO-3 over 8: weights / 8 plus two gathered layers of 2e9 / 24 bytes each.
    CHECK(z.memory.weights_gib == Approx((2e9 / 8 + 2 * 2e9 / 24) / k_gib));
    CHECK(z.memory.gradients_gib == Approx(2e9 / 8 / k_gib));
    CHECK(z.memory.optimizer_gib == Approx(12e9 / 8 / k_gib));
    // Checkpointing keeps 2 s b h per layer plus one full layer.
    CHECK(z.memory.activations_gib == Approx(2048.0 * 2048.0 * (2.0 * 24 + 34.0) / k_gib));
}

TEST_CASE("the minimum GPU count is the first count whose memory fits 90 % of the GPU",
          "[estimate]") {
    // 7B full fine-tuning without sharding needs 16 bytes per parameter: 112 GB do not fit an
    // 80 GiB GPU; two model-parallel GPUs halve the model states. Pipeline parallelism wins over
    // tensor parallelism: its bubble (1 / 2048 micro-batches) costs less than TP all-reduces.
    Workload w = train_workload(7e9, 1e9);
    w.task = workload::Task::finetune;
    w.model.layers = 32;
    w.model.hidden = 4096;
    w.model.heads = 32;
    w.model.seq_len = 2048;
    w.training.recompute = workload::Recompute::full;
    w.training.sharding = workload::Sharding::none;
    const GpuEstimate e =
        estimate::estimate(w, a100(), nvlink_node(), std::nullopt, a100_catalog());
    CHECK(e.min_gpus == 2);
    CHECK(e.gpu_count == 2);
    CHECK(e.model_parallel == 2);
    CHECK(e.pipeline_parallel == 2);
    CHECK(e.fits);
    CHECK(e.memory_per_gpu_gib <= 0.9 * 80.0);
}

TEST_CASE("a deadline raises the GPU count to whole nodes", "[estimate]") {
    Workload w = train_workload(1e9, 1e12);
    w.training.mfu = 0.5;
    // One node takes 1,335.7 h (above); 500 h needs three nodes.
    w.constraints.deadline_hours = 500.0;
    const GpuEstimate e =
        estimate::estimate(w, a100(), nvlink_node(), std::nullopt, a100_catalog());
    CHECK(e.gpu_count == 24);
    CHECK(e.nodes == 3);
    CHECK(e.meets_deadline);
    w.constraints.max_gpus = 16;
    const GpuEstimate capped =
        estimate::estimate(w, a100(), nvlink_node(), std::nullopt, a100_catalog());
    CHECK(capped.gpu_count == 16);
    CHECK_FALSE(capped.meets_deadline);
    CHECK(std::any_of(capped.notes.begin(), capped.notes.end(), [](const std::string& note) {
        return note.rfind("deadline_missed:", 0) == 0;
    }));
}

TEST_CASE("precision falls back per GPU with a note", "[estimate]") {
    Workload w = train_workload(1e8, 1e9);
    const GpuEstimate e = estimate::estimate(w, v100(), nvlink_node(), 1, a100_catalog());
    CHECK(e.precision == catalog::Precision::fp16);
    CHECK(e.notes.at(0) == "precision_fallback: bf16 is not supported on V100 (volta); using fp16");
    // Small transformer on Volta: MFU 0.30.
    CHECK(e.mfu == Approx(0.30));
    w.training.precision = catalog::Precision::fp8;
    const GpuEstimate a = estimate::estimate(w, a100(), nvlink_node(), 1, a100_catalog());
    CHECK(a.precision == catalog::Precision::bf16);
}

TEST_CASE("an fp8 workload on a shipped GPU without fp8 falls back, or is not estimated",
          "[estimate]") {
    const catalog::Catalog& catalog = embedded::catalog();
    auto shipped = [&](std::string_view name) {
        const catalog::Gpu* gpu = catalog::find_gpu(catalog, name);
        REQUIRE(gpu != nullptr);
        return *gpu;
    };
    Workload w = train_workload(1e8, 1e9);
    w.training.precision = catalog::Precision::fp8;
    const NodeShape pcie{8, false, std::nullopt, std::nullopt, std::nullopt, 0};
    // Ampere has bf16 but no fp8.
    const GpuEstimate ampere = estimate::estimate(w, shipped("A100-80GB-PCIe"), pcie, 1, catalog);
    CHECK(ampere.precision == catalog::Precision::bf16);
    CHECK(ampere.fits);
    CHECK(ampere.notes.at(0) == "precision_fallback: fp8 is not supported on A100-80GB-PCIe "
                                "(ampere); using bf16");
    // The RTX 3090 has neither fp8 nor a bf16 figure: fp16 with FP32 accumulate.
    const GpuEstimate geforce = estimate::estimate(w, shipped("RTX3090"), pcie, 1, catalog);
    CHECK(geforce.precision == catalog::Precision::fp16);
    CHECK(geforce.notes.at(0) ==
          "precision_fallback: fp8 is not supported on RTX3090 (ampere); using fp16");
    // Hopper PCIe keeps fp8; AMD's cdna3 too.
    CHECK(estimate::estimate(w, shipped("H100-PCIe"), pcie, 1, catalog).precision ==
          catalog::Precision::fp8);
    CHECK(estimate::estimate(w, shipped("MI300X"), pcie, 1, catalog).precision ==
          catalog::Precision::fp8);
    // A GPU with no peak at the resolved precision is reported, never guessed.
    catalog::Gpu fp32_only = shipped("RTX3090");
    fp32_only.tflops = {};
    fp32_only.tflops[static_cast<std::size_t>(catalog::Precision::fp32)] = 35.7;
    const GpuEstimate none = estimate::estimate(w, fp32_only, pcie, 1, catalog);
    CHECK_FALSE(none.fits);
    CHECK(std::any_of(none.notes.begin(), none.notes.end(), [](const std::string& note) {
        return note == "no_peak_flops: the catalog has no fp16 peak for RTX3090; not estimated";
    }));
}

TEST_CASE("LoRA trains 8 r h L adapter parameters at 0.88 of the MFU", "[estimate]") {
    Workload w = train_workload(6.738e9, 1e9);
    w.task = workload::Task::finetune;
    w.training.method = workload::Method::lora;
    w.model.layers = 32;
    w.model.hidden = 4096;
    w.model.heads = 32;
    w.model.seq_len = 4096;
    const GpuEstimate e = estimate::estimate(w, a100(), nvlink_node(), 1, a100_catalog());
    const double adapters = 8.0 * 16 * 4096 * 32; // 16,777,216
    CHECK(e.mfu == Approx(0.45 * 0.88));
    CHECK(e.total_flops ==
          Approx((4.0 * 6.738e9 + 6.0 * adapters + 12.0 * 32 * 4096 * 4096) * 1e9));
    CHECK(e.memory.weights_gib == Approx((6.738e9 * 2 + adapters * 4) / k_gib));
    CHECK(e.memory.optimizer_gib == Approx(adapters * 8 / k_gib));
    CHECK(e.checkpoint_gb == Approx(adapters * 12 / 1e9));
    w.training.method = workload::Method::qlora;
    const GpuEstimate q = estimate::estimate(w, a100(), nvlink_node(), 1, a100_catalog());
    CHECK(q.mfu == Approx(0.45 * 0.88 / 1.4));
    CHECK(q.memory.weights_gib == Approx((6.738e9 * 0.516 + adapters * 4) / k_gib));
}

TEST_CASE("decode speed is memory bandwidth times efficiency over the weight bytes", "[estimate]") {
    Workload w;
    w.task = workload::Task::inference;
    w.model.params = 6.738e9;
    w.inference.batching = workload::Batching::static_batch;
    w.inference.requests_per_second = 1.0;
    w.inference.input_tokens = 0.0;
    w.inference.output_tokens = 256.0;
    const GpuEstimate e =
        estimate::estimate(w, a100(), nvlink_node(), std::nullopt, a100_catalog());
    // gpt-fast comparison (methodology row 16): 2039e9 * 0.68 / (6.738e9 * 2) = 102.89 tokens/s.
    REQUIRE(e.throughput.decode_tokens_per_second);
    CHECK(*e.throughput.decode_tokens_per_second == Approx(2039e9 * 0.68 / (6.738e9 * 2)));
    CHECK(e.bottleneck == Bottleneck::memory_bandwidth);
    // One request takes 256 / 102.89 = 2.488 s, so one replica serves 0.402 requests/s: 3 GPUs.
    CHECK(e.gpu_count == 3);
    CHECK(e.wall_hours == Approx(730.0));
    CHECK(e.gpu_hours == Approx(3 * 730.0));
    // At 0.1 requests/s one single-GPU replica is the fewest GPUs.
    w.inference.requests_per_second = 0.1;
    w.inference.precision = catalog::Precision::int4;
    const GpuEstimate q =
        estimate::estimate(w, a100(), nvlink_node(), std::nullopt, a100_catalog());
    CHECK(*q.throughput.decode_tokens_per_second ==
          Approx(2039e9 * 0.68 * 0.62 / (6.738e9 * 0.625)));
}

namespace {

// A B200-like GPU: the A100 fixture with Blackwell's FP8 and FP4 tensor peaks and 7.7 TB/s.
catalog::Gpu fp4_gpu() {
    catalog::Gpu gpu = a100();
    gpu.name = "B200";
    gpu.architecture = catalog::Architecture::blackwell;
    gpu.memory_gib = 180.0;
    gpu.memory_bandwidth_gb_per_s = 7700.0;
    gpu.tflops[static_cast<std::size_t>(catalog::Precision::fp8)] = 4500.0;
    gpu.tflops[static_cast<std::size_t>(catalog::Precision::nvfp4)] = 9000.0;
    gpu.tflops[static_cast<std::size_t>(catalog::Precision::mxfp4)] = 9000.0;
    return gpu;
}

// Llama 2 70B at batch 1, decode only, so the step is the weight read.
Workload decode_70b(catalog::Precision precision) {
    Workload w;
    w.task = workload::Task::inference;
    w.model.params = 68.98e9;
    w.model.layers = 80;
    w.model.hidden = 8192;
    w.model.heads = 64;
    w.model.kv_heads = 8;
    w.inference.batching = workload::Batching::static_batch;
    w.inference.requests_per_second = 0.01;
    w.inference.input_tokens = 0.0;
    w.inference.output_tokens = 256.0;
    w.inference.tensor_parallel = 1;
    w.inference.precision = precision;
    return w;
}

bool has_note(const GpuEstimate& e, std::string_view prefix) {
    return std::any_of(e.notes.begin(), e.notes.end(),
                       [&](const std::string& n) { return n.rfind(prefix, 0) == 0; });
}

} // namespace

TEST_CASE("nvfp4 on FP4 tensor cores reads 0.5625 bytes per weight and keeps an FP8 KV cache",
          "[estimate][fp4]") {
    const Workload w = decode_70b(catalog::Precision::nvfp4);
    const GpuEstimate e =
        estimate::estimate(w, fp4_gpu(), nvlink_node(), std::nullopt, a100_catalog());
    CHECK(e.precision == catalog::Precision::nvfp4);
    CHECK(e.fits);
    CHECK(e.memory.weights_gib == Approx(68.98e9 * (0.5 + 1.0 / 16.0) / k_gib));
    // 327,680 bytes per token at fp16 halves to 163,840 with the FP8 cache (E4.6).
    CHECK(e.memory.kv_cache_gib == Approx(163840.0 * 256 / k_gib));
    REQUIRE(e.throughput.decode_tokens_per_second);
    CHECK(*e.throughput.decode_tokens_per_second ==
          Approx(7700e9 * 0.68 * 0.62 / (68.98e9 * 0.5625)).epsilon(0.02));
    CHECK(has_note(e, "fp4_placeholder"));
    CHECK_FALSE(has_note(e, "fp4_weight_only"));
}

TEST_CASE("mxfp4 weights are 4.25 bits with one E8M0 scale per 32 values", "[estimate][fp4]") {
    const GpuEstimate e = estimate::estimate(decode_70b(catalog::Precision::mxfp4), fp4_gpu(),
                                             nvlink_node(), std::nullopt, a100_catalog());
    CHECK(e.precision == catalog::Precision::mxfp4);
    CHECK(e.memory.weights_gib == Approx(68.98e9 * 0.53125 / k_gib));
}

TEST_CASE("FP4 on a GPU without an FP4 peak runs weight-only at fp16 and says so",
          "[estimate][fp4]") {
    const GpuEstimate e = estimate::estimate(decode_70b(catalog::Precision::nvfp4), a100(),
                                             nvlink_node(), std::nullopt, a100_catalog());
    CHECK(e.precision == catalog::Precision::fp16);
    CHECK(has_note(e, "fp4_weight_only: A100"));
    CHECK_FALSE(has_note(e, "fp4_placeholder"));
    CHECK(e.memory.weights_gib == Approx(68.98e9 * 0.5625 / k_gib));
    CHECK(e.memory.kv_cache_gib == Approx(327680.0 * 256 / k_gib));
    REQUIRE(e.throughput.decode_tokens_per_second);
    CHECK(*e.throughput.decode_tokens_per_second ==
          Approx(2039e9 * 0.68 * 0.62 / (68.98e9 * 0.5625)).epsilon(0.02));
}

TEST_CASE("a named serving engine scales prefill and decode by its published factor",
          "[estimate][engine]") {
    Workload w = decode_70b(catalog::Precision::fp16);
    w.inference.input_tokens = 512.0;
    w.inference.tensor_parallel = 4;
    const GpuEstimate generic =
        estimate::estimate(w, a100(), nvlink_node(), std::nullopt, a100_catalog());
    REQUIRE(generic.fits);
    w.inference.engine = workload::Engine::vllm;
    const GpuEstimate vllm =
        estimate::estimate(w, a100(), nvlink_node(), std::nullopt, a100_catalog());
    w.inference.engine = workload::Engine::tensorrt_llm;
    const GpuEstimate trt =
        estimate::estimate(w, a100(), nvlink_node(), std::nullopt, a100_catalog());
    // Static batches of one request: the decode step and the prefill both stretch by 1 / s_engine.
    CHECK(vllm.serving.tpot_p50_ms == Approx(generic.serving.tpot_p50_ms * 2100.0 / 1850.0));
    CHECK(vllm.serving.ttft_p50_ms > generic.serving.ttft_p50_ms);
    CHECK(has_note(vllm, "engine: vllm"));
    CHECK_FALSE(has_note(generic, "engine:"));
    CHECK(trt.serving == generic.serving);
}

TEST_CASE("engine names parse in the spellings runs files use", "[estimate][engine]") {
    CHECK(workload::parse_engine("vllm") == workload::Engine::vllm);
    CHECK(workload::parse_engine("TRTLLM") == workload::Engine::tensorrt_llm);
    CHECK(workload::parse_engine("tensorrt-llm") == workload::Engine::tensorrt_llm);
    CHECK(workload::parse_engine("text-generation-inference") == workload::Engine::tgi);
    CHECK_FALSE(workload::parse_engine("megatron"));
    CHECK(workload::to_string(workload::Engine::tensorrt_llm) == "tensorrt-llm");
}

TEST_CASE("the KV cache is 2 L kv_heads head_dim bytes per token of every request", "[estimate]") {
    Workload w;
    w.task = workload::Task::inference;
    w.model.params = 68.98e9;
    w.model.layers = 80;
    w.model.hidden = 8192;
    w.model.heads = 64;
    w.model.kv_heads = 8;
    w.inference.batch = 1;
    w.inference.batching = workload::Batching::static_batch;
    w.inference.input_tokens = 512;
    w.inference.output_tokens = 256;
    const GpuEstimate e =
        estimate::estimate(w, a100(), nvlink_node(), std::nullopt, a100_catalog());
    // 327,680 bytes per token (methodology E4.6) * 768 tokens, split over min(t, 8) GPUs.
    CHECK(e.tensor_parallel == 2);
    CHECK(e.memory.kv_cache_gib == Approx(327680.0 * 768 / 2 / k_gib));
    CHECK(e.memory.weights_gib == Approx(68.98e9 * 2 / 2 / k_gib));
}

// Llama-2-7B served with its shape (32 layers, hidden 4096, 32 heads).
Workload llama2_7b_serving() {
    Workload w;
    w.task = workload::Task::inference;
    w.model.params = 6.738e9;
    w.model.layers = 32;
    w.model.hidden = 4096;
    w.model.heads = 32;
    return w;
}

// One request a second of 512 prompt and 256 output tokens.
Workload llama2_7b_chat() {
    Workload w = llama2_7b_serving();
    w.inference.requests_per_second = 1.0;
    w.inference.input_tokens = 512;
    w.inference.output_tokens = 256;
    return w;
}

TEST_CASE("continuous batching holds rate x latency requests and pages the KV cache in flight",
          "[estimate][serving]") {
    Workload w = llama2_7b_chat();
    const GpuEstimate e =
        estimate::estimate(w, a100(), nvlink_node(), std::nullopt, a100_catalog());
    // One GPU holds the few requests in flight (Little's law); static batch 1 needed 3.
    CHECK(e.gpu_count == 1);
    CHECK(e.serving.batching == "continuous");
    const double latency_s = e.serving.latency_p50_ms / 1000.0;
    CHECK(e.serving.batch == Approx(1.0 * latency_s).epsilon(0.02));
    CHECK(e.serving.tpot_p90_ms >= e.serving.tpot_p50_ms);
    CHECK(e.serving.ttft_p90_ms >= e.serving.ttft_p50_ms);
    // The KV cache holds the prompt and half the output of each request in flight.
    CHECK(e.memory.kv_cache_gib ==
          Approx(std::max(1.0, e.serving.batch) * (512 + 128) * 524288.0 / k_gib));
}

TEST_CASE("tensor-parallel decode of a 7B model pays two all-reduces per layer",
          "[estimate][serving]") {
    Workload w = llama2_7b_serving();
    w.inference.requests_per_second = 0.01;
    w.inference.input_tokens = 5;
    w.inference.output_tokens = 200;
    auto decode = [&](int t) {
        w.inference.tensor_parallel = t;
        w.constraints.gpu_count = t;
        return *estimate::estimate(w, a100(), nvlink_node(), std::nullopt, a100_catalog())
                    .throughput.decode_tokens_per_second;
    };
    // gpt-fast Llama-2-7B batch 1: TP8 / TP4 = 328.43 / 254.02 = 1.29.
    CHECK(decode(8) / decode(4) <= 328.43 / 254.02);
    CHECK(decode(4) > decode(2));
}

TEST_CASE("a GPU count below the pinned tensor-parallel degree is a usage error",
          "[estimate][serving]") {
    Workload w;
    w.task = workload::Task::inference;
    w.model.params = 6.738e9;
    w.inference.tensor_parallel = 4;
    w.constraints.gpu_count = 1;
    CHECK_THROWS_AS(estimate::estimate(w, a100(), nvlink_node(), std::nullopt, a100_catalog()),
                    UsageError);
    // Without the pin the search stays within the GPU count: the 7B model fits on one GPU.
    w.inference.tensor_parallel.reset();
    const GpuEstimate e =
        estimate::estimate(w, a100(), nvlink_node(), std::nullopt, a100_catalog());
    CHECK(e.fits);
    CHECK(e.tensor_parallel == 1);
    CHECK(e.gpu_count == 1);
}

TEST_CASE("data loading caps the run when storage is slower than compute", "[estimate]") {
    Workload w = train_workload(1e8, 1e9);
    w.training.mfu = 0.5;
    w.data.dataset_gb = 1000.0;
    w.data.epochs = 3.0;
    const GpuEstimate e = estimate::estimate(w, a100(), nvlink_node(), 8, a100_catalog());
    // No local NVMe in the node shape: 3,000 GB at 0.131 GB/s per node = 22,900.8 s.
    CHECK(e.bottleneck == Bottleneck::data_loading);
    CHECK(e.goodput->failure_free_wall_hours == Approx(3000.0 / 0.131 / 3600.0));
}

TEST_CASE("an incomplete workload or a zero GPU count is refused, never NaN", "[estimate]") {
    Workload w;
    CHECK_THROWS_AS(estimate::estimate(w, a100(), nvlink_node(), 1, a100_catalog()), UsageError);
    CHECK_THROWS_AS(
        estimate::estimate(train_workload(1e9, 1e9), a100(), nvlink_node(), 0, a100_catalog()),
        UsageError);
}

TEST_CASE("the default node shape is the catalog's largest instance of the GPU", "[estimate]") {
    const NodeShape node = default_node_shape(a100_catalog(), a100(), {}, NodePreference::largest);
    CHECK(node.gpus_per_node == 8);
    CHECK(node.nvlink);
    CHECK_FALSE(node.network_gbps.has_value());
}

TEST_CASE("every shipped preset estimates on every catalog GPU with finite numbers",
          "[estimate][presets]") {
    const catalog::Catalog& catalog = embedded::catalog();
    int count = 0;
    for (const embedded::File& file : embedded::files()) {
        if (file.name.rfind("presets/", 0) != 0) {
            continue;
        }
        Workload w = workload::read_workload({std::string(file.name), std::string(file.text)});
        w.constraints.gpu_models.clear();
        for (const GpuEstimate& e : estimate_all(w, catalog)) {
            INFO(file.name << " on " << e.gpu);
            CHECK(finite(e));
            CHECK(e.gpu_count >= 1);
            CHECK(e.wall_hours > 0.0);
            ++count;
        }
    }
    CHECK(count >= 11);
}

TEST_CASE("across nodes the all-reduce adds the inter-node ring over the instance network",
          "[estimate]") {
    Workload w = train_workload(1e9, 1e12);
    const NodeShape node{8, true, 100.0, std::nullopt, std::nullopt, 0};
    const GpuEstimate e = estimate::estimate(w, a100(), node, 16, a100_catalog());
    const double mfu = 0.45 / estimate::detail::k_table_reference_efficiency;
    // d = 16: 8 ranks per node over NVLink, 2 nodes over 100 Gbps = 12.5 GB/s, both at 0.8.
    const double intra = 2.0 * 7.0 / 8.0 * 2e9 / (300e9 * 0.8);
    const double inter = 2.0 * 1.0 / 2.0 * 2e9 / (12.5e9 * 0.8);
    const double compute = 6e9 * 4194304.0 / (16 * 312e12 * mfu);
    const double steps = 1e12 / 4194304.0;
    CHECK(e.nodes == 2);
    CHECK(e.goodput->failure_free_wall_hours ==
          Approx(steps * (compute + 0.2 * (intra + inter)) / 3600.0));
    CHECK(e.bottleneck == Bottleneck::compute);

    // At 0.1 Gbps the gradients take longer than the compute: communication bound.
    const NodeShape slow{8, true, 0.1, std::nullopt, std::nullopt, 0};
    const GpuEstimate s = estimate::estimate(w, a100(), slow, 16, a100_catalog());
    const double slow_comm = intra + 2e9 / (0.0125e9 * 0.8);
    CHECK(s.bottleneck == Bottleneck::communication);
    CHECK(s.goodput->failure_free_wall_hours ==
          Approx(steps * (slow_comm + 0.2 * compute) / 3600.0));
    CHECK(s.scaling_efficiency == Approx(compute / (slow_comm + 0.2 * compute)));
}

TEST_CASE("ZeRO-3 gathers the parameters for every micro-batch", "[estimate]") {
    // 8 single-GPU nodes over 100 Gbps: each micro-batch gathers 2e9 weight bytes twice and
    // reduce-scatters 2e9 gradient bytes; 2,048 micro-batches of 2,048 tokens = 256 per rank.
    Workload w = train_workload(1e9, 1e12);
    w.training.sharding = workload::Sharding::zero3;
    const NodeShape single{1, false, 100.0, std::nullopt, std::nullopt, 0};
    const GpuEstimate e = estimate::estimate(w, a100(), single, 8, a100_catalog());
    const double ring = 2.0 * 7.0 / 8.0 * 2e9 / (12.5e9 * 0.8);
    const double comm = 256 * (ring + ring / 2.0);
    const double compute =
        6e9 * 4194304.0 / (8 * 312e12 * 0.45 / estimate::detail::k_table_reference_efficiency);
    CHECK(e.bottleneck == Bottleneck::communication);
    CHECK(e.scaling_efficiency == Approx(compute / (comm + 0.2 * compute)));
}

TEST_CASE("a dataset cached in host RAM is read from the network once", "[estimate]") {
    Workload w = resnet50();
    w.data.dataset_gb = 138;
    w.training.micro_batch = 256;
    w.training.mfu = 0.20;
    NodeShape node{8, true, 400.0, std::nullopt, 1152.0, 96};
    const GpuEstimate e = estimate::estimate(w, a100(), node, std::nullopt, a100_catalog());
    // 138 GB fit in half of 1,152 GiB: staged once at 1.25 GB/s, then 90 reads at 10 GB/s.
    CHECK(e.gpu_count == 1);
    CHECK(e.time.data_cache == estimate::DataCache::host_ram);
    CHECK(e.time.staging_hours == Approx(138.0 / 1.25 / 3600.0));
    CHECK(e.time.data_loading_hours == Approx(138.0 * 90 / 10.0 / 3600.0));
    CHECK(e.wall_hours ==
          Approx(2.82963e18 / (312e12 * 0.20) / 3600.0 + 138.0 / 1.25 / 3600.0).epsilon(1e-4));
    CHECK(e.bottleneck == Bottleneck::compute);

    // Without RAM or NVMe every epoch streams from the network disk: data-loading bound, and
    // the count is not raised to buy read bandwidth.
    node.host_memory_gib = 16.0;
    w.constraints.deadline_hours = 24.0;
    const GpuEstimate d = estimate::estimate(w, a100(), node, std::nullopt, a100_catalog());
    CHECK(d.time.data_cache == estimate::DataCache::none);
    CHECK(d.bottleneck == Bottleneck::data_loading);
    CHECK(d.gpu_count == 1);
    CHECK_FALSE(d.meets_deadline);
    const bool limited = std::any_of(d.notes.begin(), d.notes.end(), [](const std::string& n) {
        return n.rfind("scaling_limit: data loading", 0) == 0;
    });
    CHECK(limited);
}

TEST_CASE("a reference benchmark sets the MFU on its GPU and scales the default on others",
          "[estimate]") {
    catalog::Catalog catalog = a100_catalog();
    catalog.gpus.push_back(v100());
    catalog.benchmarks.push_back(
        a100_benchmark("m", catalog::Precision::bf16, "tokens_per_second_per_gpu", 1000.0, 8));
    Workload w = train_workload(1e9, 1e12);
    w.model.reference = "m";
    // Rule 1: 6e9 FLOPs per token * 1000 tokens/s / 312e12 = 0.019231.
    const GpuEstimate a = estimate::estimate(w, catalog.gpus.at(0), nvlink_node(), 8, catalog);
    CHECK(a.mfu == Approx(6e9 * 1000.0 / 312e12));
    CHECK(a.from_benchmark);
    // Rule 2: the V100 default (0.25, Volta, >= 1B) times measured / default on the A100 (0.45).
    const GpuEstimate v = estimate::estimate(w, catalog.gpus.at(1), nvlink_node(), 8, catalog);
    CHECK(v.mfu == Approx(0.25 * (6e9 * 1000.0 / 312e12) / 0.45));
    CHECK(std::any_of(v.notes.begin(), v.notes.end(), [](const std::string& note) {
        return note.rfind("benchmark_scaled:", 0) == 0;
    }));
    // training.mfu wins over any benchmark.
    w.training.mfu = 0.3;
    CHECK(estimate::estimate(w, catalog.gpus.at(0), nvlink_node(), 8, catalog).mfu == 0.3);
}

TEST_CASE("a custom model's reference on another GPU is scaled by the bound that limits there",
          "[estimate]") {
    catalog::Catalog catalog = a100_catalog();
    catalog::Gpu fast = a100(); // three times the peak, 1.5 times the bandwidth
    fast.name = "FAST";
    fast.memory_bandwidth_gb_per_s = a100().memory_bandwidth_gb_per_s * 1.5;
    for (std::optional<double>& tflops : fast.tflops) {
        if (tflops) {
            *tflops *= 3.0;
        }
    }
    catalog.gpus.push_back(fast);
    catalog.benchmarks.push_back(
        a100_benchmark("img", catalog::Precision::fp16, k_inference, 0.5, 1));
    Workload w;
    w.task = workload::Task::inference;
    w.model.family = workload::Family::custom;
    w.model.params = 1e9;
    w.model.flops_per_sample = 9e13;
    w.model.reference = "img";
    w.inference.requests_per_second = 0.01;
    w.inference.latency_ms = 1500.0;
    // Same GPU: the measured 2 s per sample, which misses the 1.5 s target.
    const GpuEstimate same = estimate::estimate(w, catalog.gpus.at(0), nvlink_node(), 1, catalog);
    CHECK(1000.0 / *same.throughput.requests_per_second_capacity == Approx(2000.0));
    CHECK_FALSE(same.meets_deadline);
    // Other GPU: 9e13 FLOPs per 2e9 weight bytes = 45,000 FLOPs per byte, above FAST's ridge
    // (936e12 / 3058.5e9 = 306): compute bound, 2 s / 3.
    const GpuEstimate other = estimate::estimate(w, catalog.gpus.at(1), nvlink_node(), 1, catalog);
    CHECK(1.0 / *other.throughput.requests_per_second_capacity == Approx(2.0 / 3.0));
    CHECK(other.bottleneck == Bottleneck::compute);
    CHECK(other.meets_deadline);
    CHECK(std::any_of(other.notes.begin(), other.notes.end(), [](const std::string& note) {
        return note.rfind("reference_bound:", 0) == 0;
    }));
    // 1e11 FLOPs per sample: 50 FLOPs per weight byte, below the ridge: bandwidth bound, 2 s / 1.5,
    // which misses a 1.2 s target.
    w.model.flops_per_sample = 1e11;
    w.inference.latency_ms = 1200.0;
    const GpuEstimate thin = estimate::estimate(w, catalog.gpus.at(1), nvlink_node(), 1, catalog);
    CHECK(1.0 / *thin.throughput.requests_per_second_capacity == Approx(2.0 / 1.5));
    CHECK(thin.bottleneck == Bottleneck::memory_bandwidth);
    CHECK_FALSE(thin.meets_deadline);
}

TEST_CASE("serving never reads a training figure and takes the reference at the workload's batch",
          "[estimate][serving]") {
    catalog::Catalog catalog = a100_catalog();
    catalog.benchmarks.push_back(
        a100_benchmark("cnn", catalog::Precision::fp16, "samples_per_second_per_gpu", 2000.0, 8));
    Workload w = resnet50();
    w.task = workload::Task::inference;
    w.model.reference = "cnn";
    w.inference.requests_per_second = 1.0;
    w.inference.batch = 8;
    // Only a training figure: the default inference efficiency, flagged.
    const GpuEstimate none = estimate::estimate(w, a100(), nvlink_node(), 1, catalog);
    CHECK_FALSE(none.from_benchmark);
    CHECK(1.0 / *none.throughput.requests_per_second_capacity ==
          Approx(8.18e9 / (312e12 * estimate::detail::k_custom_inference_mfu)));
    // Inference figures at batch 1, 4 and 32: batch 8 takes the batch-4 figure (the largest at or
    // below it), batch 2 the batch-1 one.
    for (const auto& [batch, value] :
         std::vector<std::pair<int, double>>{{1, 500.0}, {4, 1500.0}, {32, 4000.0}}) {
        catalog::Benchmark b =
            a100_benchmark("cnn", catalog::Precision::fp16, k_inference, value, 1);
        b.batch = batch;
        catalog.benchmarks.push_back(b);
    }
    const GpuEstimate eight = estimate::estimate(w, a100(), nvlink_node(), 1, catalog);
    CHECK(eight.from_benchmark);
    CHECK(*eight.throughput.requests_per_second_capacity == Approx(1500.0));
    w.inference.batch = 2;
    CHECK(*estimate::estimate(w, a100(), nvlink_node(), 1, catalog)
               .throughput.requests_per_second_capacity == Approx(500.0));
}

TEST_CASE("a ResNet-50 service at 400 images/s on one T4 is served by one GPU",
          "[estimate][serving]") {
    const catalog::Catalog& catalog = embedded::catalog();
    const catalog::Gpu& t4 = *catalog::find_gpu(catalog, "T4");
    Workload w;
    w.task = workload::Task::inference;
    w.model.family = workload::Family::cnn;
    w.model.params = 25.6e6;
    w.model.flops_per_sample = 8.18e9;
    w.model.reference = "resnet50";
    w.inference.precision = catalog::Precision::fp16;
    w.inference.requests_per_second = 400.0;
    w.inference.batch = 32;
    w.inference.latency_ms = 100.0;
    w.inference.percentile = 90;
    NodeShape node;
    node.gpus_per_node = 1;
    const GpuEstimate e = estimate::estimate(w, t4, node, std::nullopt, catalog);
    // The T4's measured 1,128 images/s at batch 32 (a batch in 28 ms), not the training figure.
    CHECK(e.gpu_count == 1);
    CHECK(e.meets_deadline);
    CHECK(e.from_benchmark);
    CHECK(*e.throughput.requests_per_second_capacity == Approx(1128.0));
}

TEST_CASE("stated P90 lengths lengthen the P90 request, not the load or the P50 figures",
          "[estimate][serving]") {
    Workload w = llama2_7b_chat();
    w.constraints.gpu_count = 1;
    const GpuEstimate mean =
        estimate::estimate(w, a100(), nvlink_node(), std::nullopt, a100_catalog());
    w.inference.input_tokens_p90 = 2048;
    w.inference.output_tokens_p90 = 1024;
    const GpuEstimate p90 =
        estimate::estimate(w, a100(), nvlink_node(), std::nullopt, a100_catalog());
    CHECK(p90.serving.batch == Approx(mean.serving.batch));
    CHECK(p90.serving.ttft_p50_ms == Approx(mean.serving.ttft_p50_ms));
    CHECK(p90.serving.latency_p50_ms == Approx(mean.serving.latency_p50_ms));
    CHECK(p90.serving.tpot_p90_ms == Approx(mean.serving.tpot_p90_ms));
    // 1536 more prompt tokens: at least their arithmetic at the peak, 2 x 6.738e9 x 1536 / 312e12.
    CHECK(p90.serving.ttft_p90_ms - mean.serving.ttft_p90_ms >
          1000.0 * 2.0 * 6.738e9 * 1536.0 / 312e12);
    CHECK(p90.serving.latency_p90_ms ==
          Approx(p90.serving.ttft_p90_ms + 1023.0 * p90.serving.tpot_p90_ms));
}

TEST_CASE("goodput: a one-GPU run is nearly unaffected, a 16k-GPU run loses about a tenth",
          "[estimate][goodput]") {
    const gpuplan::estimate::Goodput small = gpuplan::estimate::goodput(13.0, 1, 1, 0.4, 0.9);
    CHECK(small.wall_factor - 1.0 < 1e-4);
    CHECK(small.p90_wall_hours == small.expected_wall_hours);
    // Llama 3 405B scale: 16,384 GPUs in 2,048 nodes, a 6.5 TB checkpoint, 54 days.
    const gpuplan::estimate::Goodput large =
        gpuplan::estimate::goodput(1296.0, 16384, 2048, 6500.0, 0.9);
    CHECK(large.failure_rate_per_hour == Approx(419.0 / (54.0 * 24.0)).epsilon(1e-9));
    CHECK(large.fraction() > 0.85);
    CHECK(large.fraction() < 0.95);
    CHECK(large.p90_wall_hours > large.expected_wall_hours);
    const gpuplan::estimate::Goodput strict =
        gpuplan::estimate::goodput(1296.0, 16384, 2048, 6500.0, 0.99);
    CHECK(strict.confidence_wall_hours > large.p90_wall_hours);
}

TEST_CASE("normal_quantile inverts the standard normal", "[estimate][goodput]") {
    CHECK(gpuplan::estimate::normal_quantile(0.9) == Approx(1.2815515655446004).epsilon(1e-9));
    CHECK(gpuplan::estimate::normal_quantile(0.5) == Approx(0.0).margin(1e-9));
}

namespace {

// A 32-layer transformer of `params` parameters fine-tuned on 1B tokens (E4, E5).
Workload shaped_finetune(double params) {
    Workload w = train_workload(params, 1e9);
    w.task = workload::Task::finetune;
    w.model.layers = 32;
    w.model.hidden = 4096;
    w.model.heads = 32;
    w.model.seq_len = 2048;
    w.training.recompute = workload::Recompute::full;
    w.training.tensor_parallel = 1;
    w.training.pipeline_parallel = 1;
    return w;
}

GpuEstimate on_a100s(const Workload& w, int gpus, NodeShape node = nvlink_node()) {
    return estimate::estimate(w, a100(), node, gpus, a100_catalog());
}

} // namespace

TEST_CASE("a searched ZeRO stage is the lowest that fits (E5.1)", "[estimate]") {
    // Two data-parallel GPUs of 80 GiB, 90 % usable. Per parameter: zero1 2 + 2 + 12/2 = 10 B,
    // zero2 2 + 1 + 6 = 9 B, zero3 1 + 1 + 6 = 8 B plus two gathered layers.
    const GpuEstimate z1 = on_a100s(shaped_finetune(7e9), 2);
    CHECK(z1.sharding == "zero1");
    CHECK(z1.fits);
    CHECK(z1.memory.optimizer_gib == Approx(7e9 * 12.0 / 2.0 / k_gib));
    CHECK(z1.memory.gradients_gib == Approx(7e9 * 2.0 / k_gib));
    const GpuEstimate z2 = on_a100s(shaped_finetune(8e9), 2);
    CHECK(z2.sharding == "zero2");
    CHECK(z2.memory.gradients_gib == Approx(8e9 * 2.0 / 2.0 / k_gib));
    const GpuEstimate z3 = on_a100s(shaped_finetune(9e9), 2);
    CHECK(z3.sharding == "zero3");
    CHECK(z3.fits);
    CHECK(z3.memory.weights_gib == Approx((9e9 * 2.0 / 2.0 + 2.0 * 9e9 * 2.0 / 32.0) / k_gib));
    // ZeRO-3 gathers the weights for every micro-batch: slower than ZeRO-2 on the same layout.
    Workload pinned = shaped_finetune(8e9);
    pinned.training.sharding = workload::Sharding::zero3;
    CHECK(on_a100s(pinned, 2).wall_hours > z2.wall_hours);
    // A pinned stage is kept even where a lower one would fit.
    CHECK(on_a100s(pinned, 2).sharding == "zero3");
}

TEST_CASE("ZeRO-2 and ZeRO-3 are not searched with pipeline parallelism", "[estimate]") {
    Workload w = shaped_finetune(9e9);
    w.training.pipeline_parallel = 2;
    const GpuEstimate e = on_a100s(w, 4);
    CHECK(e.pipeline_parallel == 2);
    CHECK((e.sharding == "none" || e.sharding == "zero1"));
}

TEST_CASE("8-bit AdamW, fp32 gradients and CPU offload change the model states (E4.1, E4.8)",
          "[estimate]") {
    Workload w = shaped_finetune(1e9);
    w.training.sharding = workload::Sharding::none;
    const GpuEstimate base = on_a100s(w, 1);
    CHECK(base.memory.optimizer_gib == Approx(1e9 * 12.0 / k_gib));
    w.training.optimizer = workload::Optimizer::adamw_8bit;
    CHECK(on_a100s(w, 1).memory.optimizer_gib == Approx(1e9 * (4.0 + 2.0) / k_gib));
    w.training.optimizer = workload::Optimizer::adamw;
    w.training.fp32_gradients = true;
    CHECK(on_a100s(w, 1).memory.gradients_gib == Approx(1e9 * 4.0 / k_gib));
    w.training.fp32_gradients = false;
    w.training.offload = workload::Offload::optimizer;
    const GpuEstimate offloaded = on_a100s(w, 1);
    CHECK(offloaded.memory.optimizer_gib == 0.0);
    // The CPU update and the weights sent back over PCIe lengthen every step.
    CHECK(offloaded.wall_hours > base.wall_hours);
    // The host must hold the optimizer states: 12 GB do not fit a 8 GiB host.
    NodeShape small_host = nvlink_node();
    small_host.host_memory_gib = 8.0;
    CHECK_FALSE(on_a100s(w, 1, small_host).fits);
    small_host.host_memory_gib = 64.0;
    CHECK(on_a100s(w, 1, small_host).fits);
}

TEST_CASE("selective recomputation drops the stored attention scores (E4.3)", "[estimate]") {
    Workload w = shaped_finetune(1e9);
    w.training.recompute = workload::Recompute::none;
    w.training.flash_attention = false;
    const double stored = on_a100s(w, 1).memory.activations_gib;
    w.training.recompute = workload::Recompute::selective;
    const double selective = on_a100s(w, 1).memory.activations_gib;
    // 34 + 5 a s / h = 34 + 5 * 32 * 2048 / 4096 = 114 bytes per token and hidden unit; 34 kept.
    CHECK(selective == Approx(stored * 34.0 / 114.0));
    CHECK(selective == Approx(2048.0 * 4096.0 * 34.0 * 32.0 / k_gib));
}

TEST_CASE("context parallelism splits long sequences (E5.1)", "[estimate]") {
    Workload w = shaped_finetune(8e9);
    w.model.seq_len = 131072;
    w.training.micro_batch = 2;
    w.training.sharding = workload::Sharding::zero3;
    w.training.context_parallel = 1;
    const GpuEstimate one = on_a100s(w, 8);
    w.training.context_parallel = 8;
    const GpuEstimate eight = on_a100s(w, 8);
    CHECK(eight.context_parallel == 8);
    CHECK(eight.data_parallel == 1);
    CHECK(eight.memory.activations_gib == Approx(one.memory.activations_gib / 8.0));
    // Searched from 16,384 tokens: the 131k sequence fits only when split.
    w.training.context_parallel.reset();
    const GpuEstimate searched = on_a100s(w, 8);
    CHECK_FALSE(one.fits);
    CHECK(searched.fits);
    CHECK(searched.context_parallel > 1);
}

TEST_CASE("expert parallelism spreads the routed experts (E4.9)", "[estimate]") {
    // Mixtral-like: 8 experts, 2 per token; P_e = (46.7B - 12.9B) / 6, dense 12.9B - 2 P_e.
    Workload w = shaped_finetune(46.7e9);
    w.model.active_params = 12.9e9;
    w.model.experts = 8;
    w.model.experts_per_token = 2;
    w.training.sharding = workload::Sharding::none;
    w.training.expert_parallel = 8;
    const GpuEstimate e = on_a100s(w, 8);
    const double per_expert = (46.7e9 - 12.9e9) / 6.0;
    const double dense = 46.7e9 - 8.0 * per_expert;
    CHECK(e.expert_parallel == 8);
    CHECK(e.memory.weights_gib == Approx((dense + per_expert) * 2.0 / k_gib));
    // FLOPs count the active parameters only.
    CHECK(e.total_flops == Approx(1e9 * (6.0 * 12.9e9 + 12.0 * 32 * 4096 * 2048)));
    // The all-to-alls are on the critical path, and slower once the expert group leaves the
    // node: two nodes of four GPUs share a 100 Gbps network.
    CHECK(e.time.communication_hours > 0.0);
    NodeShape four = nvlink_node();
    four.gpus_per_node = 4;
    const GpuEstimate across = on_a100s(w, 8, four);
    CHECK(across.expert_parallel == 8);
    CHECK(across.time.communication_hours > 10.0 * e.time.communication_hours);
}

TEST_CASE("a mixture of experts reads the experts its batch touches (E7.3)", "[estimate]") {
    // Qwen3-235B-A22B-like: 128 experts, 8 per token, 1 byte per weight, on 8 GPUs.
    detail::ServingModel m;
    m.experts = 128.0;
    m.experts_per_token = 8.0;
    const double per_expert = (235e9 - 22e9) / 120.0;
    m.expert_bytes = per_expert;
    m.weight_bytes = 235e9;
    const double dense = 235e9 - 128.0 * per_expert;
    CHECK(detail::experts_touched(m, 1.0) == Approx(8.0));
    CHECK(detail::experts_touched(m, 32.0) == Approx(128.0 * (1.0 - std::pow(120.0 / 128.0, 32))));
    CHECK(detail::experts_touched(m, 32.0) == Approx(111.771).epsilon(1e-4));
    CHECK(detail::experts_touched(m, 4096.0) == Approx(128.0));
    // One token reads the active weights; a large batch the whole model.
    CHECK(detail::weight_bytes_read(m, 8, 1.0) == Approx(22e9 / 8.0));
    CHECK(detail::weight_bytes_read(m, 8, 4096.0) == Approx(235e9 / 8.0));
    CHECK(detail::weight_bytes_read(m, 1, 32.0) ==
          Approx(dense + 128.0 * (1.0 - std::pow(120.0 / 128.0, 32)) * per_expert));
    // A dense model reads all its weights at any batch.
    detail::ServingModel dense_model;
    dense_model.weight_bytes = 70e9;
    CHECK(detail::experts_touched(dense_model, 1.0) == 0.0);
    CHECK(detail::weight_bytes_read(dense_model, 2, 1.0) == 35e9);
}

TEST_CASE("the expert layout holds the dense weights whole and splits the experts (E7.4)",
          "[estimate]") {
    detail::ServingModel m;
    m.experts = 128.0;
    m.experts_per_token = 8.0;
    const double per_expert = (235e9 - 22e9) / 120.0;
    m.expert_bytes = per_expert;
    m.weight_bytes = 235e9;
    m.kv_heads = 4.0;
    const double dense = 235e9 - 128.0 * per_expert;
    // Tensor parallelism: a share of everything, KV over at most the KV heads.
    CHECK(detail::weight_bytes_held(m, 8) == Approx(235e9 / 8.0));
    CHECK(detail::kv_split(m, 8) == 4.0);
    m.expert_layout = true;
    CHECK(detail::weight_bytes_held(m, 8) == Approx(dense + 128.0 * per_expert / 8.0));
    CHECK(detail::weight_bytes_read(m, 8, 1.0) == Approx(dense + 8.0 * per_expert / 8.0));
    CHECK(detail::weight_bytes_read(m, 8, 4096.0) == Approx(dense + 128.0 * per_expert / 8.0));
    // Data-parallel attention: each GPU holds its own requests' KV cache.
    CHECK(detail::kv_split(m, 8) == 8.0);
}

TEST_CASE("a mixture of experts decodes at batch 1 from its active weights (E7.3)", "[estimate]") {
    // Mixtral 8x7B at batch 1: the step reads 12.9B of 46.7B parameters, so it is faster than
    // the same model read whole and slower than a dense 12.9B model (attention and KV alike).
    auto mixtral = [](bool routed) {
        Workload w;
        w.task = workload::Task::inference;
        w.model.family = workload::Family::transformer;
        w.model.params = 46.7e9;
        w.model.active_params = 12.9e9;
        if (routed) {
            w.model.experts = 8;
            w.model.experts_per_token = 2;
        }
        w.model.layers = 32;
        w.model.hidden = 4096;
        w.model.heads = 32;
        w.model.kv_heads = 8;
        w.inference.requests_per_second = 0.01;
        w.inference.input_tokens = 5;
        w.inference.output_tokens = 200;
        w.inference.tensor_parallel = 2;
        return w;
    };
    const GpuEstimate moe = on_a100s(mixtral(true), 2);
    const GpuEstimate whole = on_a100s(mixtral(false), 2);
    REQUIRE(moe.fits);
    REQUIRE(whole.fits);
    // Weight-bound: the step time is nearly in the ratio of the bytes read, 12.9 / 46.7.
    const double ratio = moe.serving.tpot_p50_ms / whole.serving.tpot_p50_ms;
    CHECK(ratio < 0.4);
    CHECK(ratio > 12.9 / 46.7);
}

TEST_CASE("a multi-stage run sums its stages, each in its own layout (E5.6)", "[estimate]") {
    Workload one = shaped_finetune(1e9);
    one.task = workload::Task::train;
    one.data.tokens = 2e10;
    one.training.tensor_parallel.reset();
    one.training.pipeline_parallel.reset();
    // Two equal halves of the same job: the same layout, the same run.
    Workload halves = one;
    halves.stages = {{"a", 1e10, std::nullopt, std::nullopt},
                     {"b", 1e10, std::nullopt, std::nullopt}};
    const GpuEstimate whole = on_a100s(one, 8);
    const GpuEstimate split = on_a100s(halves, 8);
    REQUIRE(split.stages.size() == 2);
    CHECK(split.wall_hours == Approx(whole.wall_hours));
    CHECK(split.total_flops == Approx(whole.total_flops));
    CHECK(split.stages[0].train_hours == Approx(split.stages[1].train_hours));
    CHECK(split.stages[0].train_hours + split.stages[1].train_hours ==
          Approx(whole.time.compute_hours + whole.time.bubble_hours +
                 whole.time.communication_hours));
    // A long-context stage needs more memory and its own layout; the run needs the most any
    // stage needs.
    Workload longer = one;
    longer.training.recompute = workload::Recompute::none;
    longer.stages = {{"short", 1e10, std::nullopt, std::nullopt},
                     {"long", 1e9, 65536, std::nullopt}};
    const GpuEstimate mixed = on_a100s(longer, 8);
    REQUIRE(mixed.stages.size() == 2);
    CHECK(mixed.stages[1].seq_len == 65536.0);
    CHECK(mixed.stages[1].memory_per_gpu_gib > mixed.stages[0].memory_per_gpu_gib);
    CHECK(mixed.memory_per_gpu_gib == Approx(mixed.stages[1].memory_per_gpu_gib));
    // 34 bytes x 65,536 tokens x 4,096 x 32 layers = 272 GiB of activations: at least 4 ways
    // to fit 72 GiB; the 2k stage needs no split.
    CHECK(mixed.stages[1].tensor_parallel * mixed.stages[1].context_parallel >= 4);
    CHECK(mixed.stages[0].tensor_parallel * mixed.stages[0].context_parallel == 1);
    CHECK(mixed.fits);
}

TEST_CASE("packed sequences compute their real tokens, padded ones the whole window (E2.6)",
          "[estimate]") {
    Workload w = shaped_finetune(1e9);
    w.data.tokens.reset();
    w.data.samples = 1e6;
    w.data.mean_seq_len = 512.0;
    const double per_token = 6.0 * 1e9 + 12.0 * 32 * 4096 * 2048;
    const GpuEstimate packed = on_a100s(w, 8);
    CHECK(packed.total_flops == Approx(per_token * 1e6 * 512.0));
    w.data.packing = false;
    const GpuEstimate padded = on_a100s(w, 8);
    CHECK(padded.total_flops == Approx(per_token * 1e6 * 2048.0));
    // Padding is computed but is no throughput: both runs deliver 512M real tokens.
    for (const GpuEstimate* e : {&packed, &padded}) {
        REQUIRE(e->goodput);
        CHECK(e->throughput.tokens_per_second * e->goodput->failure_free_wall_hours * 3600.0 ==
              Approx(1e6 * 512.0));
    }
    CHECK(padded.wall_hours > 3.5 * packed.wall_hours);
    // Without a mean length the samples are full windows, packed or not.
    w.data.mean_seq_len.reset();
    CHECK(on_a100s(w, 8).total_flops == Approx(per_token * 1e6 * 2048.0));
}

TEST_CASE("a reference's multi-GPU scaling is modelled on its own node so one GPU ignores the "
          "network",
          "[estimate]") {
    catalog::Catalog catalog = a100_catalog();
    catalog.benchmarks.push_back(
        a100_benchmark("cnn", catalog::Precision::fp16, "samples_per_second_per_gpu", 2000.0, 8));
    Workload w = resnet50();
    w.task = workload::Task::train;
    w.model.reference = "cnn";
    w.training.precision = catalog::Precision::fp16;
    w.training.micro_batch = 256;
    NodeShape slow;
    slow.gpus_per_node = 1;
    slow.network_gbps = 2.5;
    NodeShape fast = slow;
    fast.network_gbps = 100.0;
    const GpuEstimate a = estimate::estimate(w, a100(), slow, 1, catalog);
    const GpuEstimate b = estimate::estimate(w, a100(), fast, 1, catalog);
    CHECK(a.wall_hours == Approx(b.wall_hours));
    // Close to the measured 2,000 images/s: 90 x 1,281,167 / 2000 / 3600 = 16.0 h, not faster.
    CHECK(a.time.compute_hours == Approx(90.0 * 1281167.0 / 2000.0 / 3600.0).epsilon(0.05));
}

TEST_CASE("fixed-cost requests queue: the fleet holds the latency target at its percentile",
          "[estimate][serving]") {
    catalog::Catalog catalog = a100_catalog();
    // 2.95 s per image on this GPU, 1 image/s, 4 s at P90.
    catalog.benchmarks.push_back(
        a100_benchmark("img", catalog::Precision::fp16, k_inference, 1.0 / 2.95, 1));
    Workload w;
    w.task = workload::Task::inference;
    w.model.family = workload::Family::custom;
    w.model.params = 1e9;
    w.model.flops_per_sample = 9e13;
    w.model.reference = "img";
    w.inference.requests_per_second = 1.0;
    w.inference.latency_ms = 4000.0;
    w.inference.percentile = 90;
    const GpuEstimate e = estimate::estimate(w, a100(), nvlink_node(), std::nullopt, catalog);
    // 3 GPUs are 98 % busy (capacity >= load) but wait far beyond 4 s; 4 give about 5.2 s.
    CHECK(e.gpu_count == 5);
    CHECK(e.meets_deadline);
    CHECK(e.serving.latency_p90_ms <= 4000.0);
    const GpuEstimate three = estimate::estimate(w, a100(), nvlink_node(), 3, catalog);
    CHECK_FALSE(three.meets_deadline);
    CHECK(three.serving.latency_p90_ms > 20000.0);
}

TEST_CASE("head_dim sets the KV cache and attention width where it is not hidden over heads",
          "[estimate][serving]") {
    Workload w = llama2_7b_chat();
    w.constraints.gpu_count = 1;
    const GpuEstimate plain =
        estimate::estimate(w, a100(), nvlink_node(), std::nullopt, a100_catalog());
    w.model.head_dim = 2 * *w.model.hidden / *w.model.heads; // Qwen3-style: twice hidden / heads
    const GpuEstimate wide =
        estimate::estimate(w, a100(), nvlink_node(), std::nullopt, a100_catalog());
    REQUIRE(plain.memory.kv_cache_gib > 0.0);
    CHECK(wide.memory.kv_cache_gib / wide.serving.batch ==
          Approx(2.0 * plain.memory.kv_cache_gib / plain.serving.batch));
}

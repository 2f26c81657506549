#pragma once
// Named defaults of the estimator, each with its source in docs/methodology.md ("Estimator").

namespace gpuplan::estimate::detail {

// FLOPs per parameter per token: forward 2, backward 4 (Kaplan et al.; Transformer Math 101).
inline constexpr double k_train_flops_per_param = 6.0;
inline constexpr double k_forward_flops_per_param = 2.0;
// LoRA/QLoRA: the frozen base runs forward (2) and propagates activation gradients (2), but
// computes no weight gradients.
inline constexpr double k_frozen_flops_per_param = 4.0;
// Attention FLOPs per token per layer per hidden unit per context position in training (PaLM
// appendix B: 12 * L * H * Q * T).
inline constexpr double k_train_attention_flops = 12.0;
// CNN/custom training: forward F plus backward 2F per sample.
inline constexpr double k_train_flops_per_forward = 3.0;

// LoRA adapters' trainable parameters as a share of the base model (rank 16 on all projections of
// a 7B model is about 0.6 %; 1 % is the documented default).
inline constexpr double k_lora_trainable_fraction = 0.01;
// QLoRA base weights: 4-bit NF4 plus double-quantised constants (Dettmers et al.: 0.127 bits).
inline constexpr double k_qlora_bytes_per_param = (4.0 + 0.127) / 8.0;
// QLoRA runs slower than LoRA because the base is de-quantised on the fly.
inline constexpr double k_qlora_efficiency_factor = 0.7;

// Activation bytes per token per hidden unit per layer with 16-bit activations (Korthikanti et
// al. 34*s*b*h, without the 5*a*s/h attention-score term that memory-efficient attention removes).
inline constexpr double k_activation_bytes = 34.0;
// With activation checkpointing only each layer's 16-bit input is kept.
inline constexpr double k_checkpointed_activation_bytes = 2.0;
// CNN/custom activation bytes per forward FLOP per sample at 16-bit (estimate: ResNet-50 keeps
// about 100 MB per image in fp32 for 8.2 GFLOPs).
inline constexpr double k_cnn_activation_bytes_per_flop = 0.006;

// When the shape is not given: hidden = 128 * layers and params = 12 * layers * hidden^2.
inline constexpr double k_hidden_per_layer = 128.0;
inline constexpr double k_params_per_layer_hidden2 = 12.0;
inline constexpr double k_head_dim = 128.0;
inline constexpr int k_default_seq_len = 2048;

// CUDA context and framework workspace, plus allocator fragmentation on top of everything else.
inline constexpr double k_runtime_overhead_gib = 1.0;
inline constexpr double k_fragmentation_fraction = 0.05;

// Model FLOPs utilisation defaults for transformers (docs/methodology.md, "Efficiency").
inline constexpr double k_mfu_ampere = 0.50;
inline constexpr double k_mfu_hopper = 0.40;
inline constexpr double k_mfu_hopper_large = 0.35; // beyond k_large_cluster_gpus
inline constexpr int k_large_cluster_gpus = 1024;
inline constexpr double k_mfu_ada = 0.40;
inline constexpr double k_mfu_volta = 0.40;
inline constexpr double k_mfu_turing = 0.30;
// CNN/custom models (ResNet-50 benchmarks: 16 % on A100-80GB, 20 % on V100 in AMP).
inline constexpr double k_mfu_cnn = 0.18;
// FP8 end-to-end speed-up over BF16 (llm-foundry, 1.31x).
inline constexpr double k_fp8_speedup = 1.3;

// Pipeline schedule: micro-batches per stage (bubble = (p - 1) / (4 p)).
inline constexpr double k_microbatches_per_stage = 4.0;
// Share of a step's compute that gradient communication can hide behind (the backward pass).
inline constexpr double k_backward_share = 2.0 / 3.0;
// ZeRO-3 communicates 1.5x the data of an all-reduce (Rajbhandari et al.).
inline constexpr double k_zero3_comm_factor = 1.5;
// Tensor-parallel all-reduces per layer per step: 2 forward + 2 backward (+2 recompute).
inline constexpr double k_tp_allreduces = 4.0;
inline constexpr double k_tp_allreduces_recompute = 2.0;

// Link bandwidths per direction when the catalog has no figure.
inline constexpr double k_fallback_network_gbps = 100.0;
inline constexpr double k_pcie3_gb_per_s = 16.0;
inline constexpr double k_pcie4_gb_per_s = 32.0;

// Training data read throughput per node: remote storage, or local NVMe when the dataset fits.
inline constexpr double k_remote_storage_gb_per_s = 1.0;
inline constexpr double k_local_nvme_gb_per_s = 3.0;

// Inference: share of peak memory bandwidth decode achieves, and prefill MFU.
inline constexpr double k_decode_bandwidth_efficiency = 0.7;
inline constexpr double k_prefill_mfu = 0.5;

// GPU counts searched for the memory fit and for the deadline.
inline constexpr int k_max_search_gpus = 65536;

} // namespace gpuplan::estimate::detail

#pragma once
// Named defaults of the estimator, each with its source in docs/methodology.md ("Estimator").

#include <array>

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

// LoRA adapters' parameters as a share of the base model when h or L is missing (E4.5).
inline constexpr double k_lora_trainable_fraction = 0.005; // when h or L is missing
// LoRA rank; adapters on q, k, v, o: N_lora = 8 r h L (docs/methodology.md E4.5).
inline constexpr double k_lora_rank = 16.0;
inline constexpr double k_lora_adapter_bytes = 16.0; // fp32 weights, gradients, AdamW moments
inline constexpr double k_lora_checkpoint_bytes = 12.0;
inline constexpr double k_lora_efficiency = 0.88;
inline constexpr double k_qlora_slowdown = 1.40;
// QLoRA base weights: 4-bit NF4 plus double-quantised constants (Dettmers et al.: 0.127 bits).
inline constexpr double k_nf4_bytes = 0.516;

// Activation bytes per token per hidden unit per layer with 16-bit activations (Korthikanti et
// al. s*b*h*(34 + 5*a*s/h)).
inline constexpr double k_activation_bytes = 34.0;
inline constexpr double k_attention_score_bytes = 5.0;
// With activation checkpointing only each layer's 16-bit input is kept.
inline constexpr double k_checkpointed_activation_bytes = 2.0;
// CNN/custom activation bytes per forward GFLOP per sample at 16-bit: 6 MiB (E4.4).
inline constexpr double k_cnn_act_bytes_per_gflop = 6.0 * 1024.0 * 1024.0;

// CUDA context and kernels (E4).
inline constexpr double k_framework_overhead_gib = 1.5;
// A configuration fits when it uses at most this share of the GPU's memory (vLLM's default).
inline constexpr double k_usable_memory_fraction = 0.90;

// Model FLOPs utilisation defaults (docs/methodology.md E3.2): transformer >= 1e9 parameters,
// below, and cnn/custom; columns volta, turing, ampere, ada, hopper (blackwell uses hopper).
inline constexpr double k_large_transformer_params = 1e9;
inline constexpr std::array<double, 5> k_mfu_large = {0.25, 0.17, 0.45, 0.36, 0.40};
inline constexpr std::array<double, 5> k_mfu_small = {0.30, 0.20, 0.40, 0.32, 0.35};
inline constexpr std::array<double, 5> k_mfu_cnn = {0.22, 0.15, 0.20, 0.16, 0.16};
// Non-tensor fp32 on every architecture (E3.4).
inline constexpr double k_mfu_fp32 = 0.55;
// FP8 end-to-end speed-up over BF16 (llm-foundry, 1.31x).
inline constexpr double k_fp8_speedup = 1.3;

// Optimizer state bytes per trainable parameter, master weights apart (E4.1): AdamW's two fp32
// moments, bitsandbytes' block-wise 8-bit moments, one fp32 moment (SGD momentum, Adafactor).
inline constexpr double k_adamw_state_bytes = 8.0;
inline constexpr double k_adamw_8bit_state_bytes = 2.0;
inline constexpr double k_one_moment_state_bytes = 4.0;
// Bytes of a 16-bit value (activations, weights sent back after an offloaded update).
inline constexpr double k_half_bytes = 2.0;
// ZeRO-Offload (E4.8): host memory traffic of one CPU Adam update per parameter (fp32 master,
// two moments and the gradient read; master, moments and the 16-bit weight written), and the
// host memory bandwidth per node (PLACEHOLDER).
inline constexpr double k_cpu_adam_bytes_per_param = 30.0;
inline constexpr double k_host_memory_gb_per_s = 100.0;
// Context parallelism (E5.1, E5.4): tried from this sequence length (PLACEHOLDER) up to this
// degree; three key/value collectives per layer per micro-batch.
inline constexpr double k_context_parallel_min_seq_len = 16384.0;
inline constexpr int k_max_context_parallel = 16;
inline constexpr double k_context_parallel_collectives = 3.0;
// MoE: all-to-alls per MoE layer per micro-batch, dispatch and combine, forward and backward.
inline constexpr double k_moe_all_to_alls = 4.0;

// Tensor-parallel degrees tried (E5.1).
inline constexpr std::array<int, 4> k_tensor_parallel_degrees = {1, 2, 4, 8};
// ZeRO-3 keeps two layers gathered; without layers, a tenth of the network (E4.2).
inline constexpr double k_zero3_gathered_layers = 2.0;
inline constexpr double k_zero3_gathered_share = 0.1;
// Share of gradient communication hidden behind compute (E5.4).
inline constexpr double k_comm_overlap = 0.8;
// Achieved share of a link's bandwidth (E5.3).
inline constexpr double k_link_efficiency = 0.8;
// Tokens per optimizer step by model size (E5.4): nanoGPT's and GPT-3's 0.5M below 1e9
// parameters, Llama 2's 4M up to 1e11, Llama 3 405B's 16M above.
inline constexpr double k_global_batch_tokens_large = 4'194'304.0;
inline constexpr double k_global_batch_tokens_small = 524'288.0;
inline constexpr double k_global_batch_tokens_huge = 16'777'216.0;
inline constexpr double k_huge_transformer_params = 1e11;
// Sequence length of a micro-batch when the workload gives none: GPT-3's and LLaMA's 2,048.
inline constexpr double k_default_seq_len = 2048.0;
// Interleaved 1F1B: model chunks per pipeline rank at most (E5.4).
inline constexpr int k_max_virtual_stages = 4;
// Modelled step efficiency (compute / step) of the runs the large-transformer MFU cells were
// measured on: Llama 2 7B and 70B and LLaMA 65B on 2,048 A100 model at 0.885-0.899 (E3.7).
inline constexpr double k_table_reference_efficiency = 0.89;
// Hidden size per layer of GPT-3's and Llama's shapes (h / L = 128), for the depth of a
// transformer given without a shape (E4.2).
inline constexpr double k_hidden_per_layer = 128.0;
// Adding GPUs stops helping when the next count gains less than this share of its proportional
// speed-up (E5.2).
inline constexpr double k_min_marginal_scaling = 0.5;
// ZeRO-3 communicates 1.5x the data of an all-reduce (Rajbhandari et al.).
inline constexpr double k_zero3_comm_factor = 1.5;
// Tensor-parallel all-reduces per layer per micro-batch: 2 forward + 2 backward.
inline constexpr double k_tp_allreduces = 4.0;

// Link bandwidths per direction when the catalog has no figure.
inline constexpr double k_default_network_gbps = 100.0;
inline constexpr double k_pcie3_gb_per_s = 16.0;
inline constexpr double k_pcie4_gb_per_s = 32.0;
inline constexpr double k_pcie5_gb_per_s = 64.0;

// Share of host RAM the page cache may hold for the dataset, and its read rate per node (E6).
inline constexpr double k_host_cache_share = 0.5;
inline constexpr double k_host_cache_gb_per_s = 10.0;
// Training data read throughput per node: remote storage, or local NVMe when the dataset fits.
inline constexpr double k_network_disk_gb_per_s = 0.131;
inline constexpr double k_nvme_gb_per_s = 2.0;
// Staging the dataset onto local NVMe from object storage, per node (E6).
inline constexpr double k_object_store_gb_per_s = 1.25;
// Data loading is the bottleneck when reading takes longer than this share of the training time.
inline constexpr double k_data_bottleneck_share = 0.8;

// Benchmark matching: distance of a spec the catalog lacks (E3.6).
inline constexpr double k_unknown_spec_distance = 10.0;

// Inference (E7): share of peak memory bandwidth decode reaches on one GPU, and the factors of
// quantised weights (gpt-fast, A100-80GB at batch 1).
inline constexpr double k_decode_bandwidth_efficiency = 0.68;
inline constexpr double k_bandwidth_factor_8bit = 0.77;
inline constexpr double k_bandwidth_factor_int4 = 0.62;
// Bytes per weight of the FP4 block formats: 4-bit E2M1 values plus one scale byte per block,
// FP8 E4M3 per 16 values (NVFP4) or E8M0 per 32 (MXFP4, OCP MX v1.0); NVFP4's per-tensor FP32
// scale is left out (E1).
inline constexpr double k_nvfp4_bytes_per_weight = 0.5 + 1.0 / 16.0;
inline constexpr double k_mxfp4_bytes_per_weight = 0.5 + 1.0 / 32.0;
// Tensor-parallel decode: two all-reduces per layer, each alpha(t) = k_allreduce_alpha_per_doubling
// x log2(t) (nccl-tests small messages on 8 NVLink GPUs: about 18.7 us) plus the synchronisation
// a framework adds per collective (fitted to gpt-fast's six TP rows, E7).
inline constexpr double k_tp_allreduces_per_layer = 2.0;
inline constexpr double k_allreduce_alpha_per_doubling_s = 6.2e-6;
inline constexpr double k_collective_sync_s = 10e-6;
// Prefill and batched-decode efficiency against the peak: k_prefill_mfu_max x n / (n + half)
// for n tokens in one forward pass; FP8 reaches k_prefill_fp8_factor of that against the FP8
// peak; every layer adds a launch overhead to a prefill (TensorRT-LLM first-token latencies).
// MoE expert layout (E7.4): one all-to-all dispatches each layer's tokens to their experts'
// GPUs and one combines the results [S-DEEPEP].
inline constexpr double k_moe_all_to_alls_per_layer = 2.0;
inline constexpr double k_prefill_mfu_max = 0.75;
inline constexpr double k_prefill_half_tokens = 128.0;
inline constexpr double k_prefill_fp8_factor = 0.60;
inline constexpr double k_prefill_layer_overhead_s = 75e-6;
// Serving engines (E7.3): throughput relative to the model as fitted (TensorRT-LLM and
// gpt-fast), by workload::Engine: generic and tensorrt-llm 1; vLLM 1,850 and SGLang 1,920 against
// TensorRT-LLM's 2,100 tokens/s (Llama 3.3 70B FP8 on one H100, 50 requests in flight); TGI 2,900
// against vLLM's 4,200 tokens/s (Llama 3 70B, 64 users, one RTX PRO 6000) times vLLM's factor.
inline constexpr std::array<double, 5> k_engine_speed{1.0, 1850.0 / 2100.0, 1920.0 / 2100.0, 1.0,
                                                      2900.0 / 4200.0 * 1850.0 / 2100.0};
// Continuous batching: most requests in flight per replica (vLLM's max_num_seqs default).
inline constexpr double k_default_max_batch = 256.0;
inline constexpr double k_custom_inference_mfu = 0.18;
// Queueing of fixed-cost requests (E7.2): the M/M/c wait scaled by (1 + cs^2) / 2 for the
// squared coefficient of variation cs^2 of the service time, 0 for a deterministic one
// (Allen-Cunneen approximation of M/G/c); the percentiles the targets are stated at.
inline constexpr double k_deterministic_wait_factor = 0.5;
inline constexpr double k_median = 0.5;
inline constexpr double k_p90 = 0.9;

} // namespace gpuplan::estimate::detail

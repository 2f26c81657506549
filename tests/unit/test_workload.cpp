#include "../support/diagnostics.hpp"
#include "codecs/workload_bundle.hpp"
#include "gpuplan/embedded.hpp"
#include "gpuplan/error.hpp"
#include "gpuplan/shipped.hpp"
#include "gpuplan/workload/reader.hpp"

#include <catch2/catch.hpp>

using namespace gpuplan;
using namespace gpuplan::workload;
using gpuplan::codecs::read_workload_bundle;
using gpuplan::codecs::write_workload_bundle;

namespace {

Workload read(const std::string& text) {
    return read_workload({"w.yaml", text});
}

// Every diagnostic of reading `text`, formatted; empty when it reads.
std::vector<std::string> problems(const std::string& text) {
    return test::input_problems([&] { return read(text); });
}

const std::string k_minimal = "schema_version: 1\nmodel:\n  params: 7B\ndata:\n  tokens: 2T\n";

} // namespace

TEST_CASE("a full workload file reads every key with SI numbers, durations and money",
          "[workload]") {
    const Workload w = read(R"(schema_version: 1
name: llama
description: one line
task: finetune
model:
  family: transformer
  params: 6.74e9
  active_params: 6B
  layers: 32
  hidden: 4096
  heads: 32
  kv_heads: 8
  seq_len: 4k
data:
  tokens: 2T
  epochs: 2
  dataset_gb: 150
training:
  precision: fp8
  optimizer: sgd
  method: lora
  sharding: fsdp
  micro_batch: 4
  activation_checkpointing: true
  mfu: 40%
schedule: {runs: 3, every_months: 2}
horizon_months: 3y
constraints:
  deadline: 30d
  budget: 250k
  providers: [aws, gcp]
  regions: us-east-1
  gpu_models: [A100-80GB, H100]
  gpu_count: 64
  max_gpus: 512
  interruptible: true
  purchase: [spot, on_demand, spot]
finance: {discount_rate: 8%, currency: CNY}
sources:
  - {title: A paper, url: https://example.com}
)");
    CHECK(w.name == "llama");
    CHECK(w.task == Task::finetune);
    CHECK(w.model.params == 6.74e9);
    CHECK(w.model.active_params == 6e9);
    CHECK(w.model.kv_heads == 8);
    CHECK(w.model.seq_len == 4000);
    CHECK(w.data.tokens == 2e12);
    CHECK(w.data.epochs == 2.0);
    CHECK(w.training.precision == catalog::Precision::fp8);
    CHECK(w.training.optimizer == Optimizer::sgd);
    CHECK(w.training.method == Method::lora);
    CHECK(w.training.sharding == Sharding::zero3);
    CHECK(w.training.micro_batch == 4);
    CHECK(w.training.recompute == workload::Recompute::full);
    CHECK(w.training.mfu == Approx(0.4));
    CHECK(w.schedule.runs == 3);
    CHECK(w.horizon_months == Approx(36.0));
    CHECK(w.constraints.deadline_hours == 720.0);
    // A bare budget takes finance.currency, read before the constraints.
    CHECK(w.constraints.budget == Money{250000.0, "CNY"});
    CHECK(w.constraints.regions == std::vector<std::string>{"us-east-1"});
    CHECK(w.constraints.purchase ==
          std::vector<PurchaseOption>{PurchaseOption::spot, PurchaseOption::on_demand});
    CHECK(w.finance.discount_rate == Approx(0.08));
    CHECK(w.sources.size() == 1);
}

TEST_CASE("an empty-ish workload takes the documented defaults and the file name", "[workload]") {
    const Workload w = read_workload({"dir/my-job.yaml", k_minimal});
    CHECK(w.name == "my-job");
    CHECK(w.task == Task::train);
    CHECK(w.training.precision == catalog::Precision::bf16);
    CHECK_FALSE(w.training.sharding.has_value()); // searched
    CHECK(w.inference.precision == catalog::Precision::fp16);
    CHECK(w.horizon_months == 36.0);
    CHECK(w.finance.currency == "USD");
    CHECK_FALSE(w.constraints.max_gpus.has_value());
    CHECK(missing_fields(w).empty());
}

TEST_CASE("every problem of a workload file is reported at once with its place", "[workload]") {
    CHECK(problems(R"(schema_version: 1
model:
  parms: 7B
  family: transformr
data:
  tokens: -5
training:
  micro_batch: 1.5
  mfu: 2
)") == std::vector<std::string>{
           "w.yaml:3:3: error: /model/parms: unknown key 'parms'; did you mean 'params'?",
           "w.yaml:4:11: error: /model/family: expected one of transformer, cnn or custom, "
           "got \"transformr\"; did you mean 'transformer'?",
           "w.yaml:3:3: error: /model: missing required key 'params'",
           "w.yaml:6:11: error: /data/tokens: expected a positive number, got -5",
           "w.yaml:8:16: error: /training/micro_batch: expected a whole number from 1 to "
           "10000000, got \"1.5\"",
           "w.yaml:9:8: error: /training/mfu: expected a fraction from 0.001 to 1 (0.4 or 40%), "
           "got "
           "\"2\""});
}

TEST_CASE("an unsupported schema_version names the supported range", "[workload]") {
    CHECK(problems("schema_version: 2\nmodel: {params: 1B}\n") ==
          std::vector<std::string>{"w.yaml:1:17: error: /schema_version: unsupported "
                                   "schema_version 2; this gpuplan reads workload schema_version "
                                   "1 to 1"});
}

TEST_CASE("sections that do not apply to the task are errors", "[workload]") {
    CHECK(problems("schema_version: 1\ntask: inference\nmodel: {params: 1B}\ntraining: {mfu: "
                   "0.3}\n") ==
          std::vector<std::string>{"w.yaml:4:11: error: /training: 'training' does not apply to "
                                   "task inference; use 'inference'"});
    CHECK(problems(k_minimal + "training: {method: lora}\n") ==
          std::vector<std::string>{"w.yaml:6:20: error: /training/method: method lora needs task "
                                   "finetune (the base model is frozen)"});
}

TEST_CASE("a sources entry needs a title and a url", "[workload]") {
    CHECK(problems(k_minimal + "sources:\n  - {title: x}\n") ==
          std::vector<std::string>{"w.yaml:7:5: error: /sources/0: missing required key 'url'"});
}

TEST_CASE("flags override the file and bad values name the field", "[workload]") {
    Workload w = read(k_minimal);
    WorkloadOverrides o;
    o.params = "13B";
    o.gpus = {"H100"};
    o.deadline = "2w";
    o.budget = "5000";
    o.currency = "EUR";
    o.precision = "fp8";
    o.horizon = "24";
    o.interruptible = true;
    apply_overrides(w, o);
    CHECK(w.model.params == 13e9);
    CHECK(w.constraints.gpu_models == std::vector<std::string>{"H100"});
    CHECK(w.constraints.deadline_hours == 336.0);
    CHECK(w.constraints.budget == Money{5000.0, "EUR"});
    CHECK(w.training.precision == catalog::Precision::fp8);
    CHECK(w.horizon_months == 24.0);
    CHECK(w.constraints.interruptible);

    auto error_of = [](WorkloadOverrides bad) {
        Workload copy;
        try {
            apply_overrides(copy, bad);
        } catch (const UsageError& e) {
            return std::string(e.what());
        }
        return std::string();
    };
    WorkloadOverrides bad;
    bad.params = "seven";
    CHECK(error_of(bad) == "/model/params: expected a number from 1 such as 7B, 340M or 2T, "
                           "got 'seven'");
    bad = {};
    bad.precision = "int4";
    CHECK(error_of(bad) == "/training/precision: expected fp32, tf32, fp16, bf16 or fp8 "
                           "(training), got 'int4'");
    bad = {};
    bad.gpu_count = "0";
    CHECK(error_of(bad) ==
          "/constraints/gpu_count: expected a whole number from 1 to 1000000, got '0'");
    bad = {};
    bad.method = "lora";
    CHECK(error_of(bad) == "/training/method: lora needs task finetune (the base model is frozen)");
    bad = {};
    bad.gpu_count = "2000";
    CHECK(error_of(bad) == "/constraints/gpu_count: 2000 exceeds max_gpus (1024, the default; "
                           "raise it with /constraints/max_gpus)");
    bad = {};
    bad.mfu = "2";
    try {
        Workload copy;
        apply_overrides(copy, bad);
        FAIL("no error");
    } catch (const FieldError& e) {
        CHECK(e.path() == "/training/mfu");
        CHECK(e.message() == "expected a fraction from 0.001 to 1, got '2'");
    }
}

TEST_CASE("a workload from flags says precisely what is missing", "[workload]") {
    WorkloadOverrides o;
    o.params = "7B";
    const Workload w = workload_from_flags(o);
    CHECK(missing_fields(w) ==
          std::vector<std::string>{"data.tokens, or data.samples with model.seq_len"});
    // A hint names what sets each field.
    const FieldHint hint = [](std::string_view path) {
        return path == "/data/tokens" ? std::string_view("-t") : std::string_view();
    };
    CHECK(missing_fields(w, hint) ==
          std::vector<std::string>{"data.tokens (-t), or data.samples with model.seq_len"});
    WorkloadOverrides cnn;
    cnn.family = "cnn";
    CHECK(missing_fields(workload_from_flags(cnn)) ==
          std::vector<std::string>{"model.params", "data.samples",
                                   "model.flops_per_sample or model.reference (a cnn model's "
                                   "forward FLOPs per sample)"});
    CHECK_THROWS_AS(workload_from_flags({}), UsageError);
}

TEST_CASE("every shipped preset reads, is complete and matches its file name", "[workload]") {
    std::vector<std::pair<std::string, std::string>> files;
    for (const embedded::File& file : embedded::files()) {
        files.emplace_back(std::string(file.name), std::string(file.text));
    }
    CHECK(shipped::validate_shipped(files).empty());
}

TEST_CASE("a bad preset fails the shipped-file validation", "[workload]") {
    const std::vector<std::pair<std::string, std::string>> files{
        {"presets/good.yaml",
         "schema_version: 1\nname: good\ndescription: d\n" + k_minimal.substr(18)},
        {"presets/bad.yaml", "schema_version: 1\nname: other\nmodel: {params: 1B, layer: 2}\n"}};
    std::vector<std::string> out;
    for (const Diagnostic& d : shipped::validate_shipped(files)) {
        out.push_back(format_diagnostic(d));
    }
    CHECK(out == std::vector<std::string>{
                     "catalog/presets/bad.yaml:3:21: error: /model/layer: unknown key 'layer'; "
                     "did you mean 'layers'?"});
}

TEST_CASE("every shipped preset is compiled into the bundle and decodes to what its YAML reads",
          "[workload]") {
    std::size_t presets = 0;
    for (const embedded::File& file : embedded::files()) {
        if (shipped::kind_of(file.name) != shipped::FileKind::preset) {
            continue;
        }
        ++presets;
        INFO(file.name);
        const auto compiled = embedded::compiled(file.name);
        REQUIRE(compiled.has_value());
        const Workload from_yaml =
            read_workload({"catalog/" + std::string(file.name), std::string(file.text)});
        CHECK(read_workload_bundle(*compiled) == from_yaml);
        CHECK(write_workload_bundle(from_yaml) == *compiled);
    }
    CHECK(presets >= 10);
}

TEST_CASE("a compiled workload that is cut short or corrupt is refused", "[workload]") {
    Workload w;
    w.name = "x";
    w.constraints.budget = Money{1000.0, "CNY"};
    w.constraints.purchase = {PurchaseOption::spot};
    w.sources = {{"t", "u"}};
    const std::string bytes = write_workload_bundle(w);
    CHECK(read_workload_bundle(bytes) == w);
    for (std::size_t size = 0; size < bytes.size(); ++size) {
        CHECK_THROWS_AS(read_workload_bundle(bytes.substr(0, size)), RuntimeError);
    }
    CHECK_THROWS_AS(read_workload_bundle(bytes + "x"), RuntimeError);
    // Every single-byte corruption decodes to some workload or is refused, never undefined.
    for (std::size_t at = 0; at < bytes.size(); ++at) {
        std::string corrupt = bytes;
        corrupt[at] = static_cast<char>(corrupt[at] ^ 0x5a);
        try {
            (void)read_workload_bundle(corrupt);
        } catch (const RuntimeError&) {
        }
    }
}

TEST_CASE("a P90 length below its mean is an error at the key", "[workload]") {
    CHECK(problems("schema_version: 1\ntask: inference\nmodel: {params: 1B}\ninference:\n"
                   "  input_tokens: 512\n  input_tokens_p90: 100\n") ==
          std::vector<std::string>{"w.yaml:6:21: error: /inference/input_tokens_p90: "
                                   "input_tokens_p90 (100) is below the mean input_tokens (512)"});
}

TEST_CASE("the memory and layout keys of training and the MoE keys of the model read",
          "[workload]") {
    const Workload w = read(R"(schema_version: 1
model:
  params: 46.7B
  active_params: 12.9B
  experts: 8
  experts_per_token: 2
data:
  tokens: 1T
training:
  optimizer: adamw_8bit
  sharding: auto
  activation_checkpointing: selective
  fp32_gradients: true
  offload: optimizer
  context_parallel: 4
  expert_parallel: 8
)");
    CHECK(w.model.experts == 8);
    CHECK(w.model.experts_per_token == 2);
    CHECK(w.training.optimizer == Optimizer::adamw_8bit);
    CHECK_FALSE(w.training.sharding.has_value());
    CHECK(w.training.recompute == Recompute::selective);
    CHECK(w.training.fp32_gradients);
    CHECK(w.training.offload == Offload::optimizer);
    CHECK(w.training.context_parallel == 4);
    CHECK(w.training.expert_parallel == 8);
    CHECK(read(k_minimal + "training:\n  activation_checkpointing: true\n").training.recompute ==
          Recompute::full);
    CHECK(read(k_minimal + "training:\n  activation_checkpointing: false\n").training.recompute ==
          Recompute::none);
}

TEST_CASE("MoE keys that cannot describe a mixture of experts are errors", "[workload]") {
    const std::string head = "schema_version: 1\ndata:\n  tokens: 1T\nmodel:\n  params: 46.7B\n";
    CHECK(problems(head + "  active_params: 12.9B\n  experts: 8\n") ==
          std::vector<std::string>{
              "w.yaml:7:12: error: /model/experts: experts and experts_per_token go together"});
    CHECK(problems(head + "  active_params: 12.9B\n  experts: 8\n  experts_per_token: 8\n") ==
          std::vector<std::string>{"w.yaml:8:22: error: /model/experts_per_token: "
                                   "experts_per_token (8) must be below experts (8)"});
    CHECK(problems(head + "  experts: 8\n  experts_per_token: 2\n") ==
          std::vector<std::string>{"w.yaml:6:12: error: /model/experts: a mixture of experts "
                                   "needs active_params below params"});
    CHECK(problems(head + "  active_params: 1B\n  experts: 8\n  experts_per_token: 2\n") ==
          std::vector<std::string>{
              "w.yaml:6:18: error: /model/active_params: active_params (1e+09) is below the 2 "
              "routed experts a token uses (7.61667e+09 parameters each, from params and "
              "experts)"});
    CHECK(problems(k_minimal + "training:\n  activation_checkpointing: some\n").size() == 1);
}

TEST_CASE("stages read in order and give data.tokens their sum", "[workload]") {
    const std::string head = "schema_version: 1\nmodel:\n  params: 8B\n  seq_len: 8192\n";
    const Workload w = read(head + R"(stages:
  - name: pre-training
    tokens: 15T
  - name: long-context
    tokens: 800B
    seq_len: 128k
    global_batch_tokens: 16M
)");
    REQUIRE(w.stages.size() == 2);
    CHECK(w.stages[0].name == "pre-training");
    CHECK(w.stages[0].tokens == 15e12);
    CHECK_FALSE(w.stages[0].seq_len.has_value());
    CHECK(w.stages[1].seq_len == 128000);
    CHECK(w.stages[1].global_batch_tokens == 16e6);
    CHECK(w.data.tokens == Approx(15.8e12));
    CHECK(problems(head + "data:\n  tokens: 1T\nstages:\n  - name: a\n    tokens: 2T\n") ==
          std::vector<std::string>{"w.yaml:8:3: error: /stages: the stages' tokens add up to "
                                   "2e+12, but data.tokens is 1e+12; give one or make them "
                                   "agree"});
    CHECK(problems(head + "stages:\n  - name: a\n") ==
          std::vector<std::string>{"w.yaml:6:5: error: /stages/0: missing required key 'tokens'"});
    CHECK(problems("schema_version: 1\ntask: inference\nmodel:\n  params: 8B\nstages:\n  - name: "
                   "a\n    tokens: 1T\n")
              .size() == 1);
}

TEST_CASE("mean_seq_len is a transformer's and not above seq_len", "[workload]") {
    const std::string head = "schema_version: 1\nmodel:\n  params: 340M\n  seq_len: 512\n";
    const Workload w = read(head + "data:\n  samples: 1M\n  mean_seq_len: 180\n  packing: false\n");
    CHECK(w.data.mean_seq_len == 180.0);
    CHECK_FALSE(w.data.packing);
    CHECK(problems(head + "data:\n  samples: 1M\n  mean_seq_len: 600\n") ==
          std::vector<std::string>{
              "w.yaml:7:17: error: /data/mean_seq_len: mean_seq_len (600) exceeds model.seq_len "
              "(512)"});
}

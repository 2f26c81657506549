#include "workload/fields.hpp"

#include "gpuplan/purchase.hpp"

#include <algorithm>

namespace gpuplan::workload::fields {

namespace {

const std::vector<std::string_view> k_task_names{"train", "finetune", "inference"};
const std::vector<std::string_view> k_family_names{"transformer", "cnn", "custom"};
const std::vector<std::string_view> k_training_precisions{"fp32", "tf32", "fp16", "bf16", "fp8"};
const std::vector<std::string_view> k_inference_precisions{"fp16", "bf16",  "fp8",  "int8",
                                                           "int4", "nvfp4", "mxfp4"};
const std::vector<std::string_view> k_engine_names{"generic", "vllm", "sglang", "tensorrt-llm",
                                                   "tgi"};
const std::vector<std::string_view> k_optimizer_names{"adamw", "sgd", "adafactor", "adamw_8bit"};
const std::vector<std::string_view> k_method_names{"full", "lora", "qlora"};
const std::vector<std::string_view> k_sharding_names{"none", "zero1", "zero2", "zero3", "fsdp"};

const std::vector<std::string_view> k_purchase_names = [] {
    std::vector<std::string_view> out;
    out.reserve(k_all_purchase_options.size());
    for (PurchaseOption option : k_all_purchase_options) {
        out.push_back(to_string(option));
    }
    return out;
}();

} // namespace

const ChoiceField k_task{"/task", k_task_names};
const ChoiceField k_family{"/model/family", k_family_names};
const ChoiceField k_training_precision{"/training/precision", k_training_precisions};
const ChoiceField k_inference_precision{"/inference/precision", k_inference_precisions};
const ChoiceField k_engine{"/inference/engine", k_engine_names};
const ChoiceField k_optimizer{"/training/optimizer", k_optimizer_names};
const ChoiceField k_method{"/training/method", k_method_names};
const ChoiceField k_sharding{"/training/sharding", k_sharding_names};
const ChoiceField k_purchase{"/constraints/purchase", k_purchase_names};

std::string_view hint_of(std::string_view path, FieldHint hint) {
    return hint != nullptr ? hint(path) : std::string_view();
}

std::string dotted(std::string_view path) {
    std::string out(path.substr(1));
    std::replace(out.begin(), out.end(), '/', '.');
    return out;
}

} // namespace gpuplan::workload::fields

namespace gpuplan::workload {

std::vector<std::string_view> field_choices(std::string_view path) {
    for (const fields::ChoiceField* field :
         {&fields::k_task, &fields::k_family, &fields::k_training_precision,
          &fields::k_inference_precision, &fields::k_optimizer, &fields::k_method,
          &fields::k_sharding, &fields::k_purchase}) {
        if (field->path != path) {
            continue;
        }
        std::vector<std::string_view> out;
        if (field == &fields::k_sharding) {
            out.push_back(fields::k_sharding_auto);
        }
        out.insert(out.end(), field->choices.begin(), field->choices.end());
        return out;
    }
    return {};
}

} // namespace gpuplan::workload

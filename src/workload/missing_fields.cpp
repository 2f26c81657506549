#include "gpuplan/workload/reader.hpp"
#include "workload/fields.hpp"

#include <string>
#include <vector>

namespace gpuplan::workload {

namespace {

// The field at `path` as a missing item names it (`model.params`), followed by `hint`'s name for
// it in parentheses when it has one.
std::string field_named(std::string_view path, FieldHint hint) {
    std::string out = fields::dotted(path);
    const std::string_view name = fields::hint_of(path, hint);
    if (!name.empty()) {
        out += " (";
        out += name;
        out += ')';
    }
    return out;
}

// A cnn or custom model's forward FLOPs: no flag sets them.
std::string flops_item(const Model& model) {
    return "model.flops_per_sample or model.reference (a " + std::string(to_string(model.family)) +
           " model's forward FLOPs per sample)";
}

bool lacks_flops(const Model& model) {
    return !model.flops_per_sample && model.reference.empty();
}

} // namespace

std::vector<std::string> missing_fields(const Workload& workload, FieldHint hint) {
    std::vector<std::string> missing;
    const Model& model = workload.model;
    if (model.params <= 0.0) {
        missing.push_back(field_named(fields::k_params.path, hint));
    }
    const bool transformer = model.family == Family::transformer;
    if (workload.task == Task::inference) {
        if (!transformer && lacks_flops(model)) {
            missing.push_back(flops_item(model));
        }
        return missing;
    }
    if (transformer) {
        if (!workload.data.tokens && !(workload.data.samples && model.seq_len)) {
            missing.push_back(field_named(fields::k_tokens.path, hint) + ", or " +
                              field_named(fields::k_samples.path, hint) + " with model.seq_len");
        }
        return missing;
    }
    if (!workload.data.samples) {
        missing.push_back(field_named(fields::k_samples.path, hint));
    }
    if (lacks_flops(model)) {
        missing.push_back(flops_item(model));
    }
    return missing;
}

} // namespace gpuplan::workload

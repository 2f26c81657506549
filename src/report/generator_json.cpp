#include "report/generator_json.hpp"

namespace gpuplan::report {

void put_generator(nlohmann::ordered_json& out, const GeneratorInfo& generator) {
    out["generator"] = {{"name", generator.name}, {"version", generator.version}};
    put_generated_at(out, generator);
}

void put_generated_at(nlohmann::ordered_json& out, const GeneratorInfo& generator) {
    if (!generator.generated_at.empty()) {
        out["generated_at"] = generator.generated_at;
    }
}

} // namespace gpuplan::report

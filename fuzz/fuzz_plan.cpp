// Fuzzes the plan JSON reader behind `gpuplan check`: any bytes give a Plan or an InputError,
// never a crash, hang or other exception; the figures of an accepted plan are finite.

#include "gpuplan/error.hpp"
#include "gpuplan/gate/gate.hpp"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    try {
        const gpuplan::gate::Plan plan = gpuplan::gate::read_plan("fuzz.json", text);
        if ((plan.budget && !std::isfinite(*plan.budget)) ||
            (plan.deadline_hours && !std::isfinite(*plan.deadline_hours))) {
            std::abort();
        }
    } catch (const gpuplan::InputError&) {
    }
    return 0;
}

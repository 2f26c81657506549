// Fuzzes the decision tree YAML reader against the embedded catalog: any bytes give a list of
// diagnostics (or none), never a crash, hang or escaped exception; a tree that validates loads.

#include "gpuplan/decide/tree.hpp"
#include "gpuplan/embedded.hpp"
#include "gpuplan/error.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const gpuplan::TextFile file{"fuzz.yaml",
                                 std::string(reinterpret_cast<const char*>(data), size)};
    const gpuplan::catalog::Catalog& catalog = gpuplan::embedded::catalog();
    if (gpuplan::decide::validate_tree(file, &catalog).empty()) {
        try {
            (void)gpuplan::decide::read_tree(file, &catalog);
        } catch (const gpuplan::InputError&) {
            std::abort(); // validate_tree and read_tree disagree
        }
    }
    return 0;
}

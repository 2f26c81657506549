// Fuzzes the catalog YAML reader: any bytes must give a list of diagnostics (or none), never a
// crash, an escaped exception, a hang or unbounded memory. A document that validates must also
// load.

#include "gpuplan/catalog/loader.hpp"
#include "gpuplan/error.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::vector<gpuplan::TextFile> files{
        {"fuzz.yaml", std::string(reinterpret_cast<const char*>(data), size)}};
    const std::vector<gpuplan::Diagnostic> problems = gpuplan::catalog::validate_catalog(files);
    if (problems.empty()) {
        try {
            (void)gpuplan::catalog::load_catalog(files);
        } catch (const gpuplan::InputError&) {
            std::abort(); // validate_catalog and load_catalog disagree
        }
    }
    return 0;
}

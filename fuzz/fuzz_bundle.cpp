// Fuzzes the embedded-bundle decoder: bytes that are not a bundle of this build's format must be
// refused with RuntimeError, never read out of bounds or allocate without limit. A decoded bundle
// must survive a write/read round trip.

#include "gpuplan/catalog/bundle.hpp"
#include "gpuplan/error.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view bytes(reinterpret_cast<const char*>(data), size);
    try {
        const gpuplan::catalog::BundleView view = gpuplan::catalog::read_bundle(bytes);
        std::vector<std::pair<std::string, std::string>> files;
        for (const auto& file : view.files) {
            files.emplace_back(std::string(file.name), std::string(file.text));
        }
        const std::string again = gpuplan::catalog::write_bundle(view.catalog, files);
        const gpuplan::catalog::BundleView reread = gpuplan::catalog::read_bundle(again);
        if (reread.files.size() != view.files.size()) {
            std::abort();
        }
    } catch (const gpuplan::RuntimeError&) {
    }
    return 0;
}

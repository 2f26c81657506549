// Fuzzes the CSV price-feed readers: the RFC 4180 record reader on its own, then the SkyPilot
// feed reader against the embedded catalog. Any bytes give records and diagnostics or an
// InputError, never a crash, hang or escaped exception; accepted prices are finite.

#include "feeds/csv.hpp"
#include "gpuplan/embedded.hpp"
#include "gpuplan/error.hpp"
#include "gpuplan/feeds/skypilot.hpp"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    gpuplan::DiagnosticSink sink;
    gpuplan::feeds::CsvReader reader(text, "fuzz.csv", sink);
    gpuplan::feeds::CsvRecord record;
    while (reader.next(record)) {
        if (record.fields.size() != record.places.size()) {
            std::abort();
        }
    }
    const gpuplan::catalog::Catalog& catalog = gpuplan::embedded::catalog();
    const std::vector<gpuplan::feeds::FeedFile> files{
        {"aws_vms.csv", text, gpuplan::Date{2026, 11, 29}}};
    try {
        const auto read = gpuplan::feeds::read_skypilot(files, {}, catalog.gpus, catalog.gpus);
        for (const auto& provider : read.overlay.providers) {
            for (const auto& instance : provider.instances) {
                for (const auto& price : instance.prices) {
                    if ((price.on_demand && !std::isfinite(*price.on_demand)) ||
                        (price.spot && !std::isfinite(*price.spot))) {
                        std::abort();
                    }
                }
            }
        }
    } catch (const gpuplan::InputError&) {
    }
    return 0;
}

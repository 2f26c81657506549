#include "report/catalog_json.hpp"

namespace gpuplan::report {

// The catalog block of docs/schema/common.schema.json.
nlohmann::ordered_json catalog_json(const recommend::CatalogInfo& info) {
    nlohmann::ordered_json out;
    out["digest"] = info.digest;
    out["as_of"] = info.newest.empty()
                       ? nlohmann::ordered_json(nullptr)
                       : nlohmann::ordered_json{{"oldest", info.oldest}, {"newest", info.newest}};
    out["offers"] = info.offers;
    if (info.cache) {
        out["cache"] = {{"file", info.cache->file},
                        {"downloaded_at", info.cache->downloaded_at},
                        {"source", info.cache->source},
                        {"providers", info.cache->providers}};
    }
    return out;
}

} // namespace gpuplan::report

#pragma once
// Downloads over HTTP(S) with libcurl, the only code that uses it (`gpuplan catalog update`).

#include "gpuplan/units.hpp"

#include <cstddef>
#include <functional>
#include <optional>
#include <string>

namespace gpuplan::cli {

// Bytes received so far and the size the server announced (0 when it announced none).
using DownloadProgress = std::function<void(std::size_t received, std::size_t total)>;

struct DownloadOptions {
    // Give up when connecting takes longer, or when no byte arrives for this long.
    long timeout_seconds = 30;
    // Give up on a whole download after this long, however it progresses.
    long total_timeout_seconds = 600;
    // Give up when fewer bytes than this arrive each second for timeout_seconds.
    long min_bytes_per_second = 1;
    std::size_t max_bytes = 0; // refuse a larger body; 0 = no limit
    DownloadProgress progress; // called as bytes arrive; may be empty
};

// True for a URL gpuplan downloads from: `http://` or `https://` (case-insensitive).
[[nodiscard]] bool is_http_url(const std::string& url);

// A 200 response: its body and the day of its `Last-Modified` header (UTC), if it sent one.
struct Downloaded {
    std::string body;
    std::optional<Date> last_modified;
};

// The response to GET `url` (redirects followed, http and https only, a proxy from the usual
// environment variables). Throws RuntimeError naming the URL and the reason: the server's status
// (`HTTP 404`), a body cut short of its announced length, a timeout, a refused connection, a body
// larger than max_bytes.
[[nodiscard]] Downloaded download(const std::string& url, const DownloadOptions& options);

} // namespace gpuplan::cli

#include "cli/http.hpp"

#include "gpuplan/error.hpp"

#include <algorithm>
#include <array>
#include <ctime>
#include <curl/curl.h>
#include <dlfcn.h>
#include <fmt/format.h>
#include <memory>
#include <string_view>

namespace gpuplan::cli {

namespace {

// libcurl, loaded by the first download. Linked into the executable, it and the thirty libraries
// it needs (TLS, Kerberos, LDAP, IDN, ...) would load at every start-up: `gpuplan --version` took
// 2.3 times as long. The functions are the ones <curl/curl.h> declares, looked up by name.
struct CurlApi {
    decltype(&curl_global_init) global_init = nullptr;
    decltype(&curl_global_cleanup) global_cleanup = nullptr;
    decltype(&curl_easy_init) easy_init = nullptr;
    decltype(&curl_easy_cleanup) easy_cleanup = nullptr;
    decltype(&curl_easy_setopt) easy_setopt = nullptr;
    decltype(&curl_easy_perform) easy_perform = nullptr;
    decltype(&curl_easy_getinfo) easy_getinfo = nullptr;
    decltype(&curl_easy_strerror) easy_strerror = nullptr;
    std::string error; // why it could not be loaded; empty when it was
};

template <class F> void look_up(void* library, const char* name, F& function, std::string& error) {
    function = reinterpret_cast<F>(::dlsym(library, name));
    if (function == nullptr && error.empty()) {
        error = fmt::format("libcurl has no function {}", name);
    }
}

CurlApi load_curl() {
    CurlApi api;
    // The library of Debian's libcurl4 (what libcurl4-openssl-dev builds against), else the
    // GnuTLS flavour with the same interface. Never unloaded.
    void* library = ::dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (library == nullptr) {
        library = ::dlopen("libcurl-gnutls.so.4", RTLD_NOW | RTLD_LOCAL);
    }
    if (library == nullptr) {
        const char* why = ::dlerror();
        api.error = fmt::format("cannot load libcurl ({}); install the libcurl4 package",
                                why != nullptr ? why : "libcurl.so.4 not found");
        return api;
    }
    look_up(library, "curl_global_init", api.global_init, api.error);
    look_up(library, "curl_global_cleanup", api.global_cleanup, api.error);
    look_up(library, "curl_easy_init", api.easy_init, api.error);
    look_up(library, "curl_easy_cleanup", api.easy_cleanup, api.error);
    look_up(library, "curl_easy_setopt", api.easy_setopt, api.error);
    look_up(library, "curl_easy_perform", api.easy_perform, api.error);
    look_up(library, "curl_easy_getinfo", api.easy_getinfo, api.error);
    look_up(library, "curl_easy_strerror", api.easy_strerror, api.error);
    return api;
}

// libcurl's functions and process-wide state, set up on the first download and released at exit.
class Curl {
public:
    Curl() : m_api(load_curl()) {
        if (m_api.error.empty()) {
            const CURLcode code = m_api.global_init(CURL_GLOBAL_DEFAULT);
            if (code != CURLE_OK) {
                m_api.error = fmt::format("cannot start libcurl: {}", m_api.easy_strerror(code));
            }
        }
    }
    ~Curl() {
        if (m_api.error.empty()) {
            m_api.global_cleanup();
        }
    }
    Curl(const Curl&) = delete;
    Curl& operator=(const Curl&) = delete;
    [[nodiscard]] const CurlApi& api() const { return m_api; }

private:
    CurlApi m_api;
};

struct Transfer {
    const DownloadOptions& options;
    std::string body;
    bool too_large = false;
};

std::size_t on_data(char* data, std::size_t size, std::size_t count, void* user) {
    auto* transfer = static_cast<Transfer*>(user);
    const std::size_t bytes = size * count;
    const std::size_t limit = transfer->options.max_bytes;
    if (limit != 0 && bytes > limit - std::min(limit, transfer->body.size())) {
        transfer->too_large = true;
        return 0; // ends the transfer with CURLE_WRITE_ERROR
    }
    transfer->body.append(data, bytes);
    return bytes;
}

int on_progress(void* user, curl_off_t total, curl_off_t received, curl_off_t /*unused*/,
                curl_off_t /*unused*/) {
    const auto* transfer = static_cast<const Transfer*>(user);
    transfer->options.progress(static_cast<std::size_t>(received), static_cast<std::size_t>(total));
    return 0;
}

void set_options(const CurlApi& api, CURL* curl, const std::string& url, Transfer& transfer,
                 char* error_buffer) {
    const DownloadOptions& options = transfer.options;
    const auto set = api.easy_setopt;
    set(curl, CURLOPT_URL, url.c_str());
    set(curl, CURLOPT_ERRORBUFFER, error_buffer);
    set(curl, CURLOPT_NOSIGNAL, 1L);
    set(curl, CURLOPT_PROTOCOLS_STR, "http,https");
    set(curl, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
    set(curl, CURLOPT_FOLLOWLOCATION, 1L);
    set(curl, CURLOPT_MAXREDIRS, 5L);
    set(curl, CURLOPT_ACCEPT_ENCODING, ""); // whatever this libcurl decodes
    set(curl, CURLOPT_USERAGENT, "gpuplan/" GPUPLAN_VERSION);
    set(curl, CURLOPT_CONNECTTIMEOUT, options.timeout_seconds);
    set(curl, CURLOPT_LOW_SPEED_LIMIT, options.min_bytes_per_second);
    set(curl, CURLOPT_LOW_SPEED_TIME, options.timeout_seconds);
    set(curl, CURLOPT_TIMEOUT, options.total_timeout_seconds);
    if (options.max_bytes != 0) {
        set(curl, CURLOPT_MAXFILESIZE_LARGE, static_cast<curl_off_t>(options.max_bytes));
    }
    set(curl, CURLOPT_FILETIME, 1L); // the Last-Modified header, for the prices' date
    set(curl, CURLOPT_WRITEFUNCTION, on_data);
    set(curl, CURLOPT_WRITEDATA, &transfer);
    if (options.progress) {
        set(curl, CURLOPT_NOPROGRESS, 0L);
        set(curl, CURLOPT_XFERINFOFUNCTION, on_progress);
        set(curl, CURLOPT_XFERINFODATA, &transfer);
    }
}

// Why a transfer failed, in words: libcurl's own message and its details.
std::string failure(const CurlApi& api, CURLcode code, const char* details,
                    const Transfer& transfer) {
    if (transfer.too_large || code == CURLE_FILESIZE_EXCEEDED) {
        return fmt::format("the file is larger than {} bytes", transfer.options.max_bytes);
    }
    const std::string_view detail(details);
    std::string out = api.easy_strerror(code);
    if (!detail.empty()) {
        out += fmt::format(" ({})", detail.substr(0, detail.find_last_not_of('\n') + 1));
    }
    if (code == CURLE_OPERATION_TIMEDOUT) {
        out = "timed out: " + out;
    } else if (code == CURLE_PARTIAL_FILE) {
        out = "the download was cut short: " + out;
    }
    return out;
}

} // namespace

bool is_http_url(const std::string& url) {
    auto starts = [&](std::string_view prefix) {
        if (url.size() <= prefix.size()) {
            return false;
        }
        for (std::size_t i = 0; i < prefix.size(); ++i) {
            const char c = url[i];
            if ((c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c) != prefix[i]) {
                return false;
            }
        }
        return true;
    };
    return starts("http://") || starts("https://");
}

Downloaded download(const std::string& url, const DownloadOptions& options) {
    static const Curl curl_library;
    const CurlApi& api = curl_library.api();
    if (!api.error.empty()) {
        throw RuntimeError(fmt::format("{}: error: {}", url, api.error));
    }
    const std::unique_ptr<CURL, decltype(api.easy_cleanup)> curl(api.easy_init(), api.easy_cleanup);
    if (!curl) {
        throw RuntimeError(fmt::format("{}: error: cannot start a libcurl transfer", url));
    }
    Transfer transfer{options, {}, false};
    std::array<char, CURL_ERROR_SIZE> error_buffer{};
    set_options(api, curl.get(), url, transfer, error_buffer.data());
    const CURLcode code = api.easy_perform(curl.get());
    if (code != CURLE_OK) {
        throw RuntimeError(
            fmt::format("{}: error: {}", url, failure(api, code, error_buffer.data(), transfer)));
    }
    long status = 0;
    api.easy_getinfo(curl.get(), CURLINFO_RESPONSE_CODE, &status);
    if (status != 200) {
        throw RuntimeError(fmt::format("{}: error: the server answered HTTP {}", url, status));
    }
    Downloaded result{std::move(transfer.body), std::nullopt};
    curl_off_t modified = -1;
    if (api.easy_getinfo(curl.get(), CURLINFO_FILETIME_T, &modified) == CURLE_OK && modified >= 0) {
        result.last_modified = date_of_unix_seconds(static_cast<std::int64_t>(modified));
    }
    return result;
}

} // namespace gpuplan::cli

#include "cli/logging.hpp"

#include "gpuplan/report/escape.hpp"

#include <mutex>
#include <ostream>
#include <spdlog/sinks/base_sink.h>
#include <spdlog/spdlog.h>
#include <string_view>

namespace gpuplan::cli {

namespace {

// Log lines on a stream, flushed each, with control characters from names in them escaped.
class EscapingSink : public spdlog::sinks::base_sink<std::mutex> {
public:
    explicit EscapingSink(std::ostream& out) : m_out(out) {}

protected:
    void sink_it_(const spdlog::details::log_msg& message) override {
        spdlog::memory_buf_t formatted;
        formatter_->format(message, formatted);
        m_out << report::escape_control(std::string_view(formatted.data(), formatted.size()), true);
        m_out.flush();
    }
    void flush_() override { m_out.flush(); }

private:
    std::ostream& m_out;
};

} // namespace

// spdlog's default logger writes to stdout; gpuplan's logs go to the run's error stream.
void set_up_logging(Io& io, int verbosity) {
    auto sink = std::make_shared<EscapingSink>(io.err);
    auto logger = std::make_shared<spdlog::logger>("gpuplan", sink);
    logger->set_pattern("gpuplan: %l: %v");
    logger->set_level(verbosity < 0    ? spdlog::level::err
                      : verbosity == 0 ? spdlog::level::warn
                      : verbosity == 1 ? spdlog::level::info
                                       : spdlog::level::debug);
    spdlog::set_default_logger(logger);
}

} // namespace gpuplan::cli

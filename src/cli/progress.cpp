#include "cli/progress.hpp"

#include <fmt/format.h>
#include <unistd.h>

namespace gpuplan::cli {

namespace {

std::mutex& phase_mutex() {
    static std::mutex mutex;
    return mutex;
}

std::string& phase_text() {
    static std::string phase;
    return phase;
}

std::string current_phase() {
    const std::lock_guard lock(phase_mutex());
    return phase_text();
}

constexpr std::chrono::milliseconds k_refresh{500};

} // namespace

Progress::Progress(int fd, bool enabled, std::chrono::milliseconds delay)
    : m_fd(fd), m_delay(delay), m_start(std::chrono::steady_clock::now()) {
    if (enabled) {
        m_thread = std::thread([this] { loop(); });
    }
}

Progress::~Progress() {
    if (!m_thread.joinable()) {
        return;
    }
    {
        const std::lock_guard lock(m_mutex);
        m_done = true;
    }
    m_wake.notify_all();
    m_thread.join();
}

void Progress::set_phase(std::string_view phase) {
    const std::lock_guard lock(phase_mutex());
    phase_text() = phase;
}

void Progress::write_text(const std::string& text) const {
    std::size_t written = 0;
    while (written < text.size()) {
        const ::ssize_t got = ::write(m_fd, text.data() + written, text.size() - written);
        if (got <= 0) {
            return; // a progress line is never worth an error
        }
        written += static_cast<std::size_t>(got);
    }
}

void Progress::loop() {
    std::unique_lock lock(m_mutex);
    if (m_wake.wait_for(lock, m_delay, [this] { return m_done; })) {
        return;
    }
    while (!m_done) {
        const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - m_start;
        const std::string phase = current_phase();
        write_text(fmt::format("\r\x1b[Kgpuplan: {}: {:.0f} s", phase.empty() ? "working" : phase,
                               elapsed.count()));
        m_shown = true;
        m_wake.wait_for(lock, k_refresh, [this] { return m_done; });
    }
    if (m_shown) {
        write_text("\r\x1b[K");
    }
}

} // namespace gpuplan::cli

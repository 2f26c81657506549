#pragma once
// A progress line on standard error while a run takes longer than a second on a terminal: the
// run's current phase (a PhaseTimer's name) and the seconds so far, rewritten in place twice a
// second and erased when the run ends, so a slow --simulate or a huge catalog is never a silent
// wait.

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>

namespace gpuplan::cli {

class Progress {
public:
    // Writes to `fd` (raw write(2), so it never shares a stream with the run) when `enabled`,
    // first after `delay`.
    explicit Progress(int fd, bool enabled,
                      std::chrono::milliseconds delay = std::chrono::milliseconds(1000));
    ~Progress();
    Progress(const Progress&) = delete;
    Progress& operator=(const Progress&) = delete;
    Progress(Progress&&) = delete;
    Progress& operator=(Progress&&) = delete;

    // The phase the line names (PhaseTimer sets it); kept for the whole process.
    static void set_phase(std::string_view phase);

private:
    void loop();
    void write_text(const std::string& text) const;

    int m_fd;
    std::chrono::milliseconds m_delay;
    std::chrono::steady_clock::time_point m_start;
    std::mutex m_mutex;
    std::condition_variable m_wake;
    bool m_done = false;
    bool m_shown = false;
    std::thread m_thread;
};

} // namespace gpuplan::cli

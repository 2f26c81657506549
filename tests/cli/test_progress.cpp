#include "cli/progress.hpp"

#include <catch2/catch.hpp>
#include <fcntl.h>
#include <string>
#include <thread>
#include <unistd.h>

namespace {

// What a Progress writing into a pipe printed while `hold` passed.
std::string progress_output(bool enabled, std::chrono::milliseconds delay,
                            std::chrono::milliseconds hold) {
    int fds[2] = {-1, -1};
    REQUIRE(::pipe(fds) == 0);
    // The phase is set before the line can first be written (a zero delay writes at once).
    gpuplan::cli::Progress::set_phase("recommend");
    {
        const gpuplan::cli::Progress progress(fds[1], enabled, delay);
        std::this_thread::sleep_for(hold);
    }
    ::close(fds[1]);
    std::string text;
    char buffer[256];
    for (::ssize_t got = 0; (got = ::read(fds[0], buffer, sizeof buffer)) > 0;) {
        text.append(buffer, static_cast<std::size_t>(got));
    }
    ::close(fds[0]);
    return text;
}

} // namespace

TEST_CASE("a run past its delay shows its phase on a progress line and erases it",
          "[cli][progress]") {
    using std::chrono::milliseconds;
    const std::string shown = progress_output(true, milliseconds(0), milliseconds(300));
    CHECK(shown.find("\r\x1b[Kgpuplan: recommend: 0 s") != std::string::npos);
    CHECK(shown.size() >= 3);
    CHECK(shown.substr(shown.size() - 4) == "\r\x1b[K"); // erased at the end
    // A run shorter than the delay, or not on a terminal, prints nothing.
    CHECK(progress_output(true, milliseconds(5000), milliseconds(10)).empty());
    CHECK(progress_output(false, milliseconds(0), milliseconds(50)).empty());
}

#pragma once
// Reading an input file or standard input with its limits: regular files only, the size checked
// before and while reading.

#include "gpuplan/limits.hpp"
#include "gpuplan/text_file.hpp"

#include <cstddef>
#include <ctime>
#include <string>
#include <utility>

namespace gpuplan::cli {

// The largest input file any command reads (docs/limits.md); YAML documents have a lower limit.
inline constexpr std::size_t k_max_input_bytes = limits::k_max_input_bytes;

// Reads a whole file, or standard input for `-`; throws RuntimeError naming the file and the
// reason (also for anything but a regular file: a FIFO, device or socket is refused without
// waiting for it), and InputError when it is larger than `max_bytes` (at most
// k_max_input_bytes; checked before reading, and while reading standard input, so an endless
// stdin stops at the limit of the kind of input it is).
[[nodiscard]] TextFile read_text_file(const std::string& path,
                                      std::size_t max_bytes = k_max_input_bytes);

// An input file opened by open_input: a regular file, its size and modification time.
struct InputFd {
    explicit InputFd(int descriptor) : fd(descriptor) {}
    InputFd(InputFd&& other) noexcept
        : fd(std::exchange(other.fd, -1)), size(other.size), modified(other.modified) {}
    InputFd& operator=(InputFd&&) = delete;
    InputFd(const InputFd&) = delete;
    InputFd& operator=(const InputFd&) = delete;
    ~InputFd();
    int fd = -1;
    std::size_t size = 0;
    std::time_t modified = 0;
};

// What a file that is not a regular file is, from its st_mode: `a FIFO`, `a character device`.
[[nodiscard]] std::string describe_file_type(unsigned mode);

// Opens `path` non-blocking and checks it as read_text_file does; throws like it.
[[nodiscard]] InputFd open_input(const std::string& path);

// Reads up to `capacity` bytes of `input` into `buffer`; returns how many. Throws RuntimeError.
[[nodiscard]] std::size_t read_input(const InputFd& input, char* buffer, std::size_t capacity,
                                     const std::string& path);

} // namespace gpuplan::cli

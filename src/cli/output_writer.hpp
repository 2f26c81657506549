#pragma once
// Every file gpuplan writes and its standard output: atomic, all-or-nothing file replacement that
// never follows a planted link, never replaces a device, FIFO, socket or folder, and leaves no
// temporary file behind on an error or SIGINT/SIGTERM/SIGHUP; and checked writes to stdout.

#include "gpuplan/error.hpp"

#include <iosfwd>
#include <span>
#include <string>
#include <string_view>

namespace gpuplan::cli {

// A write to standard output that failed (exit 1); the message carries the system's reason.
class OutputError : public RuntimeError {
public:
    using RuntimeError::RuntimeError;
};

// One file to write: its path as given and its whole contents.
struct OutputFile {
    std::string path;
    std::string text;
};

// Writes every file or none (docs/limits.md, "Output"): a symlink is written through to its final
// target; a target that exists but is not a regular file is refused; each file's text goes to a
// temporary `.gpuplan-XXXXXX` file created exclusively in the target's folder with the target's
// permission bits (new files: 0666 & ~umask), is synced, and is renamed over the target only once
// every temporary file is complete. Throws UsageError when two files resolve to one path and
// RuntimeError (naming the path and the system's reason) on any other failure, after removing
// the temporary files.
void write_files(std::span<const OutputFile> files);

// Writes `text` to `out` and flushes it; throws OutputError with the system's reason (errno as
// the failing write left it) when the stream fails.
void write_stream(std::ostream& out, std::string_view text);

// Flushes `out`; throws OutputError like write_stream when it fails or failed before.
void flush_stream(std::ostream& out);

} // namespace gpuplan::cli

#include "cli/common.hpp"

#include "cli/progress.hpp"
#include "gpuplan/error.hpp"
#include "gpuplan/report/escape.hpp"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <ctime>
#include <fmt/chrono.h>
#include <fmt/format.h>
#include <fstream>
#include <iostream>
#include <memory>
#include <spdlog/spdlog.h>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace gpuplan::cli {

void leave_to_exit(const void* value) {
    // The list itself is never destroyed: a static vector's destructor would run before the leak
    // checker looks at exit and leave the values unreachable.
    static auto* const kept = new std::vector<const void*>();
    kept->push_back(value);
}

std::string utc_timestamp() {
    const auto now =
        std::chrono::time_point_cast<std::chrono::seconds>(std::chrono::system_clock::now());
    return fmt::format("{:%Y-%m-%dT%H:%M:%SZ}",
                       fmt::gmtime(std::chrono::system_clock::to_time_t(now)));
}

void write_output(const CommonOptions& options, const std::string& raw, Io& io,
                  std::span<const OutputFile> also) {
    // Names from catalogs, feeds and workloads are in the text: no control character they carry
    // reaches a terminal (JSON escapes its own).
    const std::string text = options.format == report::Format::json
                                 ? raw
                                 : report::escape_output(raw, use_colour(options, io));
    if (options.output.empty() || options.output == "-") {
        write_files(also);
        write_stream(io.out, text);
        return;
    }
    std::vector<OutputFile> files(also.begin(), also.end());
    files.push_back({options.output, text});
    write_files(files);
}

std::string shell_command(std::span<const std::string> args) {
    std::string out = "gpuplan";
    for (const std::string& arg : args) {
        const bool plain = !arg.empty() && std::all_of(arg.begin(), arg.end(), [](char c) {
            return std::isalnum(static_cast<unsigned char>(c)) != 0 ||
                   std::string_view("_./=:%,+@-").find(c) != std::string_view::npos;
        });
        if (plain) {
            out += " " + arg;
            continue;
        }
        out += " '";
        for (const char c : arg) {
            out += c == '\'' ? std::string("'\\''") : std::string(1, c);
        }
        out += "'";
    }
    return out;
}

PhaseTimer::PhaseTimer(std::string phase)
    : m_phase(std::move(phase)), m_start(std::chrono::steady_clock::now()) {
    Progress::set_phase(m_phase);
}

PhaseTimer::~PhaseTimer() {
    const std::chrono::duration<double, std::milli> elapsed =
        std::chrono::steady_clock::now() - m_start;
    spdlog::debug("time: {} {:.1f} ms", m_phase, elapsed.count());
}

Date today(const Io& io) {
    if (io.today) {
        return *io.today;
    }
    return date_of_unix_seconds(std::time(nullptr)).value_or(Date{});
}

Date today(const Io& io, const std::optional<std::string>& option) {
    if (!option) {
        return today(io);
    }
    const auto parsed = parse_date(*option);
    if (!parsed) {
        throw UsageError(fmt::format("--today: expected a date YYYY-MM-DD, got '{}'", *option));
    }
    return *parsed;
}

// A COLUMNS value beyond this is not a terminal's width.
constexpr std::size_t k_max_columns = 100'000;

std::size_t terminal_columns(std::size_t ioctl_columns, const char* columns_env) {
    if (ioctl_columns > 0) {
        return ioctl_columns;
    }
    if (columns_env == nullptr || *columns_env == '\0') {
        return 0;
    }
    std::size_t value = 0;
    for (const char* c = columns_env; *c != '\0'; ++c) {
        if (*c < '0' || *c > '9' || value > k_max_columns) {
            return 0;
        }
        value = value * 10 + static_cast<std::size_t>(*c - '0');
    }
    return value;
}

bool use_colour(const CommonOptions& options, const Io& io) {
    if (options.color != "auto") {
        return options.color == "always";
    }
    return io.out_is_tty && !io.no_color_env && !io.term_dumb &&
           (options.output.empty() || options.output == "-");
}

GeneratorInfo generator_info(const CommonOptions& options) {
    return {"gpuplan", GPUPLAN_VERSION, options.generated_at};
}

} // namespace gpuplan::cli

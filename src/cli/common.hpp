#pragma once
// What every subcommand shares: options, streams, catalog loading and atomic output.

#include "cli/config.hpp"
#include "cli/output_writer.hpp"
#include "gpuplan/catalog/loader.hpp"
#include "gpuplan/catalog/staleness.hpp"
#include "gpuplan/feeds/skypilot.hpp"
#include "gpuplan/limits.hpp"
#include "gpuplan/recommend/recommend.hpp"
#include "gpuplan/report/catalog_view.hpp"
#include "gpuplan/report/output_format.hpp"

#include <chrono>
#include <cstddef>
#include <ctime>
#include <iosfwd>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace gpuplan::cli {

enum class Exit : int { ok = 0, runtime = 1, usage = 2, invalid_input = 3, gate_failed = 4 };

// The process environment the CLI sees; tests pass string streams.
struct Io {
    std::ostream& out;
    std::ostream& err;
    bool out_is_tty = false;
    bool no_color_env = false; // NO_COLOR is set
    std::optional<Date> today; // injected by tests; nullopt = the system clock (UTC)
    bool err_is_tty = false;   // stderr is a terminal (progress lines)
    // The price cache folder (price_cache.hpp, from XDG_CACHE_HOME or HOME); empty = none, as
    // tests run unless they set one.
    std::string cache_dir{};
    // The configuration file (config.hpp, from XDG_CONFIG_HOME or HOME) and the environment
    // variables gpuplan reads (GPUPLAN_*, HOME); empty = none, as tests run unless they set them.
    std::string config_file{};
    std::map<std::string, std::string> env{};
    bool term_dumb = false; // TERM=dumb
    // Columns of the terminal (terminal_columns); 0 = unknown, as in tests: text fits 80.
    std::size_t columns = 0;
    // The process exits when the run returns (gpuplan's own main; tests run in-process): the
    // run's largest values are left to the exit (leave_to_exit) instead of freed one by one.
    bool exits_after_run = false;
};

// Keeps `value` until the process exits: at exit the kernel drops the whole heap at once,
// while freeing a plan of thousands of options block by block takes longer than writing it
// (docs/architecture.md, "Pricing many offers"). The value stays reachable from a static list
// that is never destroyed, so a leak checker does not report it. Use only when
// Io::exits_after_run.
void leave_to_exit(const void* value);

// Frees `value` now, or leaves it to the exit when `io` says the process exits after the run.
template <class T> void release(std::unique_ptr<T> value, const Io& io) {
    if (io.exits_after_run) {
        leave_to_exit(value.release());
    }
}

struct CommonOptions {
    std::vector<std::string> catalogs;
    bool no_default_catalog = false;
    report::Format format = report::Format::table;
    bool html = false;  // --format html (report only; `format` is then markdown)
    std::string output; // empty = stdout
    std::string currency;
    int verbosity = 0;          // -1 quiet, 0 normal, 1+ verbose
    std::string color = "auto"; // --color (or --no-color, the environment, the file)
    bool wide = false;
    // Terminal columns text output fits (from Io::columns, at least k_min_terminal_width);
    // 0 with --wide: no limit.
    std::size_t width = report::k_terminal_width;
    std::string as_of;           // --as-of DATE for price feeds without a date; empty = file date
    std::string max_catalog_age; // --max-catalog-age DURATION; empty = no limit
    std::string generated_at;    // UTC time of the run with --timestamp; empty otherwise
    bool offline = false;        // --offline: leave the price cache out
    std::string cache_dir;       // the price cache folder (Io::cache_dir); empty = none
    std::vector<std::string> discounts; // PROVIDER=FRACTION from the environment or the file
    std::string discount_rate;          // from the environment or the file; empty = none
    bool accept_soft = false;           // accept_soft from the environment or the file
    double solver_seconds = 0.0;        // solver_time from the environment or the file; 0 = none
    Settings settings;                  // every setting with its origin (config show)
    std::string command_line;           // `gpuplan ARGS` as typed, quoted for a shell (Next: lines)
    std::string calibration;            // --calibration FILE (or the configuration's); empty = none
};

// The calibration file of --calibration (docs/runs-format.md); empty when none is given. Throws
// InputError for an invalid file, RuntimeError for an unreadable one.
[[nodiscard]] workload::Calibration load_calibration(const CommonOptions& options);

// `gpuplan ARGS`, each argument quoted for a POSIX shell where it needs it.
[[nodiscard]] std::string shell_command(std::span<const std::string> args);

// Writes `text` to stdout (checked: OutputError when it fails), or to options.output, together
// with the files in `also`, all or nothing through write_files (cli/output_writer.hpp), so a
// failed run never leaves a half-written file.
void write_output(const CommonOptions& options, const std::string& raw, Io& io,
                  std::span<const OutputFile> also = {});

// Today's date: io.today when injected, else the system clock's UTC date.
[[nodiscard]] Date today(const Io& io);
// The date of a `--today YYYY-MM-DD` option, else today(io). Throws UsageError when malformed.
[[nodiscard]] Date today(const Io& io, const std::optional<std::string>& option);

// Logs how long a phase took (`time: parse 81.2 ms`) at debug level (-vv) when it ends; bench/run
// reads these lines for its breakdown.
class PhaseTimer {
public:
    explicit PhaseTimer(std::string phase);
    ~PhaseTimer();
    PhaseTimer(const PhaseTimer&) = delete;
    PhaseTimer& operator=(const PhaseTimer&) = delete;

private:
    std::string m_phase;
    std::chrono::steady_clock::time_point m_start;
};

// Runs `fn` inside a PhaseTimer named `phase` and returns its result.
template <class Fn> auto timed(std::string phase, Fn&& fn) {
    const PhaseTimer timer(std::move(phase));
    return std::forward<Fn>(fn)();
}

// The current UTC time as `2026-11-29T19:40:00Z` (only for --timestamp: outputs are otherwise
// reproducible).
[[nodiscard]] std::string utc_timestamp();

// True when output may carry ANSI colours: always with --color=always, never with never; with
// auto when stdout is a terminal, NO_COLOR is unset, TERM is not dumb and no -o file is written.
[[nodiscard]] bool use_colour(const CommonOptions& options, const Io& io);

// The width text output fits: the terminal's (`ioctl_columns`, from TIOCGWINSZ on stdout when it
// is a terminal; 0 when not), else a positive integer in COLUMNS (`columns_env`, may be null),
// else 0 (unknown).
[[nodiscard]] std::size_t terminal_columns(std::size_t ioctl_columns, const char* columns_env);

// Program name and version for outputs, with the time of the run under --timestamp.
[[nodiscard]] GeneratorInfo generator_info(const CommonOptions& options);

} // namespace gpuplan::cli

#include "cli/exit_report.hpp"

#include "cli/output_writer.hpp"
#include "gpuplan/limits.hpp"
#include "gpuplan/report/escape.hpp"

#include <fmt/format.h>
#include <ostream>

namespace gpuplan::cli {

int report_error(Io& io, Exit code, const std::string& message) {
    io.err << report::escape_control(shorten_line(message), true) << '\n';
    io.err.flush();
    return static_cast<int>(code);
}

// Help and version text on stdout: exit 0 only when it was written.
int write_text(Io& io, const std::string& text) {
    try {
        write_stream(io.out, text);
    } catch (const OutputError& e) {
        return report_error(io, Exit::runtime, e.what());
    }
    return static_cast<int>(Exit::ok);
}

// Every diagnostic of `e` up to the limit, then how many more there were.
int report_diagnostics(Io& io, const InputError& e) {
    // A DiagnosticSink's list ends with its own count of the rest; a longer list is cut here.
    const std::size_t count = e.diagnostics().size();
    const std::size_t shown =
        count > limits::k_max_diagnostics + 1 ? limits::k_max_diagnostics : count;
    for (std::size_t i = 0; i < shown; ++i) {
        io.err << report::escape_control(shorten_line(format_diagnostic(e.diagnostics()[i])))
               << '\n';
    }
    if (const std::size_t more = count - shown; more > 0) {
        io.err << fmt::format("gpuplan: error: {} more problem{} not shown\n", more,
                              more == 1 ? "" : "s");
    }
    io.err.flush();
    return static_cast<int>(Exit::invalid_input);
}

} // namespace gpuplan::cli

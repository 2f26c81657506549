#pragma once
// Errors and diagnostics: the only exceptions gpuplan throws, all raised at loading boundaries.

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace gpuplan {

// One problem found in an input file, with its 1-based place and the YAML/JSON path to the value.
struct Diagnostic {
    std::string file;
    std::uint32_t line = 0; // 1-based; 0 when the problem has no place in a file
    std::uint32_t column = 0;
    std::string path; // JSON-pointer style: /providers/0/instances/3/gpu
    std::string message;

    bool operator==(const Diagnostic&) const = default;
};

// Formats a diagnostic as `FILE:LINE:COL: error: PATH: MESSAGE` (the parts that are known).
[[nodiscard]] std::string format_diagnostic(const Diagnostic& diagnostic);

// The longest error line gpuplan prints: a longer one (a 100 kB value echoed back) keeps its
// start and end and says how many bytes it left out.
inline constexpr std::size_t k_max_error_line_bytes = 1000;
// `line` cut to at most about `max_bytes`, on UTF-8 character boundaries.
[[nodiscard]] std::string shorten_line(std::string_view line,
                                       std::size_t max_bytes = k_max_error_line_bytes);

// Invalid input (catalog, workload, rules, plan file): every problem found, reported at once.
// The CLI maps it to exit code 3.
class InputError : public std::runtime_error {
public:
    explicit InputError(std::vector<Diagnostic> diagnostics);
    [[nodiscard]] const std::vector<Diagnostic>& diagnostics() const { return m_diagnostics; }

private:
    std::vector<Diagnostic> m_diagnostics;
};

// A wrong command line (unknown option value, missing argument). The CLI maps it to exit code 2.
class UsageError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// I/O or internal failure. The CLI maps it to exit code 1.
class RuntimeError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// Collects diagnostics while a reader walks a document; throws them together at the end.
// Keeps the first limits::k_max_diagnostics and counts the rest in one last diagnostic
// (`gpuplan: error: N more problems not shown`), so a flood of problems (700,000 unknown keys)
// costs neither memory nor time.
class DiagnosticSink {
public:
    void add(Diagnostic diagnostic);
    [[nodiscard]] bool empty() const { return m_diagnostics.empty(); }
    // Every problem found, kept or not.
    [[nodiscard]] std::size_t size() const {
        return m_more == 0 ? m_diagnostics.size() : m_diagnostics.size() - 1 + m_more;
    }
    // True when further problems are only counted: callers may skip composing their messages.
    [[nodiscard]] bool full() const;
    [[nodiscard]] const std::vector<Diagnostic>& diagnostics() const { return m_diagnostics; }
    // Throws InputError with everything collected so far, if anything was collected.
    void throw_if_any() const;

private:
    std::vector<Diagnostic> m_diagnostics;
    std::size_t m_more = 0;
};

} // namespace gpuplan

#pragma once
// `--help` fitted to the terminal: CLI11's layout (names in a column, descriptions beside them)
// with every description, usage line and footer wrapped at spaces to the run's width.

#include <CLI/CLI.hpp>
#include <cstddef>

namespace gpuplan::cli {

// CLI11's default help layout, wrapped to width() columns (0: not wrapped, as --wide asks). One
// formatter is shared by a command and its subcommands, so the width is set once, after parsing.
class FittedFormatter : public CLI::Formatter {
public:
    void set_width(std::size_t width) { m_width = width; }
    [[nodiscard]] std::size_t width() const { return m_width; }

    std::string make_option(const CLI::Option* option, bool is_positional) const override;
    std::string make_subcommand(const CLI::App* sub) const override;
    std::string make_description(const CLI::App* app) const override;
    std::string make_usage(const CLI::App* app, std::string name) const override;
    std::string make_footer(const CLI::App* app) const override;

private:
    // A name in the left column and its description beside it, wrapped under the description
    // column (on the next line when the name reaches into it, as CLI11 does).
    [[nodiscard]] std::string entry(const std::string& name, const std::string& description) const;

    std::size_t m_width = 0;
};

} // namespace gpuplan::cli

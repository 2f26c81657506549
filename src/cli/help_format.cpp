#include "cli/help_format.hpp"

#include "gpuplan/report/text_table.hpp"

#include <algorithm>
#include <string>
#include <vector>

namespace gpuplan::cli {

std::string FittedFormatter::entry(const std::string& name, const std::string& description) const {
    const std::size_t column = get_column_width();
    std::string out = "  " + name;
    if (description.empty()) {
        return out + "\n";
    }
    if (out.size() >= column) {
        out += "\n";
        out += std::string(column, ' ');
    } else {
        out += std::string(column - out.size(), ' ');
    }
    // Narrower than this, a description would be a word a line: it runs past the width instead.
    constexpr std::size_t k_min_room = 20;
    const std::size_t room = m_width == 0 ? 0 : std::max(m_width, column + k_min_room) - column;
    std::size_t start = 0;
    bool first = true;
    while (start <= description.size()) {
        const std::size_t stop = std::min(description.find('\n', start), description.size());
        const std::string paragraph = description.substr(start, stop - start);
        const std::vector<std::string> lines =
            room == 0 ? std::vector<std::string>{paragraph} : report::wrap_words(paragraph, room);
        for (const std::string& line : lines) {
            out += (first ? "" : "\n" + std::string(column, ' ')) + line;
            first = false;
        }
        start = stop + 1;
    }
    return out + "\n";
}

std::string FittedFormatter::make_option(const CLI::Option* option, bool is_positional) const {
    return entry(make_option_name(option, is_positional) + make_option_opts(option),
                 make_option_desc(option));
}

std::string FittedFormatter::make_subcommand(const CLI::App* sub) const {
    return entry(sub->get_display_name(true), sub->get_description());
}

std::string FittedFormatter::make_description(const CLI::App* app) const {
    return report::wrap_lines(CLI::Formatter::make_description(app), m_width);
}

std::string FittedFormatter::make_usage(const CLI::App* app, std::string name) const {
    return report::wrap_lines(CLI::Formatter::make_usage(app, std::move(name)), m_width);
}

std::string FittedFormatter::make_footer(const CLI::App* app) const {
    return report::wrap_lines(CLI::Formatter::make_footer(app), m_width);
}

} // namespace gpuplan::cli

#include "cli/parse_errors.hpp"

#include "detail/strings.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <fmt/ranges.h>

namespace gpuplan::cli {

namespace {

// The option names known where `args` selects a subcommand: the global ones and those of each
// subcommand named on the way down.
std::vector<std::string> known_options(const CommandShape& app,
                                       const std::vector<std::string>& args) {
    std::vector<std::string> names = app.option_names;
    const CommandShape* level = &app;
    for (const std::string& arg : args) {
        if (arg.empty() || arg.front() == '-') {
            continue;
        }
        const auto found = std::find_if(level->subcommands.begin(), level->subcommands.end(),
                                        [&](const CommandShape& sub) { return sub.name == arg; });
        if (found != level->subcommands.end()) {
            level = &*found;
            names.insert(names.end(), level->option_names.begin(), level->option_names.end());
        }
    }
    return names;
}

} // namespace

// `unknown command 'recomend'; did you mean 'recommend'?` when a word of `args` that is not an
// option names no subcommand where one is expected and is close to one; nullopt otherwise.
std::optional<std::string> command_typo(const CommandShape& app,
                                        const std::vector<std::string>& args) {
    const CommandShape* level = &app;
    std::string path;
    for (const std::string& arg : args) {
        if (arg.empty() || arg.front() == '-') {
            continue;
        }
        const std::vector<CommandShape>& subcommands = level->subcommands;
        if (subcommands.empty()) {
            return std::nullopt;
        }
        const auto found = std::find_if(subcommands.begin(), subcommands.end(),
                                        [&](const CommandShape& sub) { return sub.name == arg; });
        if (found != subcommands.end()) {
            level = &*found;
            path += arg + " ";
            continue;
        }
        std::vector<std::string_view> names;
        names.reserve(subcommands.size());
        for (const CommandShape& sub : subcommands) {
            names.emplace_back(sub.name);
        }
        const std::string hint = detail::closest_match(arg, names);
        if (hint.empty()) {
            // A word like a path may be an option's value; a plain word is a command.
            if (arg.find_first_of("./") != std::string::npos) {
                return std::nullopt;
            }
            std::vector<std::string_view> shown; // hidden commands (man, completions) are not
            for (const CommandShape& sub : subcommands) {
                if (sub.shown) {
                    shown.emplace_back(sub.name);
                }
            }
            return fmt::format("unknown command '{}{}'; the commands are: {}", path, arg,
                               fmt::join(shown, ", "));
        }
        return fmt::format("unknown command '{}{}'; did you mean '{}{}'?", path, arg, path, hint);
    }
    return std::nullopt;
}

// `unknown option '--formt'; did you mean '--format'?` for the first word of `args` spelled as
// an option (--name, --name=value or -x) that no option of the selected command has; nullopt when
// every such word is known. Words after `--` are operands.
std::optional<std::string> unknown_flag(const CommandShape& app,
                                        const std::vector<std::string>& args) {
    const std::vector<std::string> names = known_options(app, args);
    const auto is_letter = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); };
    for (const std::string& arg : args) {
        if (arg == "--") {
            break;
        }
        const bool long_flag = arg.size() > 2 && arg.starts_with("--") && is_letter(arg[2]);
        const bool short_flag = arg.size() == 2 && arg[0] == '-' && is_letter(arg[1]);
        if (!long_flag && !short_flag) {
            continue;
        }
        const std::string name = arg.substr(0, arg.find('='));
        if (std::find(names.begin(), names.end(), name) != names.end()) {
            continue;
        }
        const std::vector<std::string_view> views(names.begin(), names.end());
        const std::string hint = detail::closest_match(name, views);
        return hint.empty() ? fmt::format("unknown option '{}'", name)
                            : fmt::format("unknown option '{}'; did you mean '{}'?", name, hint);
    }
    return std::nullopt;
}

std::optional<std::string> conversion_message(std::string_view text) {
    constexpr std::string_view prefix = "Could not convert: ";
    const std::size_t equals = text.find(" = ");
    if (!text.starts_with(prefix) || equals == std::string_view::npos) {
        return std::nullopt;
    }
    const std::string_view name = text.substr(prefix.size(), equals - prefix.size());
    const std::string_view value = text.substr(equals + 3);
    return fmt::format("{}: expected a whole number, got '{}'", name, value);
}

} // namespace gpuplan::cli

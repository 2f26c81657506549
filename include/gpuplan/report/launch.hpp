#pragma once
// Launch files for a ranked option (`recommend --emit KIND FILE`): a SkyPilot task, a dstack task
// or a dstack fleet that asks for the option's cloud, region, instance type, GPU count, node
// count and spot choice (docs/launch.md).

#include "gpuplan/cost/plan.hpp"
#include "gpuplan/recommend/recommend.hpp"

#include <array>
#include <optional>
#include <string>
#include <string_view>

namespace gpuplan::report {

enum class Launcher { skypilot, dstack, dstack_fleet };
inline constexpr std::array<Launcher, 3> k_all_launchers{Launcher::skypilot, Launcher::dstack,
                                                         Launcher::dstack_fleet};

// `skypilot`, `dstack`, `dstack-fleet`.
[[nodiscard]] std::string_view to_string(Launcher launcher);
[[nodiscard]] std::optional<Launcher> parse_launcher(std::string_view text);

// The name `launcher` gives the cloud of `provider` (SkyPilot's cloud, dstack's backend); empty
// when it has none.
[[nodiscard]] std::string_view launcher_cloud(Launcher launcher, std::string_view provider);

// Why `option` cannot be launched with `launcher` (self-built hardware, a provider it has no
// cloud for); empty when it can.
[[nodiscard]] std::string launch_refusal(Launcher launcher, const cost::Option& option);

// The launch file of `option`, the `rank`-th row (1-based) of `recommendation`. Its comments
// name the plan and mark what gpuplan cannot know (the job's commands) as a PLACEHOLDER. Call
// only when launch_refusal is empty.
[[nodiscard]] std::string launch_file(Launcher launcher,
                                      const recommend::Recommendation& recommendation,
                                      const cost::Option& option, std::size_t rank);

} // namespace gpuplan::report

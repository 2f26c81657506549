#include "gpuplan/report/launch.hpp"

#include "gpuplan/enum_names.hpp"
#include "gpuplan/numbers.hpp"
#include "gpuplan/rank/rank.hpp"
#include "gpuplan/report/escape.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace gpuplan::report {

namespace {

// A provider and the names SkyPilot (its `infra` cloud) and dstack (its backend) give it; empty
// where the tool has none (SkyPilot's sky/clouds registry and dstack's BackendType, in the
// versions tests/fixtures/launch names).
struct CloudNames {
    std::string_view provider;
    std::string_view skypilot;
    std::string_view dstack;
};

constexpr std::array k_clouds{
    CloudNames{"aws", "aws", "aws"},
    CloudNames{"gcp", "gcp", "gcp"},
    CloudNames{"azure", "azure", "azure"},
    CloudNames{"lambda", "lambda", "lambda"},
    CloudNames{"runpod", "runpod", "runpod"},
    CloudNames{"oci", "oci", "oci"},
    CloudNames{"paperspace", "paperspace", ""},
    CloudNames{"cudo", "cudo", "cudo"},
    CloudNames{"fluidstack", "fluidstack", ""},
    CloudNames{"vast", "vast", "vastai"},
    CloudNames{"nebius", "nebius", "nebius"},
    CloudNames{"digitalocean", "do", "digitalocean"},
    CloudNames{"hyperbolic", "hyperbolic", ""},
    CloudNames{"verda", "verda", "verda"},
    CloudNames{"shadeform", "shadeform", ""},
    CloudNames{"crusoe", "", "crusoe"},
    CloudNames{"jarvislabs", "", "jarvislabs"},
};

// gpuplan's GPU model name and the accelerator names SkyPilot and dstack use for it. SkyPilot
// names the 80 GB A100 `A100-80GB` and folds PCIe and NVL cards into the SXM name; dstack names
// the chip and tells memory sizes apart with a memory token.
struct GpuNames {
    std::string_view gpu;
    std::string_view skypilot;
    std::string_view dstack;
};

constexpr std::array k_gpus{
    GpuNames{"A100", "A100", "A100:40GB"},
    GpuNames{"A100-40GB-PCIe", "A100", "A100:40GB"},
    GpuNames{"A100-80GB", "A100-80GB", "A100:80GB"},
    GpuNames{"A100-80GB-PCIe", "A100-80GB", "A100:80GB"},
    GpuNames{"H100-PCIe", "H100", "H100"},
    GpuNames{"H100-NVL", "H100", "H100NVL"},
    GpuNames{"V100", "V100", "V100:16GB"},
    GpuNames{"V100-PCIe", "V100", "V100:16GB"},
    GpuNames{"V100-32GB", "V100-32GB", "V100:32GB"},
    GpuNames{"GH200-144GB", "GH200", "GH200:144GB"},
    GpuNames{"RTX-A6000", "RTXA6000", "A6000"},
    GpuNames{"RTX-PRO-6000", "RTXPRO6000", "RTXPRO6000"},
};

const CloudNames* cloud_names(std::string_view provider) {
    const auto* it = std::find_if(k_clouds.begin(), k_clouds.end(),
                                  [&](const CloudNames& c) { return c.provider == provider; });
    return it == k_clouds.end() ? nullptr : &*it;
}

std::string_view accelerator(Launcher launcher, const cost::Option& o) {
    // GCP's A3 Mega is a separate accelerator name in SkyPilot's GCP catalog.
    if (launcher == Launcher::skypilot && o.provider == "gcp" &&
        o.instance.starts_with("a3-megagpu")) {
        return "H100-MEGA";
    }
    const auto* it = std::find_if(k_gpus.begin(), k_gpus.end(),
                                  [&](const GpuNames& g) { return g.gpu == o.gpu; });
    if (it == k_gpus.end()) {
        return o.gpu;
    }
    return launcher == Launcher::skypilot ? it->skypilot : it->dstack;
}

// A YAML scalar that reads back as `text` whatever it holds: a JSON string (YAML 1.2 flow
// scalar).
std::string yaml_quoted(const std::string& text) {
    return nlohmann::json(text).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

// A region as a launcher names it: a plain token, not a placeholder (`default`) or a marketplace
// label (`, US, NA`).
bool plain_region(const std::string& region) {
    return !region.empty() && region != "default" &&
           std::all_of(region.begin(), region.end(), [](char c) {
               return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '-' || c == '_' ||
                      c == '.';
           });
}

// Disk per node, GB: its share of the data, the checkpoints kept (or the weights) and 64 GB for
// the image, rounded up to 64 GB; at least SkyPilot's default of 256 GB.
int disk_gb(const recommend::Recommendation& r, const cost::Option& o) {
    constexpr double k_image_gb = 64.0;
    constexpr double k_step_gb = 64.0;
    constexpr double k_least_gb = 256.0;
    // Each node holds its share of the data (data-parallel readers split it).
    const double data = r.workload.data.dataset_gb.value_or(0.0) / std::max(1, o.nodes);
    const double state = r.workload.task == workload::Task::inference
                             ? o.state_gb
                             : o.state_gb * cost::k_checkpoints_kept;
    const double need = std::ceil((k_image_gb + data + state) / k_step_gb) * k_step_gb;
    return static_cast<int>(std::clamp(need, k_least_gb, 1.0e6));
}

// A dstack run or fleet name: lowercase letters, digits and `-`, starting with a letter, at most
// 40 characters.
std::string dstack_name(const std::string& name) {
    constexpr std::size_t k_max = 40;
    std::string out;
    for (const char c : name) {
        const auto u = static_cast<unsigned char>(c);
        if (std::isalnum(u) != 0) {
            out += static_cast<char>(std::tolower(u));
        } else if (!out.empty() && out.back() != '-') {
            out += '-';
        }
    }
    while (!out.empty() && (out.back() == '-' || out.size() > k_max)) {
        out.pop_back();
    }
    if (out.empty() || std::isalpha(static_cast<unsigned char>(out.front())) == 0) {
        out = "gpuplan-" + out;
    }
    return out.substr(0, k_max);
}

// The check a placeholder command runs: the GPUs are there.
std::string_view gpu_check(const cost::Option& o) {
    return o.gpu.starts_with("MI") ? "rocm-smi" : "nvidia-smi";
}

// The comment block every launch file opens with: which option of which plan, at what cost.
std::string header(Launcher launcher, const recommend::Recommendation& r, const cost::Option& o,
                   std::size_t rank) {
    const std::string& currency = r.plan.currency;
    std::string out =
        fmt::format("# {} written by gpuplan {} for row {} of {} (ranked by {}):\n",
                    launcher == Launcher::skypilot ? "SkyPilot task"
                    : launcher == Launcher::dstack ? "dstack task"
                                                   : "dstack fleet",
                    r.generator.version, rank, r.groups.size(), rank::to_string(r.objective));
    out += fmt::format("#   {}: {}, {} node{}\n", escape_control(o.id()), cost::gpus_text(o),
                       o.nodes, o.nodes == 1 ? "" : "s");
    out += fmt::format("#   workload {}: {}\n", escape_control(r.workload.name),
                       r.workload.task == workload::Task::inference
                           ? fmt::format("{:.0f} service hours a month", o.wall_hours)
                           : fmt::format("wall {}", format_duration(o.wall_hours)));
    out += fmt::format("#   NPV {}, total {}, {:.4f} {}/GPU-hour\n", format_money(o.npv, currency),
                       format_money(o.total, currency), o.per_gpu_hour, currency);
    out += fmt::format("#   prices as of {} ({} price)\n",
                       o.prices_as_of ? o.prices_as_of->to_string() : std::string("undated"),
                       cost::to_string(o.price_basis));
    if (o.purchase != PurchaseOption::on_demand && o.purchase != PurchaseOption::spot) {
        out += fmt::format("# The plan buys {} from {}: buy it before launching; this file asks\n"
                           "# for the on-demand capacity it covers.\n",
                           gpuplan::to_string(o.purchase), escape_control(o.provider));
    }
    return out;
}

std::string skypilot_file(const recommend::Recommendation& r, const cost::Option& o,
                          std::size_t rank) {
    std::string out = header(Launcher::skypilot, r, o, rank);
    std::string infra(launcher_cloud(Launcher::skypilot, o.provider));
    if (plain_region(o.region)) {
        // The zone stays out: catalogs name AWS zones by their ID (`usw2-az2`), which SkyPilot's
        // `infra` does not take, and SkyPilot picks the zone with capacity.
        infra += "/" + o.region;
    } else {
        out += fmt::format("# The region {} is no name SkyPilot takes: any region of the\n"
                           "# cloud.\n",
                           yaml_quoted(o.region));
    }
    out += "# Launch: sky launch -c CLUSTER THIS_FILE\n";
    out += "# PLACEHOLDER: `run` only checks the GPUs; replace it (and add `setup`)\n"
           "# with the job's commands.\n";
    out += fmt::format("name: {}\n",
                       yaml_quoted(r.workload.name.empty() ? "gpuplan" : r.workload.name));
    out += "resources:\n";
    out += fmt::format("  infra: {}\n", yaml_quoted(infra));
    out += fmt::format("  instance_type: {}\n", yaml_quoted(o.instance));
    out += fmt::format(
        "  accelerators: {}\n",
        yaml_quoted(fmt::format("{}:{}", accelerator(Launcher::skypilot, o), o.gpus_per_node)));
    out += fmt::format("  use_spot: {}\n", o.purchase == PurchaseOption::spot);
    out += fmt::format("  disk_size: {}\n", disk_gb(r, o));
    out += fmt::format("num_nodes: {}\n", o.nodes);
    out += fmt::format("run: {}\n", gpu_check(o));
    return out;
}

// The keys a dstack task and fleet share: where and on what.
std::string dstack_placement(const recommend::Recommendation& r, const cost::Option& o) {
    std::string out = fmt::format(
        "backends: [{}]\n", yaml_quoted(std::string(launcher_cloud(Launcher::dstack, o.provider))));
    if (plain_region(o.region)) {
        out += fmt::format("regions: [{}]\n", yaml_quoted(o.region));
    }
    out += fmt::format("instance_types: [{}]\n", yaml_quoted(o.instance));
    out +=
        fmt::format("spot_policy: {}\n", o.purchase == PurchaseOption::spot ? "spot" : "on-demand");
    out += "resources:\n";
    out += fmt::format(
        "  gpu: {}\n",
        yaml_quoted(fmt::format("{}:{}", accelerator(Launcher::dstack, o), o.gpus_per_node)));
    out += fmt::format("  disk: {}\n", yaml_quoted(fmt::format("{}GB..", disk_gb(r, o))));
    return out;
}

std::string dstack_task(const recommend::Recommendation& r, const cost::Option& o,
                        std::size_t rank) {
    std::string out = header(Launcher::dstack, r, o, rank);
    out += "# Launch: dstack apply -f THIS_FILE\n";
    if (o.nodes > 1) {
        out += fmt::format("# A task on {} nodes runs on a cluster fleet: write one with\n"
                           "# --emit dstack-fleet FILE and apply it first.\n",
                           o.nodes);
    }
    out += "# PLACEHOLDER: `commands` only checks the GPUs; replace them with the\n"
           "# job's commands.\n";
    out += "type: task\n";
    out += fmt::format("name: {}\n", yaml_quoted(dstack_name(r.workload.name)));
    out += fmt::format("nodes: {}\n", o.nodes);
    out += dstack_placement(r, o);
    out += fmt::format("commands:\n  - {}\n", gpu_check(o));
    return out;
}

std::string dstack_fleet(const recommend::Recommendation& r, const cost::Option& o,
                         std::size_t rank) {
    std::string out = header(Launcher::dstack_fleet, r, o, rank);
    out += "# Create: dstack apply -f THIS_FILE (then apply the task: --emit dstack FILE)\n";
    out += "type: fleet\n";
    out += fmt::format("name: {}\n", yaml_quoted(dstack_name(r.workload.name) + "-fleet"));
    out += fmt::format("nodes: {}\n", o.nodes);
    out += fmt::format("placement: {}\n", o.nodes > 1 ? "cluster" : "any");
    out += dstack_placement(r, o);
    return out;
}

} // namespace

// Names of the values (a constant: internal linkage).
constexpr EnumNames k_launcher_names{std::to_array<std::pair<std::string_view, Launcher>>(
    {{"skypilot", Launcher::skypilot},
     {"dstack", Launcher::dstack},
     {"dstack-fleet", Launcher::dstack_fleet}})};

std::string_view to_string(Launcher launcher) {
    return k_launcher_names.name(launcher);
}

std::optional<Launcher> parse_launcher(std::string_view text) {
    return k_launcher_names.parse(text);
}

std::string_view launcher_cloud(Launcher launcher, std::string_view provider) {
    const CloudNames* names = cloud_names(provider);
    if (names == nullptr) {
        return {};
    }
    return launcher == Launcher::skypilot ? names->skypilot : names->dstack;
}

std::string launch_refusal(Launcher launcher, const cost::Option& option) {
    const std::string_view tool = launcher == Launcher::skypilot ? "SkyPilot" : "dstack";
    if (option.purchase == PurchaseOption::self_built) {
        return fmt::format("{} is owned hardware: {} launches on clouds (a self-built cluster "
                           "joins SkyPilot or dstack as Kubernetes or SSH nodes you register)",
                           option.id(), tool);
    }
    if (!option.gpu_slice.empty()) {
        return fmt::format("{} runs on {}, a part of one GPU {} cannot ask for", option.id(),
                           option.gpu_slice, tool);
    }
    if (launcher_cloud(launcher, option.provider).empty()) {
        return fmt::format(
            "{} has no cloud for provider '{}' (its clouds: {})", tool, option.provider, [&] {
                std::string names;
                for (const CloudNames& c : k_clouds) {
                    const std::string_view name =
                        launcher == Launcher::skypilot ? c.skypilot : c.dstack;
                    if (!name.empty()) {
                        names += (names.empty() ? "" : ", ") + std::string(c.provider);
                    }
                }
                return names;
            }());
    }
    return {};
}

std::string launch_file(Launcher launcher, const recommend::Recommendation& recommendation,
                        const cost::Option& option, std::size_t rank) {
    switch (launcher) {
    case Launcher::skypilot:
        return skypilot_file(recommendation, option, rank);
    case Launcher::dstack:
        return dstack_task(recommendation, option, rank);
    case Launcher::dstack_fleet:
        return dstack_fleet(recommendation, option, rank);
    }
    return {};
}

} // namespace gpuplan::report

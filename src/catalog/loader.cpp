#include "gpuplan/catalog/loader.hpp"

#include "detail/sources.hpp"
#include "detail/strings.hpp"
#include "detail/yaml_reader.hpp"
#include "gpuplan/limits.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <set>

namespace gpuplan::catalog {

using detail::k_fraction;
using detail::k_non_negative;
using detail::k_positive;
using detail::NumberRange;
using detail::YamlContext;
using detail::YamlNode;

namespace {

constexpr std::int64_t k_schema_version = 1;
constexpr NumberRange k_price{0.0, limits::k_max_price_per_hour, false, "a non-negative price"};
// Limits that keep catalog numbers physical: a server holds at most this many GPUs, and a
// commitment discount below 100% (a free commitment would rank from garbage).
constexpr NumberRange k_instance_gpu_count{0.0, limits::k_max_instance_gpus, true,
                                           "a positive number"};
constexpr NumberRange k_instance_memory{0.0, limits::k_max_instance_memory_gib, true,
                                        "a positive number"};
constexpr NumberRange k_discount{0.0, 0.99, false, "a fraction from 0 to 0.99"};
// Spot interruptions per node-hour: published rates are below 0.2; above one an hour the spot
// model's restart arithmetic grows exponentially (docs/limits.md).
constexpr NumberRange k_interruption_rate{0.0, k_max_interruption_rate_per_node_hour, false,
                                          "a non-negative number"};

// A name that must resolve once every file is merged: a GPU or a currency.
// A slice (kind `slice`) names its instance's GPU and is checked against it: its MIG profile
// must be one of the GPU's, its stated memory at most the GPU's.
struct PendingReference {
    enum class Kind { gpu, currency, slice } kind = Kind::gpu;
    std::string name;
    Diagnostic where;
    std::string mig_profile;
    std::optional<double> slice_memory_gib;
};

// Reads one file into a partial catalog. Sources get catalog-wide ids as they are registered.
class FileReader {
public:
    FileReader(const TextFile& file, Catalog& catalog, DiagnosticSink& sink,
               std::vector<PendingReference>& pending)
        : m_file(file), m_catalog(catalog), m_pending(pending) {
        m_context.file = file.name;
        m_context.sink = &sink;
    }

    // Parses the file and merges what it holds into the catalog.
    void read() {
        auto root = detail::parse_yaml_document(m_file.text, m_context);
        if (!root) {
            return;
        }
        if (!root->expect_map({"schema_version", "sources", "gpus", "providers", "self_built", "fx",
                               "benchmarks"})) {
            return;
        }
        if (auto version = root->require("schema_version")) {
            auto value = version->as_integer(0, 1'000'000);
            if (value && *value != k_schema_version) {
                version->error(fmt::format("unsupported schema_version {}; this gpuplan reads "
                                           "catalog schema_version {}",
                                           *value, k_schema_version));
                return;
            }
        }
        if (auto sources = root->get("sources")) {
            read_sources(*sources);
        }
        if (auto gpus = root->get("gpus")) {
            read_list(*gpus, [this](const YamlNode& n) { read_gpu(n); });
        }
        if (auto providers = root->get("providers")) {
            read_list(*providers, [this](const YamlNode& n) { read_provider(n); });
        }
        if (auto self_built = root->get("self_built")) {
            read_self_built(*self_built);
        }
        if (auto fx = root->get("fx")) {
            read_fx(*fx);
        }
        if (auto benchmarks = root->get("benchmarks")) {
            read_list(*benchmarks, [this](const YamlNode& n) { read_benchmark(n); });
        }
    }

private:
    template <class Fn> void read_list(const YamlNode& node, Fn&& fn) {
        for (const YamlNode& item : node.items()) {
            fn(item);
        }
    }

    void defer(PendingReference::Kind kind, const std::string& name, const YamlNode& node) {
        m_pending.push_back({kind, name, node.diagnostic(""), {}, std::nullopt});
    }

    void read_sources(const YamlNode& node) {
        for (auto& [id, entry] : node.entries()) {
            if (auto source = detail::read_source_entry(entry, id)) {
                m_local_sources[id] = register_source(std::move(*source));
            }
        }
    }

    std::string register_source(Source source) {
        return catalog::register_source(m_catalog, std::move(source), m_file.name);
    }

    std::vector<std::string> read_source_refs(const YamlNode& node) {
        return detail::read_source_refs(node, m_local_sources);
    }

    std::vector<std::string> required_sources(const YamlNode& node) {
        if (auto source = node.require("source")) {
            return read_source_refs(*source);
        }
        return {};
    }

    std::optional<Parameter> read_parameter(const YamlNode& node, const NumberRange& range) {
        if (!node.expect_map({"value", "source", "as_of", "note"})) {
            return std::nullopt;
        }
        Parameter parameter;
        auto value = node.number_at("value", true, range);
        parameter.sources = required_sources(node);
        if (auto as_of = node.get("as_of")) {
            parameter.as_of = as_of->as_date();
        }
        parameter.note = node.string_at("note", false).value_or("");
        if (!value) {
            return std::nullopt;
        }
        parameter.value = *value;
        return parameter;
    }

    std::optional<Parameter> parameter_at(const YamlNode& parent, std::string_view key,
                                          bool required, const NumberRange& range) {
        auto node = required ? parent.require(key) : parent.get(key);
        if (!node) {
            return std::nullopt;
        }
        return read_parameter(*node, range);
    }

    void read_gpu(const YamlNode& node) {
        if (!node.expect_map({"name", "aliases", "architecture", "form_factor", "memory_gib",
                              "memory_bandwidth_gb_per_s", "tflops", "tdp_watts", "nvlink_gb_per_s",
                              "mig_instances", "released", "source", "as_of", "note"})) {
            return;
        }
        Gpu gpu;
        gpu.name = node.string_at("name", true).value_or("");
        if (auto aliases = node.get("aliases")) {
            gpu.aliases = aliases->as_string_list().value_or(std::vector<std::string>{});
        }
        if (auto arch = node.require("architecture")) {
            if (auto index = arch->as_choice(
                    {"volta", "turing", "ampere", "ada", "hopper", "blackwell", "cdna3"})) {
                gpu.architecture = static_cast<Architecture>(*index);
            }
        }
        if (auto form = node.require("form_factor")) {
            if (auto index = form->as_choice({"sxm", "pcie", "oam"})) {
                gpu.form_factor = static_cast<FormFactor>(*index);
            }
        }
        gpu.memory_gib = node.number_at("memory_gib", true, k_positive).value_or(0.0);
        gpu.memory_bandwidth_gb_per_s =
            node.number_at("memory_bandwidth_gb_per_s", true, k_positive).value_or(0.0);
        if (auto tflops = node.require("tflops")) {
            if (tflops->expect_map({"fp32", "tf32", "fp16", "bf16", "fp8", "int8", "int4"})) {
                for (std::size_t i = 0; i < k_precision_count; ++i) {
                    auto key = to_string(static_cast<Precision>(i));
                    gpu.tflops.at(i) = tflops->number_at(key, key == "fp32", k_positive);
                }
            }
        }
        gpu.tdp_watts = node.number_at("tdp_watts", true, k_positive).value_or(0.0);
        gpu.nvlink_gb_per_s = node.number_at("nvlink_gb_per_s", false, k_positive).value_or(0.0);
        if (auto mig = node.get("mig_instances")) {
            gpu.mig_instances = static_cast<int>(mig->as_integer(1, 64).value_or(0));
        }
        if (auto released = node.require("released")) {
            gpu.released = static_cast<int>(released->as_integer(1990, 2100).value_or(0));
        }
        gpu.sources = required_sources(node);
        if (auto as_of = node.require("as_of")) {
            gpu.as_of = as_of->as_date().value_or(Date{});
        }
        gpu.note = node.string_at("note", false).value_or("");
        if (gpu.name.empty()) {
            return;
        }
        for (const Gpu& other : m_file_gpus) {
            auto clash = [&](const std::string& a) {
                if (detail::iequals(a, other.name)) {
                    return true;
                }
                return std::any_of(other.aliases.begin(), other.aliases.end(),
                                   [&](const std::string& b) { return detail::iequals(a, b); });
            };
            bool duplicate = clash(gpu.name);
            for (const std::string& alias : gpu.aliases) {
                duplicate = duplicate || clash(alias);
            }
            if (duplicate) {
                node.get("name")->error(fmt::format(
                    "GPU '{}' clashes with GPU '{}' defined earlier in this file (name or alias)",
                    gpu.name, other.name));
                return;
            }
        }
        m_file_gpus.push_back(gpu);
        auto it = std::find_if(m_catalog.gpus.begin(), m_catalog.gpus.end(),
                               [&](const Gpu& g) { return detail::iequals(g.name, gpu.name); });
        if (it != m_catalog.gpus.end()) {
            *it = std::move(gpu);
        } else {
            m_catalog.gpus.push_back(std::move(gpu));
        }
    }

    static std::optional<Term> read_term(const YamlNode& node) {
        if (auto index = node.as_choice({"1y", "3y"})) {
            return static_cast<Term>(*index);
        }
        return std::nullopt;
    }

    static std::optional<Payment> read_payment(const YamlNode& node) {
        if (auto index = node.as_choice({"no_upfront", "partial_upfront", "all_upfront"})) {
            return static_cast<Payment>(*index);
        }
        return std::nullopt;
    }

    static double read_upfront_fraction(const YamlNode& node, Payment payment) {
        auto given = node.number_at("upfront_fraction", false, k_fraction);
        switch (payment) {
        case Payment::no_upfront:
            return 0.0;
        case Payment::all_upfront:
            return 1.0;
        case Payment::partial_upfront:
            return given.value_or(0.5);
        }
        return 0.0;
    }

    void read_price_row(const YamlNode& node, Instance& instance,
                        std::set<std::pair<std::string, std::string>>& seen) {
        if (!node.expect_map(
                {"region", "zone", "on_demand", "spot", "monthly", "yearly", "source", "as_of"})) {
            return;
        }
        PriceRow row;
        row.region = node.string_at("region", true).value_or("");
        row.zone = node.string_at("zone", false).value_or("");
        row.on_demand = node.number_at("on_demand", false, k_price);
        row.spot = node.number_at("spot", false, k_price);
        row.monthly = node.number_at("monthly", false, k_price);
        row.yearly = node.number_at("yearly", false, k_price);
        if (auto source = node.get("source")) {
            row.sources = read_source_refs(*source);
        }
        if (auto as_of = node.get("as_of")) {
            row.as_of = as_of->as_date();
        }
        if (!row.on_demand && !row.spot && !row.monthly && !row.yearly && !node.get("on_demand") &&
            !node.get("spot") && !node.get("monthly") && !node.get("yearly")) {
            node.error("a price row needs at least one of on_demand, spot, monthly or yearly");
            return;
        }
        if (!seen.emplace(row.region, row.zone).second) {
            node.error(fmt::format("duplicate price row for region '{}'{}", row.region,
                                   row.zone.empty() ? "" : fmt::format(" zone '{}'", row.zone)));
            return;
        }
        instance.prices.push_back(std::move(row));
    }

    void read_reserved_price(const YamlNode& node, Instance& instance) {
        if (!node.expect_map({"term", "payment", "effective_per_hour", "upfront_fraction", "region",
                              "source", "as_of"})) {
            return;
        }
        ReservedPrice price;
        auto term = node.require("term");
        auto payment = node.require("payment");
        if (term) {
            price.term = read_term(*term).value_or(Term::one_year);
        }
        if (payment) {
            price.payment = read_payment(*payment).value_or(Payment::no_upfront);
        }
        price.effective_per_hour = node.number_at("effective_per_hour", true, k_price).value_or(0);
        price.upfront_fraction = read_upfront_fraction(node, price.payment);
        price.region = node.string_at("region", false).value_or("");
        price.sources = required_sources(node);
        if (auto as_of = node.get("as_of")) {
            price.as_of = as_of->as_date();
        }
        instance.reserved.push_back(std::move(price));
    }

    // gpu_count, or a MIG profile (whose compute share is the count), and a fraction's memory.
    void read_gpu_share(const YamlNode& node, Instance& instance) {
        auto profile = node.get("mig_profile");
        if (!profile) {
            instance.gpu_count =
                node.number_at("gpu_count", true, k_instance_gpu_count).value_or(0.0);
        } else if (auto name = profile->as_string()) {
            instance.mig_profile = *name;
            if (auto count = node.get("gpu_count")) {
                count->error("a MIG instance's GPU count is its profile's compute share; leave "
                             "gpu_count out");
            }
            if (auto slices = catalog::mig_compute_slices(*name)) {
                instance.gpu_count = static_cast<double>(*slices) / k_mig_compute_slices;
            } else {
                profile->error(
                    fmt::format("'{}' is not a MIG profile name such as 1g.10gb", *name));
            }
        }
        instance.gpu_memory_gib = node.number_at("gpu_memory_gib", false, k_positive);
        if (auto memory = node.get("gpu_memory_gib");
            memory && (profile || instance.gpu_count >= 1.0)) {
            memory->error("gpu_memory_gib is the memory of a fractional GPU (gpu_count below 1); "
                          "a whole GPU or a MIG profile has the model's memory");
        }
        if (auto gpu = node.get("gpu"); gpu && (profile || instance.gpu_memory_gib)) {
            m_pending.push_back({PendingReference::Kind::slice, instance.gpu,
                                 (profile ? *profile : *node.get("gpu_memory_gib")).diagnostic(""),
                                 instance.mig_profile, instance.gpu_memory_gib});
        }
    }

    // Reads an instance. With `price_overlay`, an instance that states none of gpu, gpu_count,
    // vcpus and memory_gib (allowed when the type is already in the catalog) only overlays its
    // price rows; `price_rows_only` says whether it did.
    std::optional<Instance> read_instance(const YamlNode& node, bool price_overlay,
                                          bool& price_rows_only) {
        if (!node.expect_map({"type", "gpu", "gpu_count", "mig_profile", "gpu_memory_gib", "vcpus",
                              "memory_gib", "network_gbps", "network_source", "nvlink",
                              "local_nvme_gb", "spot_interruption_rate_per_node_hour", "prices",
                              "reserved", "note"})) {
            return std::nullopt;
        }
        Instance instance;
        instance.type = node.string_at("type", true).value_or("");
        price_rows_only = price_overlay && !node.get("gpu") && !node.get("gpu_count") &&
                          !node.get("vcpus") && !node.get("memory_gib");
        if (price_rows_only) {
            if (auto prices = node.require("prices")) {
                std::set<std::pair<std::string, std::string>> seen;
                for (const YamlNode& row : prices->items()) {
                    read_price_row(row, instance, seen);
                }
            }
            for (std::string_view key : {"network_gbps", "nvlink", "local_nvme_gb",
                                         "spot_interruption_rate_per_node_hour", "reserved"}) {
                if (auto extra = node.get(key)) {
                    extra->error(fmt::format(
                        "a price overlay (an instance without gpu, gpu_count, vcpus and "
                        "memory_gib) states only prices; give the whole instance to change '{}'",
                        key));
                }
            }
            return instance;
        }
        if (auto gpu = node.require("gpu")) {
            if (auto name = gpu->as_string()) {
                instance.gpu = *name;
                defer(PendingReference::Kind::gpu, *name, *gpu);
            }
        }
        read_gpu_share(node, instance);
        if (auto vcpus = node.require("vcpus")) {
            instance.vcpus = static_cast<int>(
                vcpus->as_integer(1, static_cast<std::int64_t>(limits::k_max_instance_vcpus))
                    .value_or(0));
        }
        instance.memory_gib = node.number_at("memory_gib", true, k_instance_memory).value_or(0.0);
        instance.network_gbps = node.number_at("network_gbps", false, k_positive);
        if (auto source = node.get("network_source")) {
            instance.network_sources = read_source_refs(*source);
        } else if (node.get("network_gbps")) {
            node.error("network_gbps needs a network_source");
        }
        if (auto nvlink = node.get("nvlink")) {
            instance.nvlink = nvlink->as_bool().value_or(false);
        }
        instance.local_nvme_gb = node.number_at("local_nvme_gb", false, k_positive);
        if (auto rate = node.get("spot_interruption_rate_per_node_hour")) {
            instance.spot_interruption_rate_per_node_hour =
                read_parameter(*rate, k_interruption_rate);
        }
        if (auto prices = node.require("prices")) {
            std::set<std::pair<std::string, std::string>> seen;
            for (const YamlNode& row : prices->items()) {
                read_price_row(row, instance, seen);
            }
        }
        if (auto reserved = node.get("reserved")) {
            for (const YamlNode& item : reserved->items()) {
                read_reserved_price(item, instance);
            }
        }
        instance.note = node.string_at("note", false).value_or("");
        return instance;
    }

    void read_provider(const YamlNode& node) {
        if (!node.expect_map({"name", "display_name", "currency", "as_of", "source", "billing",
                              "spot", "reserved_discounts", "egress_per_gb", "instances",
                              "note"})) {
            return;
        }
        auto name = node.string_at("name", true);
        if (!name) {
            return;
        }
        if (!m_file_providers.insert(*name).second) {
            node.get("name")->error(fmt::format("duplicate provider '{}' in this file", *name));
            return;
        }
        const bool overlay = find_provider(m_catalog, *name) != nullptr;
        Provider provider;
        ProviderKeys keys;
        provider.name = *name;
        if (auto display = node.string_at("display_name", !overlay)) {
            provider.display_name = *display;
            keys.display_name = true;
        }
        if (auto currency = node.get("currency")) {
            if (auto code = currency->as_string()) {
                if (!is_currency_code(*code)) {
                    currency->error(fmt::format(
                        "expected an ISO 4217 currency code such as USD, got \"{}\"", *code));
                } else {
                    provider.currency = *code;
                    keys.currency = true;
                    defer(PendingReference::Kind::currency, *code, *currency);
                }
            }
        } else if (!overlay) {
            node.error("missing required key 'currency'");
        }
        if (auto as_of = overlay ? node.get("as_of") : node.require("as_of")) {
            if (auto date = as_of->as_date()) {
                provider.as_of = *date;
                keys.as_of = true;
            }
        }
        if (auto source = overlay ? node.get("source") : node.require("source")) {
            provider.sources = read_source_refs(*source);
            keys.sources = true;
        }
        if (auto billing = node.get("billing")) {
            if (billing->expect_map({"granularity_seconds", "minimum_seconds", "source"})) {
                provider.billing.granularity_seconds =
                    billing->number_at("granularity_seconds", true, k_positive).value_or(3600.0);
                provider.billing.minimum_seconds =
                    billing->number_at("minimum_seconds", false, k_non_negative).value_or(0.0);
                provider.billing.sources = required_sources(*billing);
                keys.billing = true;
            }
        }
        if (auto spot = node.get("spot")) {
            if (spot->expect_map(
                    {"interruption_rate_per_node_hour", "notice_seconds", "restart_minutes"})) {
                auto rate = parameter_at(*spot, "interruption_rate_per_node_hour", true,
                                         k_interruption_rate);
                auto notice = parameter_at(*spot, "notice_seconds", true, k_non_negative);
                auto restart = parameter_at(*spot, "restart_minutes", true, k_non_negative);
                if (rate && notice && restart) {
                    provider.spot = SpotTerms{*rate, *notice, *restart};
                    keys.spot = true;
                }
            }
        }
        if (auto discounts = node.get("reserved_discounts")) {
            keys.reserved_discounts = true;
            for (const YamlNode& item : discounts->items()) {
                if (!item.expect_map(
                        {"term", "payment", "discount", "upfront_fraction", "default", "source"})) {
                    continue;
                }
                ReservedDiscount discount;
                if (auto term = item.require("term")) {
                    discount.term = read_term(*term).value_or(Term::one_year);
                }
                if (auto payment = item.require("payment")) {
                    discount.payment = read_payment(*payment).value_or(Payment::no_upfront);
                }
                discount.discount = item.number_at("discount", true, k_discount).value_or(0.0);
                discount.upfront_fraction = read_upfront_fraction(item, discount.payment);
                if (auto is_default = item.get("default")) {
                    discount.is_default = is_default->as_bool().value_or(false);
                }
                discount.sources = required_sources(item);
                provider.reserved_discounts.push_back(std::move(discount));
            }
        }
        if (auto egress = node.get("egress_per_gb")) {
            provider.egress_per_gb = read_parameter(*egress, k_price);
            keys.egress_per_gb = true;
        }
        std::set<std::string> price_overlays;
        if (auto instances = overlay ? node.get("instances") : node.require("instances")) {
            std::set<std::string, std::less<>> seen;
            const Provider* existing = find_provider(m_catalog, *name);
            for (const YamlNode& item : instances->items()) {
                // A type the catalog already has may come as a price overlay.
                bool known_type = false;
                if (existing != nullptr && item.is_map() && item.raw()["type"].IsScalar()) {
                    const std::string type = item.raw()["type"].Scalar();
                    known_type = std::any_of(existing->instances.begin(), existing->instances.end(),
                                             [&](const Instance& i) { return i.type == type; });
                }
                bool price_rows_only = false;
                auto instance = read_instance(item, known_type, price_rows_only);
                if (!instance || instance->type.empty()) {
                    continue;
                }
                if (!seen.insert(instance->type).second) {
                    item.get("type")->error(fmt::format(
                        "duplicate instance type '{}' in provider '{}'", instance->type, *name));
                    continue;
                }
                if (price_rows_only) {
                    price_overlays.insert(instance->type);
                }
                provider.instances.push_back(std::move(*instance));
            }
        }
        if (auto note = node.string_at("note", false)) {
            provider.note = *note;
            keys.note = true;
        }
        merge_provider(m_catalog, ProviderOverlay{std::move(provider), keys, InstanceMerge::replace,
                                                  std::move(price_overlays)});
    }

    void read_site(const YamlNode& node, Site& site) {
        if (!node.expect_map({"electricity_per_kwh", "pue", "colocation_per_kw_month",
                              "staff_fte_per_node", "staff_cost_per_fte_year",
                              "maintenance_rate_per_year", "utilisation", "economic_life_months",
                              "resale_curve"})) {
            return;
        }
        auto merge = [&](std::string_view key, std::optional<Parameter>& target,
                         const NumberRange& range) {
            if (auto value = parameter_at(node, key, false, range)) {
                target = std::move(value);
            }
        };
        constexpr NumberRange k_pue{1.0, 10.0, false, "a PUE from 1 to 10"};
        constexpr NumberRange k_life{1.0, 600.0, false, "a number of months from 1 to 600"};
        merge("electricity_per_kwh", site.electricity_per_kwh, k_price);
        merge("pue", site.pue, k_pue);
        merge("colocation_per_kw_month", site.colocation_per_kw_month, k_price);
        merge("staff_fte_per_node", site.staff_fte_per_node, k_non_negative);
        merge("staff_cost_per_fte_year", site.staff_cost_per_fte_year, k_price);
        merge("maintenance_rate_per_year", site.maintenance_rate_per_year, k_fraction);
        merge("utilisation", site.utilisation, k_fraction);
        merge("economic_life_months", site.economic_life_months, k_life);
        if (auto curve = node.get("resale_curve")) {
            if (curve->expect_map({"source", "as_of", "note", "points"})) {
                site.resale_sources = required_sources(*curve);
                if (auto as_of = curve->get("as_of")) {
                    site.resale_as_of = as_of->as_date();
                }
                site.resale_curve.clear();
                if (auto points = curve->require("points")) {
                    double previous_months = -1.0;
                    for (const YamlNode& point : points->items()) {
                        if (!point.expect_map({"months", "fraction"})) {
                            continue;
                        }
                        auto months = point.number_at("months", true, k_non_negative);
                        auto fraction = point.number_at("fraction", true, k_fraction);
                        if (!months || !fraction) {
                            continue;
                        }
                        if (*months <= previous_months) {
                            point.error("resale curve points must have increasing months");
                            continue;
                        }
                        previous_months = *months;
                        site.resale_curve.push_back({*months, *fraction});
                    }
                }
            }
        }
    }

    void read_self_built(const YamlNode& node) {
        if (!node.expect_map({"currency", "site", "builds"})) {
            return;
        }
        SelfBuilt self_built = m_catalog.self_built.value_or(SelfBuilt{});
        if (auto currency =
                m_catalog.self_built ? node.get("currency") : node.require("currency")) {
            if (auto code = currency->as_string()) {
                if (!is_currency_code(*code)) {
                    currency->error(fmt::format(
                        "expected an ISO 4217 currency code such as USD, got \"{}\"", *code));
                } else {
                    self_built.currency = *code;
                    defer(PendingReference::Kind::currency, *code, *currency);
                }
            }
        }
        if (auto site = node.get("site")) {
            read_site(*site, self_built.site);
        }
        if (auto builds = node.get("builds")) {
            std::set<std::string, std::less<>> seen;
            for (const YamlNode& item : builds->items()) {
                if (!item.expect_map({"name", "gpu", "gpu_count", "capex", "network_capex_per_node",
                                      "node_kw", "lead_time_weeks", "network_gbps", "nvlink",
                                      "source", "as_of", "note"})) {
                    continue;
                }
                Build build;
                build.name = item.string_at("name", true).value_or("");
                if (auto gpu = item.require("gpu")) {
                    if (auto name = gpu->as_string()) {
                        build.gpu = *name;
                        defer(PendingReference::Kind::gpu, *name, *gpu);
                    }
                }
                if (auto count = item.require("gpu_count")) {
                    build.gpu_count = static_cast<int>(count->as_integer(1, 1024).value_or(0));
                }
                build.capex = item.number_at("capex", true, k_price).value_or(0.0);
                build.network_capex_per_node =
                    item.number_at("network_capex_per_node", false, k_price).value_or(0.0);
                build.node_kw = item.number_at("node_kw", true, k_positive).value_or(0.0);
                build.lead_time_weeks =
                    item.number_at("lead_time_weeks", true, k_non_negative).value_or(0.0);
                build.network_gbps = item.number_at("network_gbps", false, k_positive);
                if (auto nvlink = item.get("nvlink")) {
                    build.nvlink = nvlink->as_bool().value_or(false);
                }
                build.sources = required_sources(item);
                if (auto as_of = item.require("as_of")) {
                    build.as_of = as_of->as_date().value_or(Date{});
                }
                build.note = item.string_at("note", false).value_or("");
                if (build.name.empty()) {
                    continue;
                }
                if (!seen.insert(build.name).second) {
                    item.get("name")->error(fmt::format("duplicate build '{}'", build.name));
                    continue;
                }
                auto it = std::find_if(self_built.builds.begin(), self_built.builds.end(),
                                       [&](const Build& b) { return b.name == build.name; });
                if (it != self_built.builds.end()) {
                    *it = std::move(build);
                } else {
                    self_built.builds.push_back(std::move(build));
                }
            }
        }
        m_catalog.self_built = std::move(self_built);
    }

    void read_fx(const YamlNode& node) {
        if (!node.expect_map({"base", "rates"})) {
            return;
        }
        if (auto base = node.get("base")) {
            if (auto code = base->as_string()) {
                if (*code != m_catalog.fx.base) {
                    base->error(fmt::format("fx base must be {} (the one base every catalog "
                                            "shares), got \"{}\"",
                                            m_catalog.fx.base, *code));
                }
            }
        }
        auto rates = node.get("rates");
        if (!rates) {
            return;
        }
        std::set<std::pair<std::string, std::string>> seen; // (currency, as_of)
        for (const YamlNode& item : rates->items()) {
            if (!item.expect_map({"currency", "per_base", "as_of", "source"})) {
                continue;
            }
            FxRate rate;
            auto code = item.string_at("currency", true);
            if (code && !is_currency_code(*code)) {
                item.get("currency")
                    ->error(fmt::format(
                        "expected an ISO 4217 currency code such as CNY, got \"{}\"", *code));
                code.reset();
            }
            rate.per_base = item.number_at("per_base", true, k_positive).value_or(0.0);
            if (auto as_of = item.require("as_of")) {
                rate.as_of = as_of->as_date().value_or(Date{});
            }
            rate.sources = required_sources(item);
            if (!code || rate.per_base <= 0.0) {
                continue;
            }
            rate.currency = *code;
            // Several dated rates per currency are kept; one currency and date is one rate.
            if (!seen.emplace(rate.currency, rate.as_of.to_string()).second) {
                item.get("currency")
                    ->error(fmt::format("duplicate rate for {} as of {}", rate.currency,
                                        rate.as_of.to_string()));
                continue;
            }
            auto it = std::find_if(m_catalog.fx.rates.begin(), m_catalog.fx.rates.end(),
                                   [&](const FxRate& r) {
                                       return r.currency == rate.currency && r.as_of == rate.as_of;
                                   });
            if (it != m_catalog.fx.rates.end()) {
                *it = std::move(rate);
            } else {
                m_catalog.fx.rates.push_back(std::move(rate));
            }
        }
    }

    void read_benchmark(const YamlNode& node) {
        if (!node.expect_map({"model", "gpu", "precision", "metric", "value", "gpu_count", "source",
                              "as_of", "note"})) {
            return;
        }
        Benchmark benchmark;
        benchmark.model = node.string_at("model", true).value_or("");
        if (auto gpu = node.require("gpu")) {
            if (auto name = gpu->as_string()) {
                benchmark.gpu = *name;
                defer(PendingReference::Kind::gpu, *name, *gpu);
            }
        }
        if (auto precision = node.require("precision")) {
            if (auto index =
                    precision->as_choice({"fp32", "tf32", "fp16", "bf16", "fp8", "int8", "int4"})) {
                benchmark.precision = static_cast<Precision>(*index);
            }
        }
        if (auto metric = node.require("metric")) {
            if (auto index = metric->as_choice(
                    {"samples_per_second_per_gpu", "tokens_per_second_per_gpu"})) {
                benchmark.metric =
                    *index == 0 ? "samples_per_second_per_gpu" : "tokens_per_second_per_gpu";
            }
        }
        benchmark.value = node.number_at("value", true, k_positive).value_or(0.0);
        if (auto count = node.get("gpu_count")) {
            benchmark.gpu_count = static_cast<int>(count->as_integer(1, 100'000).value_or(1));
        }
        benchmark.sources = required_sources(node);
        if (auto as_of = node.require("as_of")) {
            benchmark.as_of = as_of->as_date().value_or(Date{});
        }
        auto same = [&](const Benchmark& b) {
            return b.model == benchmark.model && detail::iequals(b.gpu, benchmark.gpu) &&
                   b.precision == benchmark.precision && b.metric == benchmark.metric;
        };
        auto it = std::find_if(m_catalog.benchmarks.begin(), m_catalog.benchmarks.end(), same);
        if (it != m_catalog.benchmarks.end()) {
            *it = std::move(benchmark);
        } else {
            m_catalog.benchmarks.push_back(std::move(benchmark));
        }
    }

    const TextFile& m_file;
    Catalog& m_catalog;
    std::vector<PendingReference>& m_pending;
    YamlContext m_context;
    detail::SourceIds m_local_sources;
    std::vector<Gpu> m_file_gpus;
    std::set<std::string, std::less<>> m_file_providers;
};

// What is wrong with a slice of an instance's GPU; empty when nothing (or the GPU is unknown,
// which its own reference reports).
std::string slice_error(const Catalog& catalog, const PendingReference& ref) {
    const Gpu* gpu = find_gpu(catalog, ref.name);
    if (gpu == nullptr) {
        return {};
    }
    if (!ref.mig_profile.empty() && find_mig_profile(gpu->name, ref.mig_profile) == nullptr) {
        std::vector<std::string_view> names;
        for (const MigProfile& p : mig_profiles(gpu->name)) {
            names.push_back(p.name);
        }
        return names.empty()
                   ? fmt::format(
                         "GPU '{}' has no MIG profiles gpuplan knows (docs/catalog-format.md)",
                         gpu->name)
                   : fmt::format("GPU '{}' has no MIG profile '{}'; its profiles: {}", gpu->name,
                                 ref.mig_profile, fmt::join(names, ", "));
    }
    if (ref.slice_memory_gib && *ref.slice_memory_gib > gpu->memory_gib) {
        return fmt::format("gpu_memory_gib {:g} is more than the {:g} GiB of a whole {}",
                           *ref.slice_memory_gib, gpu->memory_gib, gpu->name);
    }
    return {};
}

void check_references(Catalog& catalog, const std::vector<PendingReference>& pending,
                      DiagnosticSink& sink) {
    std::vector<std::string_view> gpu_names;
    for (const Gpu& gpu : catalog.gpus) {
        gpu_names.push_back(gpu.name);
    }
    std::vector<std::string_view> currencies{catalog.fx.base};
    for (const FxRate& rate : catalog.fx.rates) {
        currencies.push_back(rate.currency);
    }
    for (const PendingReference& ref : pending) {
        Diagnostic diagnostic = ref.where;
        if (ref.kind == PendingReference::Kind::slice) {
            diagnostic.message = slice_error(catalog, ref);
            if (!diagnostic.message.empty()) {
                sink.add(std::move(diagnostic));
            }
            continue;
        }
        if (ref.kind == PendingReference::Kind::gpu) {
            if (find_gpu(catalog, ref.name) != nullptr) {
                continue;
            }
            std::string hint = detail::closest_match(ref.name, gpu_names);
            diagnostic.message =
                hint.empty() ? fmt::format("unknown GPU '{}': no such model in `gpus`", ref.name)
                             : fmt::format("unknown GPU '{}'; did you mean '{}'?", ref.name, hint);
        } else {
            if (std::find(currencies.begin(), currencies.end(), ref.name) != currencies.end()) {
                continue;
            }
            diagnostic.message =
                fmt::format("currency {} has no exchange rate: add it to `fx.rates`", ref.name);
        }
        sink.add(std::move(diagnostic));
    }
    // Canonical GPU names everywhere, so later stages compare names exactly.
    auto canonical = [&](std::string& name) {
        if (const Gpu* gpu = find_gpu(catalog, name)) {
            name = gpu->name;
        }
    };
    for (Provider& provider : catalog.providers) {
        for (Instance& instance : provider.instances) {
            canonical(instance.gpu);
        }
    }
    if (catalog.self_built) {
        for (Build& build : catalog.self_built->builds) {
            canonical(build.gpu);
        }
    }
    for (Benchmark& benchmark : catalog.benchmarks) {
        canonical(benchmark.gpu);
    }
}

void check_site(const Catalog& catalog, DiagnosticSink& sink) {
    if (!catalog.self_built || catalog.self_built->builds.empty()) {
        return;
    }
    const Site& site = catalog.self_built->site;
    std::vector<std::string_view> missing;
    auto need = [&](std::string_view key, const std::optional<Parameter>& value) {
        if (!value) {
            missing.push_back(key);
        }
    };
    need("electricity_per_kwh", site.electricity_per_kwh);
    need("pue", site.pue);
    need("colocation_per_kw_month", site.colocation_per_kw_month);
    need("staff_fte_per_node", site.staff_fte_per_node);
    need("staff_cost_per_fte_year", site.staff_cost_per_fte_year);
    need("maintenance_rate_per_year", site.maintenance_rate_per_year);
    need("utilisation", site.utilisation);
    need("economic_life_months", site.economic_life_months);
    if (site.resale_curve.empty()) {
        missing.emplace_back("resale_curve");
    }
    if (!missing.empty()) {
        sink.add(Diagnostic{catalog.files.empty() ? "" : catalog.files.back(), 0, 0,
                            "/self_built/site",
                            fmt::format("self-built builds need site parameters: missing {}",
                                        detail::join_choices(missing))});
    }
}

Catalog load_into(Catalog catalog, std::span<const TextFile> files, DiagnosticSink& sink) {
    std::vector<PendingReference> pending;
    for (const TextFile& file : files) {
        FileReader(file, catalog, sink, pending).read();
        catalog.files.push_back(file.name);
        catalog.digest = fnv1a64_hex(file.text, catalog.digest);
    }
    check_references(catalog, pending, sink);
    check_site(catalog, sink);
    return catalog;
}

} // namespace

std::string register_source(Catalog& catalog, Source source, std::string_view origin) {
    std::string key = source.id;
    for (int attempt = 0;; ++attempt) {
        auto it = catalog.sources.find(key);
        if (it == catalog.sources.end()) {
            source.id = key;
            catalog.sources.emplace(key, std::move(source));
            return key;
        }
        Source candidate = source;
        candidate.id = key;
        if (it->second == candidate) {
            return key;
        }
        key = attempt == 0 ? fmt::format("{}@{}", source.id, origin)
                           : fmt::format("{}@{}#{}", source.id, origin, attempt);
    }
}

void merge_provider(Catalog& catalog, ProviderOverlay later) {
    auto existing = std::find_if(catalog.providers.begin(), catalog.providers.end(),
                                 [&](const Provider& p) { return p.name == later.provider.name; });
    if (existing == catalog.providers.end()) {
        catalog.providers.push_back(std::move(later.provider));
        return;
    }
    Provider& target = *existing;
    Provider& source = later.provider;
    const ProviderKeys& keys = later.keys;
    // Prices already in the catalog keep the date and source they were read with, even when the
    // later file states new provider defaults.
    if ((keys.as_of && source.as_of != target.as_of) ||
        (keys.sources && source.sources != target.sources)) {
        for (Instance& instance : target.instances) {
            for (PriceRow& row : instance.prices) {
                row.as_of = row.as_of.value_or(target.as_of);
                if (row.sources.empty()) {
                    row.sources = target.sources;
                }
            }
            for (ReservedPrice& price : instance.reserved) {
                price.as_of = price.as_of.value_or(target.as_of);
            }
        }
    }
    auto take = [](bool stated, auto& into, auto& from) {
        if (stated) {
            into = std::move(from);
        }
    };
    take(keys.display_name, target.display_name, source.display_name);
    take(keys.currency, target.currency, source.currency);
    take(keys.as_of, target.as_of, source.as_of);
    take(keys.sources, target.sources, source.sources);
    take(keys.billing, target.billing, source.billing);
    take(keys.spot, target.spot, source.spot);
    take(keys.reserved_discounts, target.reserved_discounts, source.reserved_discounts);
    take(keys.egress_per_gb, target.egress_per_gb, source.egress_per_gb);
    take(keys.note, target.note, source.note);
    for (Instance& instance : source.instances) {
        auto it = std::find_if(target.instances.begin(), target.instances.end(),
                               [&](const Instance& i) { return i.type == instance.type; });
        if (it == target.instances.end()) {
            target.instances.push_back(std::move(instance));
        } else if (later.price_rows_only.contains(instance.type)) {
            // A price overlay: its rows replace the rows of the same (region, zone), others stay.
            for (PriceRow& row : instance.prices) {
                auto same =
                    std::find_if(it->prices.begin(), it->prices.end(), [&](const PriceRow& r) {
                        return r.region == row.region && r.zone == row.zone;
                    });
                if (same != it->prices.end()) {
                    *same = std::move(row);
                } else {
                    it->prices.push_back(std::move(row));
                }
            }
        } else if (later.instances == InstanceMerge::replace) {
            *it = std::move(instance);
        } else {
            it->gpu = std::move(instance.gpu);
            it->gpu_count = instance.gpu_count;
            it->vcpus = instance.vcpus;
            it->memory_gib = instance.memory_gib;
            it->prices = std::move(instance.prices);
        }
    }
}

Catalog overlay_feed(Catalog base, FeedOverlay feed,
                     const std::map<std::string, Source>& gpu_sources) {
    for (const Gpu& gpu : feed.gpus) {
        if (find_gpu(base, gpu.name) != nullptr) {
            continue;
        }
        for (const std::string& id : gpu.sources) {
            auto it = gpu_sources.find(id);
            if (it != gpu_sources.end() && !base.sources.contains(id)) {
                base.sources.emplace(id, it->second);
            }
        }
        base.gpus.push_back(gpu);
    }
    const std::string origin = feed.names.empty() ? std::string("feed") : feed.names.front();
    std::map<std::string, std::string> ids;
    for (const Source& source : feed.sources) {
        ids[source.id] = register_source(base, source, origin);
    }
    DiagnosticSink sink;
    for (Provider& provider : feed.providers) {
        for (std::string& id : provider.sources) {
            auto it = ids.find(id);
            if (it != ids.end()) {
                id = it->second;
            }
        }
        if (provider.currency != base.fx.base && find_fx_rate(base, provider.currency) == nullptr) {
            sink.add(Diagnostic{origin, 0, 0, "",
                                fmt::format("currency {} of provider '{}' has no exchange rate: "
                                            "add it to `fx.rates`",
                                            provider.currency, provider.name)});
        }
        ProviderKeys keys;
        keys.currency = true;
        keys.as_of = true;
        keys.sources = true;
        merge_provider(
            base, ProviderOverlay{std::move(provider), keys, InstanceMerge::specs_and_prices, {}});
    }
    sink.throw_if_any();
    for (std::size_t i = 0; i < feed.names.size() && i < feed.texts.size(); ++i) {
        base.files.push_back(feed.names[i]);
        base.digest = fnv1a64_hex(feed.texts[i], base.digest);
    }
    return base;
}

std::string fnv1a64_hex(std::string_view text, std::string_view seed) {
    constexpr std::uint64_t k_offset = 0xcbf29ce484222325ULL;
    constexpr std::uint64_t k_prime = 0x100000001b3ULL;
    std::uint64_t hash = k_offset;
    for (char c : seed) {
        hash = (hash ^ static_cast<unsigned char>(c)) * k_prime;
    }
    for (char c : text) {
        hash = (hash ^ static_cast<unsigned char>(c)) * k_prime;
    }
    return fmt::format("{:016x}", hash);
}

Catalog load_catalog(std::span<const TextFile> files) {
    DiagnosticSink sink;
    Catalog catalog = load_into(Catalog{}, files, sink);
    sink.throw_if_any();
    return catalog;
}

Catalog overlay_catalog(Catalog base, std::span<const TextFile> files) {
    DiagnosticSink sink;
    Catalog catalog = load_into(std::move(base), files, sink);
    sink.throw_if_any();
    return catalog;
}

std::vector<Diagnostic> validate_catalog(std::span<const TextFile> files) {
    DiagnosticSink sink;
    (void)load_into(Catalog{}, files, sink);
    return sink.diagnostics();
}

} // namespace gpuplan::catalog

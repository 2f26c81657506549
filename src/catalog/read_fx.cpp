// Exchange rates: the shared base currency and dated rates against it.

#include "file_reader.hpp"

#include <fmt/format.h>

namespace gpuplan::catalog::reading {

void FileReader::read_fx(const YamlNode& node) {
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
                ->error(fmt::format("expected an ISO 4217 currency code such as CNY, got \"{}\"",
                                    *code));
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
        auto same = [&](const FxRate& r) {
            return r.currency == rate.currency && r.as_of == rate.as_of;
        };
        replace_or_append(m_catalog.fx.rates, std::move(rate), same);
    }
}

} // namespace gpuplan::catalog::reading

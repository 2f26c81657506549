#include "cost/option_buffer.hpp"

#include <algorithm>
#include <utility>

namespace gpuplan::cost {

OptionList::OptionList() noexcept = default;

OptionList::OptionList(std::vector<Option> options)
    : m_buffer(std::make_unique<detail::OptionBuffer>()) {
    m_buffer->options.assign(std::make_move_iterator(options.begin()),
                             std::make_move_iterator(options.end()));
}

OptionList::OptionList(const OptionList& other)
    : m_buffer(other.m_buffer ? std::make_unique<detail::OptionBuffer>(*other.m_buffer) : nullptr) {
}

OptionList::OptionList(OptionList&& other) noexcept = default;

OptionList& OptionList::operator=(const OptionList& other) {
    if (this != &other) {
        OptionList copy(other);
        m_buffer = std::move(copy.m_buffer);
    }
    return *this;
}

OptionList& OptionList::operator=(OptionList&& other) noexcept = default;

OptionList::~OptionList() = default;

std::span<const Option> OptionList::view() const noexcept {
    return m_buffer ? std::span<const Option>(m_buffer->options) : std::span<const Option>();
}

std::span<Option> OptionList::view() noexcept {
    return m_buffer ? std::span<Option>(m_buffer->options) : std::span<Option>();
}

void OptionList::erase_if(bool (*drop)(const Option&)) {
    if (m_buffer) {
        std::erase_if(m_buffer->options, drop);
    }
}

bool OptionList::operator==(const OptionList& other) const {
    return std::ranges::equal(view(), other.view());
}

detail::OptionBuffer& OptionList::buffer() {
    if (!m_buffer) {
        m_buffer = std::make_unique<detail::OptionBuffer>();
    }
    return *m_buffer;
}

} // namespace gpuplan::cost

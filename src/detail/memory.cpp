#include "detail/memory.hpp"

#include <cstdint>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace gpuplan::detail {

void advise_huge_pages(void* data, std::size_t bytes) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    constexpr std::uintptr_t k_huge_page = std::uintptr_t{2} << 20;
    const auto begin = reinterpret_cast<std::uintptr_t>(data);
    const std::uintptr_t from = (begin + k_huge_page - 1) & ~(k_huge_page - 1);
    const std::uintptr_t to = (begin + bytes) & ~(k_huge_page - 1);
    if (to > from) {
        // Advice only: if the kernel declines, the buffer is filled with ordinary pages.
        (void)madvise(reinterpret_cast<void*>(from), to - from, MADV_HUGEPAGE);
    }
#else
    (void)data;
    (void)bytes;
#endif
}

} // namespace gpuplan::detail

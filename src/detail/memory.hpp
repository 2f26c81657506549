#pragma once
// Advice to the operating system about memory gpuplan is about to fill.

#include <cstddef>

namespace gpuplan::detail {

// Asks for transparent huge pages (2 MiB) for the whole 2 MiB-aligned pages inside
// [data, data + bytes): filling a large buffer then takes one page fault per 2 MiB instead of one
// per 4 KiB, which matters where faults are expensive (virtual machines). Only advice: a no-op
// where the system has no such pages or the range holds no whole huge page; results never change.
void advise_huge_pages(void* data, std::size_t bytes);

} // namespace gpuplan::detail

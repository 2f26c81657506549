#pragma once
// Runs a reader in a test and returns the diagnostics of the InputError it throws, formatted as
// gpuplan prints them (empty when it does not throw).

#include "gpuplan/error.hpp"

#include <string>
#include <vector>

namespace gpuplan::test {

template <class Fn> std::vector<std::string> input_problems(Fn&& read) {
    try {
        (void)read();
    } catch (const InputError& e) {
        std::vector<std::string> out;
        for (const Diagnostic& d : e.diagnostics()) {
            out.push_back(format_diagnostic(d));
        }
        return out;
    }
    return {};
}

} // namespace gpuplan::test

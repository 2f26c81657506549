#pragma once
// The parsed decision tree in the compact binary form of the embedded bundle: gpuplan_bundle
// stores the shipped tree this way (BundleView::compiled, bundle.hpp), so that a run resolves it
// against the active catalog without parsing YAML.

#include "decide/parsed_tree.hpp"

#include <string>
#include <string_view>

namespace gpuplan::codecs {

// Serialises a parsed tree.
[[nodiscard]] std::string write_tree_bundle(const decide::ParsedTree& parsed);

// Decodes bytes written by write_tree_bundle. Throws RuntimeError when the bytes are not a parsed
// tree of this build's format (truncated, corrupt, an operator or option out of range).
[[nodiscard]] decide::ParsedTree read_tree_bundle(std::string_view bytes);

} // namespace gpuplan::codecs

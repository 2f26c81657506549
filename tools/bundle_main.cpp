// gpuplan_bundle OUTPUT CATALOG_DIR FILE...
//
// Build-time tool: loads and validates the shipped catalog (a build error when it is invalid),
// then writes the bundle that cmake/EmbedCatalog.cmake embeds into the executable, with the
// shipped decision tree parsed (resolved against the active catalog at run time).

#include "codecs/bundle.hpp"
#include "codecs/tree_bundle.hpp"
#include "codecs/workload_bundle.hpp"
#include "gpuplan/catalog/loader.hpp"
#include "gpuplan/shipped.hpp"
#include "gpuplan/workload/reader.hpp"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

namespace {

std::string read_file(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        throw std::runtime_error("cannot read " + path.string());
    }
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

} // namespace

int main(int argc, char** argv) {
    if (argc < 3) {
        std::cerr << "usage: gpuplan_bundle OUTPUT CATALOG_DIR FILE...\n";
        return 2;
    }
    try {
        const std::filesystem::path output = argv[1];
        const std::filesystem::path root = argv[2];
        std::vector<std::pair<std::string, std::string>> files;
        for (int i = 3; i < argc; ++i) {
            const std::filesystem::path path = argv[i];
            files.emplace_back(std::filesystem::relative(path, root).generic_string(),
                               read_file(path));
        }
        std::vector<gpuplan::TextFile> catalog_files;
        for (const auto& [name, text] : files) {
            if (gpuplan::shipped::kind_of(name) == gpuplan::shipped::FileKind::catalog) {
                catalog_files.push_back({"catalog/" + name, text});
            }
        }
        auto problems = gpuplan::shipped::validate_shipped(files);
        if (!problems.empty()) {
            for (const auto& diagnostic : problems) {
                std::cerr << gpuplan::format_diagnostic(diagnostic) << '\n';
            }
            std::cerr << "gpuplan_bundle: the shipped catalog is invalid\n";
            return 1;
        }
        const gpuplan::catalog::Catalog catalog = gpuplan::catalog::load_catalog(catalog_files);
        std::vector<std::pair<std::string, std::string>> compiled;
        for (const auto& [name, text] : files) {
            if (gpuplan::shipped::kind_of(name) == gpuplan::shipped::FileKind::rules) {
                compiled.emplace_back(name,
                                      gpuplan::codecs::write_tree_bundle(
                                          gpuplan::decide::parse_tree({"catalog/" + name, text})));
            } else if (gpuplan::shipped::kind_of(name) == gpuplan::shipped::FileKind::preset) {
                compiled.emplace_back(
                    name, gpuplan::codecs::write_workload_bundle(
                              gpuplan::workload::read_workload({"catalog/" + name, text})));
            }
        }
        const std::string bytes = gpuplan::codecs::write_bundle(catalog, files, compiled);
        const std::filesystem::path temporary = output.string() + ".tmp";
        {
            std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
            out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
            if (!out) {
                throw std::runtime_error("cannot write " + temporary.string());
            }
        }
        std::filesystem::rename(temporary, output);
        return 0;
    } catch (const std::exception& e) {
        std::cerr << "gpuplan_bundle: " << e.what() << '\n';
        return 1;
    }
}

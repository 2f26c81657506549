# gpuplan_embed_catalog(TARGET CATALOG_DIR)
#
# Runs gpuplan_bundle over every YAML file under CATALOG_DIR. The tool loads and validates the
# catalog (a build error if it is invalid), then writes one bundle file: the validated catalog in
# a compact binary form plus the raw text of every shipped file. An object library places the
# bundle in the executable's read-only data with the assembler's .incbin, so start-up reads no
# files and parses no YAML.
function(gpuplan_embed_catalog target catalog_dir)
  file(GLOB_RECURSE catalog_files CONFIGURE_DEPENDS ${catalog_dir}/*.yaml)
  list(SORT catalog_files)
  set(bundle ${CMAKE_CURRENT_BINARY_DIR}/catalog.bundle)
  add_custom_command(
    OUTPUT ${bundle}
    COMMAND gpuplan_bundle ${bundle} ${catalog_dir} ${catalog_files}
    DEPENDS gpuplan_bundle ${catalog_files}
    COMMENT "Validating and bundling the embedded catalog"
    VERBATIM)
  add_custom_target(${target}_data DEPENDS ${bundle})
  set(asm_source ${CMAKE_CURRENT_BINARY_DIR}/embedded_bundle.cpp)
  configure_file(${CMAKE_CURRENT_SOURCE_DIR}/src/embedded/embedded_bundle.cpp.in ${asm_source} @ONLY)
  add_library(${target} STATIC ${asm_source} ${CMAKE_CURRENT_SOURCE_DIR}/src/embedded/embedded.cpp)
  target_include_directories(${target} PUBLIC ${CMAKE_CURRENT_SOURCE_DIR}/include)
  target_link_libraries(${target} PUBLIC gpuplan_decide PRIVATE gpuplan_codecs)
  add_dependencies(${target} ${target}_data)
  set_source_files_properties(${asm_source} PROPERTIES OBJECT_DEPENDS ${bundle})
  gpuplan_set_warnings(${target})
endfunction()

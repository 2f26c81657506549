# Warnings every target compiles with; GPUPLAN_WERROR makes them errors (CI does).
function(gpuplan_set_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow -Wconversion
                         -Wsign-conversion -Wnon-virtual-dtor -Wold-style-cast)
  # GCC 12 reports -Wrestrict on ordinary std::string concatenation at -O3 (GCC bug 105651,
  # fixed in GCC 13); the warning is a false positive there, so it is off for GCC 12 only.
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
    target_compile_options(${target} PRIVATE -Wno-restrict)
  endif()
  if(GPUPLAN_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
  if(GPUPLAN_SANITIZE)
    target_compile_options(${target} PRIVATE -fsanitize=address,undefined
                           -fno-sanitize-recover=all -fno-omit-frame-pointer)
    target_link_options(${target} PRIVATE -fsanitize=address,undefined)
  endif()
endfunction()

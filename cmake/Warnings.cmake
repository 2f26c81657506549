# Warnings every target compiles with; GPUPLAN_WERROR makes them errors (CI does).
function(gpuplan_set_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow -Wconversion
                         -Wsign-conversion -Wnon-virtual-dtor -Wold-style-cast)
  if(GPUPLAN_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
  if(GPUPLAN_SANITIZE)
    target_compile_options(${target} PRIVATE -fsanitize=address,undefined
                           -fno-sanitize-recover=all -fno-omit-frame-pointer)
    target_link_options(${target} PRIVATE -fsanitize=address,undefined)
  endif()
endfunction()

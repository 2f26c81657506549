# Read by cpack before it packages (CPACK_PROJECT_CONFIG_FILE): the maintainer of this build of
# the package, or a stop with what to set (cmake/PackageMaintainer.cmake).
include(${CPACK_GPUPLAN_MAINTAINER_SCRIPT})
gpuplan_maintainer("${CPACK_GPUPLAN_MAINTAINER}" gpuplan_found gpuplan_problem)
if(gpuplan_found STREQUAL "")
  message(FATAL_ERROR "gpuplan: ${gpuplan_problem}")
endif()
set(CPACK_PACKAGE_CONTACT "${gpuplan_found}")
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${gpuplan_found}")

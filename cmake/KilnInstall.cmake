# Install layout and the CMake package (find_package(Kiln CONFIG)):
#   bin/ln-compile bin/kiln-opt        tools (static LLVM: run anywhere)
#   include/kiln/...                   headers (kiln.h: the C API)
#   lib/libkiln.so                     the C API, self-contained
#   lib/libKiln*.a                     the C++ libraries (need LLVM/MLIR 22)
#   lib/cmake/Kiln/                    KilnConfig.cmake + version file
#   lib/python3/site-packages/kiln     the Python package (finds ../../../libkiln.so)
# Targets: Kiln::kiln (C API, shared), Kiln::kiln_static (C API, static),
# Kiln::Runtime (kiln::rt), Kiln::Compiler (kiln::compileKernel),
# Kiln::AOTRuntime (ahead-of-time kernels, no LLVM) and kiln_add_kernel().
# Everything is relative to the prefix, so the tree can be moved.
include(CMakePackageConfigHelpers)

set(KILN_INSTALL_CMAKEDIR lib/cmake/Kiln)
set(KILN_INSTALL_PYTHONDIR lib/python3/site-packages)

install(TARGETS ln-compile kiln-opt RUNTIME DESTINATION bin)
install(TARGETS kiln LIBRARY DESTINATION lib)
install(TARGETS KilnRuntime KilnBuiltinKernels KilnCAPI KilnAOTRuntime
        ARCHIVE DESTINATION lib)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/kiln DESTINATION include
        FILES_MATCHING PATTERN "*.h" PATTERN "*.td")
install(DIRECTORY ${PROJECT_BINARY_DIR}/include/kiln DESTINATION include
        FILES_MATCHING PATTERN "*.inc" PATTERN "*.h")
install(DIRECTORY ${PROJECT_SOURCE_DIR}/python/kiln
        DESTINATION ${KILN_INSTALL_PYTHONDIR}
        FILES_MATCHING PATTERN "*.py")

# The imported targets, written from the build's own link interfaces: each
# Kiln archive links the Kiln archives and MLIR/LLVM targets it does here.
set(KILN_EXPORTED_ARCHIVES
  KilnSyntax KilnTileDialect KilnTileTransforms KilnAnalysis KilnFrontend
  KilnConversion KilnTarget KilnBuiltinKernels KilnRuntime KilnCAPI)
set(_targets "")
foreach(_lib IN LISTS KILN_EXPORTED_ARCHIVES)
  get_target_property(_deps ${_lib} LINK_LIBRARIES)
  if(NOT _deps)
    set(_deps "")
  endif()
  set(_iface "")
  foreach(_d IN LISTS _deps)
    string(REGEX REPLACE "^\\$<LINK_ONLY:(.*)>$" "\\1" _d "${_d}")
    if(_d MATCHES "^\\$<")
      continue()
    endif()
    list(FIND KILN_EXPORTED_ARCHIVES "${_d}" _at)
    if(_d STREQUAL "KilnAOTRuntime")
      list(APPEND _iface "Kiln::AOTRuntime")
    elseif(_at GREATER -1)
      list(APPEND _iface "Kiln::${_d}")
    else()
      list(APPEND _iface "${_d}")
    endif()
  endforeach()
  list(REMOVE_DUPLICATES _iface)
  string(APPEND _targets
    "add_library(Kiln::${_lib} STATIC IMPORTED)\n"
    "set_target_properties(Kiln::${_lib} PROPERTIES\n"
    "  IMPORTED_LOCATION \"\${_kiln_prefix}/lib/lib${_lib}.a\"\n"
    "  IMPORTED_LINK_INTERFACE_LANGUAGES CXX\n"
    "  INTERFACE_LINK_LIBRARIES \"${_iface}\")\n")
endforeach()
set(KILN_IMPORTED_ARCHIVES "${_targets}")
set(KILN_MLIR_DIR "${MLIR_DIR}")
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/KilnConfig.cmake.in
  ${PROJECT_BINARY_DIR}/cmake/KilnConfig.cmake
  INSTALL_DESTINATION ${KILN_INSTALL_CMAKEDIR})
write_basic_package_version_file(
  ${PROJECT_BINARY_DIR}/cmake/KilnConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES
  ${PROJECT_BINARY_DIR}/cmake/KilnConfig.cmake
  ${PROJECT_BINARY_DIR}/cmake/KilnConfigVersion.cmake
  ${PROJECT_SOURCE_DIR}/cmake/KilnStaticLLVM.cmake
  ${PROJECT_SOURCE_DIR}/cmake/KilnAddKernel.cmake
  DESTINATION ${KILN_INSTALL_CMAKEDIR})

# cpack -G DEB (or TGZ): the same tree under /usr/local by default.
set(CPACK_PACKAGE_NAME kiln)
set(CPACK_PACKAGE_VENDOR "Kiln")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
  "Kiln: a Triton-language tile-kernel compiler and runtime for NVIDIA GPUs")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "Kiln developers <kiln@localhost>")
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "Kiln developers <kiln@localhost>")
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
# Everything links LLVM and libstdc++ statically: libc is the only runtime
# dependency (the CUDA driver is loaded with dlopen when present).
set(CPACK_DEBIAN_PACKAGE_DEPENDS "libc6 (>= 2.34)")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr/local)
set(CPACK_GENERATOR "DEB;TGZ")
set(CPACK_STRIP_FILES ON)
include(CPack)

# Install into a temporary prefix, move it, and build and run a consumer
# project (C and C++) and the Python package against it.
find_program(KILN_BASH bash)
if(KILN_BASH)
  add_test(NAME Install.consumer
    COMMAND ${KILN_BASH} ${PROJECT_SOURCE_DIR}/unittests/Install/run-install-test.sh
            ${PROJECT_BINARY_DIR})
  set_tests_properties(Install.consumer PROPERTIES TIMEOUT 1200 RUN_SERIAL ON)
endif()

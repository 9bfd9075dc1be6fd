# Debian's LLVM/MLIR packages are configured with LLVM_LINK_LLVM_DYLIB, so every
# exported MLIR target links the libLLVM.so dylib (target "LLVM"). Kiln's tools
# are copied to GPU machines without LLVM, so we rewrite those interfaces to the
# static LLVM component archives (NVPTX the only target) and link compression
# libraries statically too. Only archive members that are referenced end up in
# a binary, so listing a superset of components costs nothing at run time.

llvm_map_components_to_libnames(KILN_LLVM_STATIC_LIBS
  Core Support Demangle TargetParser BinaryFormat Remarks BitstreamReader
  IRReader AsmParser BitReader BitWriter Linker TransformUtils Analysis
  ProfileData Object MC MCParser Passes ipo Instrumentation ScalarOpts
  Vectorize InstCombine AggressiveInstCombine CodeGen CodeGenTypes
  SelectionDAG AsmPrinter Target FrontendOpenMP FrontendOffloading
  FrontendAtomic FrontendDirective FrontendHLSL
  NVPTXCodeGen NVPTXDesc NVPTXInfo)

set(_kiln_zlib_static "/usr/lib/x86_64-linux-gnu/libz.a")
set(_kiln_zstd_static "/usr/lib/x86_64-linux-gnu/libzstd.a")

function(_kiln_rewrite_interface target)
  if(NOT TARGET ${target})
    return()
  endif()
  get_target_property(_type ${target} TYPE)
  if(_type STREQUAL "EXECUTABLE")
    return()
  endif()
  get_target_property(_libs ${target} INTERFACE_LINK_LIBRARIES)
  if(NOT _libs)
    return()
  endif()
  set(_out)
  foreach(_lib IN LISTS _libs)
    if(_lib STREQUAL "LLVM")
      list(APPEND _out ${KILN_LLVM_STATIC_LIBS})
    elseif(_lib MATCHES "libz3\\.so")
      # Only LLVM's optional Z3 solver uses it; Kiln never does.
    elseif(_lib STREQUAL "ZLIB::ZLIB")
      list(APPEND _out ${_kiln_zlib_static})
    elseif(_lib STREQUAL "zstd::libzstd_shared")
      list(APPEND _out ${_kiln_zstd_static})
    else()
      list(APPEND _out ${_lib})
    endif()
  endforeach()
  set_target_properties(${target} PROPERTIES INTERFACE_LINK_LIBRARIES "${_out}")
endfunction()

foreach(_t IN LISTS MLIR_EXPORTED_TARGETS LLVM_AVAILABLE_LIBS)
  _kiln_rewrite_interface(${_t})
endforeach()

# Links a Kiln executable or shared object fully against static LLVM/MLIR and
# the static C++ runtime, so it runs on a machine with no LLVM installed.
# LLVM's archives are built with per-function sections: dropping unreferenced
# ones shrinks a stripped tool from ~68 MB to ~45 MB, which matters for what
# travels to the GPU machine. (Identical-code folding would save 6 MB more but
# can merge functions whose addresses LLVM compares, so it stays off.)
#
# Executables are linked as position-dependent (-no-pie): a PIE of this size
# starts with ~72 000 relative relocations (1 M instructions in the dynamic
# loader and ~170 copy-on-write page faults on .data.rel.ro and the GOT) in
# every process, a measurable part of a ~20 ms ln-compile run
# (docs/performance.md, "Compile latency"). Shared objects stay PIC.
#
# With lld, the functions a compile runs (cmake/symbol-order.txt, written by
# scripts/gen-symbol-order.py) are placed first and together: a cold
# ln-compile then faults in a few hundred pages of code instead of thousands.
set(KILN_SYMBOL_ORDER "${CMAKE_CURRENT_LIST_DIR}/symbol-order.txt")
function(kiln_static_link target)
  target_link_options(${target} PRIVATE -static-libstdc++ -static-libgcc
                      -Wl,--gc-sections)
  get_target_property(_kiln_type ${target} TYPE)
  if(_kiln_type STREQUAL "EXECUTABLE")
    target_link_options(${target} PRIVATE -no-pie)
  endif()
  if(KILN_LINKER_FLAG)
    target_link_options(${target} PRIVATE ${KILN_LINKER_FLAG})
  endif()
  if(KILN_LLD AND EXISTS "${KILN_SYMBOL_ORDER}")
    target_link_options(${target} PRIVATE "-Wl,--symbol-ordering-file=${KILN_SYMBOL_ORDER}"
                        -Wl,--no-warn-symbol-ordering)
    set_property(TARGET ${target} APPEND PROPERTY LINK_DEPENDS "${KILN_SYMBOL_ORDER}")
  endif()
endfunction()

# cmake -DBINARY=path -P check-no-llvm.cmake
# Fails when BINARY defines or references any llvm:: / mlir:: symbol or needs
# a libLLVM / libMLIR shared library; prints its size.
find_program(NM NAMES nm llvm-nm-22 llvm-nm REQUIRED)
find_program(READELF NAMES readelf llvm-readelf-22 llvm-readelf REQUIRED)
execute_process(COMMAND ${NM} -C ${BINARY} OUTPUT_VARIABLE syms RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "nm ${BINARY} failed")
endif()
# The scan must see C++ symbols at all, or it proves nothing.
if(NOT syms MATCHES "kiln::aot::layer_norm_fwd")
  message(FATAL_ERROR "no kiln::aot::layer_norm_fwd symbol in ${BINARY}: "
                      "cannot check it for LLVM symbols")
endif()
string(REGEX MATCHALL "[^\n]*(llvm|mlir)::[^\n]*" bad "${syms}")
if(bad)
  list(LENGTH bad n)
  list(SUBLIST bad 0 5 first)
  string(REPLACE ";" "\n  " first "${first}")
  message(FATAL_ERROR "${BINARY} has ${n} LLVM/MLIR symbols, e.g.\n  ${first}")
endif()
execute_process(COMMAND ${READELF} -d ${BINARY} OUTPUT_VARIABLE dyn)
if(dyn MATCHES "lib(LLVM|MLIR)[^]]*")
  message(FATAL_ERROR "${BINARY} needs ${CMAKE_MATCH_0}")
endif()
string(REGEX MATCHALL "Shared library: \\[[^]]*\\]" needed "${dyn}")
file(SIZE ${BINARY} size)
message(STATUS "${BINARY}: ${size} bytes, no LLVM/MLIR symbols; ${needed}")

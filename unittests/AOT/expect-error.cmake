# cmake -DPROGRAM=path -DDRIVER=lib -DEXPECT=text -P expect-error.cmake
# Runs PROGRAM with KILN_CUDA_DRIVER=DRIVER; passes when it exits with status
# 1 and its stderr contains EXPECT (a plain string).
set(ENV{KILN_CUDA_DRIVER} "${DRIVER}")
execute_process(COMMAND ${PROGRAM} 4 RESULT_VARIABLE rc
                OUTPUT_VARIABLE out ERROR_VARIABLE err)
string(FIND "${err}" "${EXPECT}" at)
if(NOT rc EQUAL 1 OR at EQUAL -1)
  message(FATAL_ERROR "expected exit status 1 and `${EXPECT}` on stderr; got "
                      "status ${rc}\nstdout: ${out}\nstderr: ${err}")
endif()
message(STATUS "exit status 1: ${err}")

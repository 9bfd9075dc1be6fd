# kiln_add_kernel(<target> FILE k.py KERNEL name SIGNATURE "..."
#                 [CONSTEXPRS NAME=VALUE...] [NUM_WARPS n] [ARCHS sm_80 ...]
#                 [NAME cxx_name] [DEPENDS file...] [OPTIONS flag...])
#
# Compiles one specialization of a Triton-language kernel ahead of time with
# ln-compile at build time and adds the generated C++ to <target>:
# <NAME>.h declares kiln::aot::<NAME>(stream, grid, <the kernel's
# non-constexpr parameters, typed>), <NAME>.cpp embeds the PTX (and a cubin
# per arch when ptxas was found when configuring) and checks the arguments.
# <target> links Kiln::AOTRuntime: no LLVM or MLIR. #include "<NAME>.h".
#
#   SIGNATURE   ln-compile's --signature ("*fp16:16,*fp32,i32:16,fp32")
#   CONSTEXPRS  values of tl.constexpr parameters (ln-compile -D)
#   NUM_WARPS   default 4 (or the --config's, through OPTIONS)
#   ARCHS       default sm_80 sm_90: the device runs the cubin of its arch,
#               else the PTX of the highest arch not above it (driver JIT)
#   NAME        C++ function name (default: KERNEL)
#   DEPENDS     more files the kernel reads (imported modules)
#   OPTIONS     more ln-compile flags (e.g. --config 2 for an autotuned
#               kernel's config)
#
# In Kiln's own build ln-compile is the target of that name; from an
# installed package (find_package(Kiln CONFIG)) it is Kiln_LN_COMPILE.
# KILN_PTXAS (cache variable) overrides the ptxas used; "none" disables
# cubins.
if(NOT DEFINED KILN_PTXAS)
  find_program(KILN_PTXAS ptxas HINTS $ENV{CUDA_HOME}/bin /usr/local/cuda/bin)
endif()

function(kiln_add_kernel target)
  cmake_parse_arguments(PARSE_ARGV 1 K ""
    "FILE;KERNEL;SIGNATURE;NUM_WARPS;NAME" "CONSTEXPRS;ARCHS;DEPENDS;OPTIONS")
  if(K_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "kiln_add_kernel(${target}): unknown arguments "
                        "${K_UNPARSED_ARGUMENTS}")
  endif()
  foreach(_required FILE KERNEL SIGNATURE)
    if(NOT K_${_required})
      message(FATAL_ERROR "kiln_add_kernel(${target}): ${_required} is required")
    endif()
  endforeach()
  if(NOT TARGET ${target})
    message(FATAL_ERROR "kiln_add_kernel: `${target}` is not a target")
  endif()
  if(NOT K_NAME)
    set(K_NAME ${K_KERNEL})
  endif()
  set(_warps "")
  if(K_NUM_WARPS)
    set(_warps --num-warps ${K_NUM_WARPS})
  endif()
  if(NOT K_ARCHS)
    set(K_ARCHS sm_80 sm_90)
  endif()
  get_filename_component(_file "${K_FILE}" ABSOLUTE
                         BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")

  if(TARGET ln-compile)
    set(_ln_compile $<TARGET_FILE:ln-compile>)
    set(_ln_compile_dep ln-compile)
  elseif(Kiln_LN_COMPILE)
    set(_ln_compile "${Kiln_LN_COMPILE}")
    set(_ln_compile_dep "${Kiln_LN_COMPILE}")
  else()
    message(FATAL_ERROR "kiln_add_kernel: ln-compile not found "
                        "(find_package(Kiln CONFIG) first)")
  endif()
  if(TARGET Kiln::AOTRuntime)
    set(_runtime Kiln::AOTRuntime)
  else()
    set(_runtime KilnAOTRuntime)
  endif()
  if(KILN_PTXAS AND NOT KILN_PTXAS STREQUAL "none")
    set(_ptxas "${KILN_PTXAS}")
  else()
    set(_ptxas none)
  endif()

  set(_defines "")
  foreach(_c IN LISTS K_CONSTEXPRS)
    list(APPEND _defines -D "${_c}")
  endforeach()
  string(REPLACE ";" "," _archs "${K_ARCHS}")
  set(_dir "${CMAKE_CURRENT_BINARY_DIR}/kiln_aot/${target}")
  set(_out "${_dir}/${K_NAME}")
  file(MAKE_DIRECTORY "${_dir}")
  add_custom_command(
    OUTPUT "${_out}.h" "${_out}.cpp"
    COMMAND "${_ln_compile}" "${_file}" --kernel "${K_KERNEL}"
            --signature "${K_SIGNATURE}" ${_defines}
            ${_warps} --arch ${_archs}
            --emit=aot --aot-name ${K_NAME} --ptxas "${_ptxas}"
            ${K_OPTIONS} -o "${_out}"
    DEPENDS "${_file}" ${_ln_compile_dep} ${K_DEPENDS}
    COMMENT "Kiln: compiling ${K_KERNEL} of ${K_FILE} ahead of time (${_archs})"
    VERBATIM)
  target_sources(${target} PRIVATE "${_out}.h" "${_out}.cpp")
  target_include_directories(${target} PRIVATE "${_dir}")
  target_link_libraries(${target} PRIVATE ${_runtime})
endfunction()

# kiln_embed_file(OUT_CPP SYMBOL FILE): generates OUT_CPP defining
#   extern const char SYMBOL[];  (NUL-terminated contents of FILE)
# at build time, so binaries carry sources such as the LayerNorm kernels.
function(kiln_embed_file out_cpp symbol file)
  add_custom_command(
    OUTPUT ${out_cpp}
    COMMAND ${CMAKE_COMMAND} -DIN=${file} -DOUT=${out_cpp} -DSYMBOL=${symbol}
            -P ${PROJECT_SOURCE_DIR}/cmake/KilnEmbedScript.cmake
    DEPENDS ${file} ${PROJECT_SOURCE_DIR}/cmake/KilnEmbedScript.cmake
    COMMENT "Embedding ${file}")
endfunction()

//===- AsanOptions.cpp - Sanitizer defaults for every fuzz target ---------===//
//
// LLVM's headers poison and unpoison allocator memory when compiled with
// ASan; Debian's LLVM/MLIR archives are not, so an inline template
// instantiated in Kiln's instrumented code can poison memory the
// uninstrumented library then uses (a false use-after-poison in
// MLIRContext's constructor). Manual poisoning is therefore turned off; ASan
// still checks every access of Kiln's own code. Environment ASAN_OPTIONS
// override these.
//
//===----------------------------------------------------------------------===//
extern "C" const char *__asan_default_options() {
  return "allow_user_poisoning=0:detect_leaks=1";
}

//===- JitMarker.h - The backend's hint to the driver's JIT -----*- C++ -*-===//
//
// Standard C++ only: both the compiler and the AOT runtime include it.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_TARGET_JITMARKER_H
#define KILN_TARGET_JITMARKER_H

namespace kiln {

/// A PTX comment the backend ends a kernel's PTX with when the driver should
/// JIT-compile it as a whole program rather than as relocatable code through
/// its linker (LowerToPTX.cpp says which kernels; the runtimes' KILN_JIT=auto
/// follows it, kiln::rt::chooseJitMode).
inline constexpr const char kWholeProgramMarker[] = "// kiln.jit: whole-program\n";

} // namespace kiln

#endif

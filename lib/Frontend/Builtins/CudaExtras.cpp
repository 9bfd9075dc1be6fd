//===- CudaExtras.cpp - triton.language.extra.cuda helpers ----------------===//
//
// `tl.extra.cuda.globaltimer()`, `smid()`, `num_threads()`, `num_warps()`,
// `gdc_wait()` and `gdc_launch_dependents()` as Triton 3.6 defines them:
// the first two and the grid-dependency controls are inline PTX (built
// through tl.inline_asm_elementwise, as Triton's own wrappers do), the
// counts are constexprs of the launch. Registered as `cuda.<name>`, which
// only the `extra.cuda` module reaches.
//
//===----------------------------------------------------------------------===//
#include "Registry.h"

using namespace kiln;
using namespace kiln::fe;

namespace {
/// One inline-PTX instruction with a single 32- or 64-bit result.
FailureOr<Val> asmScalar(BuiltinCall &c, const char *text,
                         const char *constraint, DType dt, bool pure) {
  return callWith(c.g, "tl.inline_asm_elementwise",
                  {Val::str(text), Val::str(constraint), Val::tuple({}),
                   Val::dtype(dt), Val::boolean(pure), Val::integer(1)},
                  c.e);
}

/// griddepcontrol (programmatic dependent launch) exists from sm_90 on.
FailureOr<Val> gridDependency(BuiltinCall &c, const char *instruction) {
  unsigned cc = archNumber(c.g.spec.arch);
  llvm::StringRef name = c.rd.fn;
  if (cc && cc < 90)
    return c.g.fail(c.e, "`tl.extra." + name.drop_front(3) +
                             "` needs sm_90 or newer, the target is " +
                             c.g.spec.arch);
  FailureOr<Val> r = asmScalar(c, instruction, "=r", DType::I32, false);
  if (failed(r))
    return failure();
  return Val::none();
}

FailureOr<Val> globaltimer(BuiltinCall &c) {
  return asmScalar(c, "mov.u64 $0, %globaltimer;", "=l", DType::I64, false);
}
FailureOr<Val> smid(BuiltinCall &c) {
  return asmScalar(c, "mov.u32 $0, %smid;", "=r", DType::I32, true);
}
FailureOr<Val> numThreads(BuiltinCall &c) {
  return Val::integer(int64_t(c.g.spec.numWarps) * 32);
}
FailureOr<Val> numWarps(BuiltinCall &c) {
  return Val::integer(c.g.spec.numWarps);
}
FailureOr<Val> gdcWait(BuiltinCall &c) {
  return gridDependency(c, "griddepcontrol.wait; // $0");
}
FailureOr<Val> gdcLaunchDependents(BuiltinCall &c) {
  return gridDependency(c, "griddepcontrol.launch_dependents; // $0");
}
} // namespace

llvm::ArrayRef<BuiltinDef> kiln::fe::cudaExtraBuiltins() {
  static const BuiltinDef defs[] = {
      {"cuda.globaltimer", {}, false, false, globaltimer, false},
      {"cuda.smid", {}, false, false, smid, false},
      {"cuda.num_threads", {}, false, false, numThreads, false},
      {"cuda.num_warps", {}, false, false, numWarps, false},
      {"cuda.gdc_wait", {}, false, false, gdcWait, false},
      {"cuda.gdc_launch_dependents", {}, false, false, gdcLaunchDependents,
       false},
  };
  return defs;
}

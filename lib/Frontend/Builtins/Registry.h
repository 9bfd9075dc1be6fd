//===- Registry.h - Table of triton.language builtins ----------*- C++ -*-===//
//
// Each builtin is one table entry: its name, its parameters in Triton 3.6's
// order (`name=default` marks an optional one), whether it is also a tensor
// method (`x.name(...)`) or a `tl.math` function, and the handler that
// generates its IR from the bound arguments. Families (random, math, ...)
// each contribute one table from their own file; adding a builtin is one
// entry plus its handler.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_LIB_FRONTEND_BUILTINS_REGISTRY_H
#define KILN_LIB_FRONTEND_BUILTINS_REGISTRY_H

#include "../BuiltinArgs.h"

namespace kiln::fe {

/// A builtin call after its arguments were bound to the entry's parameters.
struct BuiltinCall {
  IRGen &g;
  ArgReader rd;
  llvm::ArrayRef<Arg> a; ///< one per parameter, in the entry's order
  const ast::CallExpr *e;
  mlir::Location loc;
  const CallArgs &args; ///< the call's arguments as written
};

using BuiltinHandler = mlir::FailureOr<Val> (*)(BuiltinCall &c);

/// Compute capability of "sm_89" (0 when unreadable: no arch check).
inline unsigned archNumber(llvm::StringRef arch) {
  unsigned cc = 0;
  if (arch.consume_front("sm_"))
    (void)arch.getAsInteger(10, cc);
  return cc;
}

struct BuiltinDef {
  const char *name; ///< without the `tl.` prefix
  std::vector<const char *> params;
  bool tensorMethod = false;
  bool inMath = false; ///< also reachable as `tl.math.<name>`
  BuiltinHandler handler = nullptr;
  /// The handler reads `args` itself (variadic builtins: device_print,
  /// broadcast_to); `params` is not used.
  bool rawArgs = false;
};

/// The families' tables (one file each under lib/Frontend/Builtins/).
llvm::ArrayRef<BuiltinDef> memoryBuiltins();
llvm::ArrayRef<BuiltinDef> atomicBuiltins();
llvm::ArrayRef<BuiltinDef> creationBuiltins();
llvm::ArrayRef<BuiltinDef> mathBuiltins();
llvm::ArrayRef<BuiltinDef> reductionBuiltins();
llvm::ArrayRef<BuiltinDef> shapeBuiltins();
llvm::ArrayRef<BuiltinDef> debugBuiltins();
llvm::ArrayRef<BuiltinDef> compileTimeBuiltins();
llvm::ArrayRef<BuiltinDef> randomBuiltins();
llvm::ArrayRef<BuiltinDef> scanBuiltins();
llvm::ArrayRef<BuiltinDef> sortGatherBuiltins();
/// tl.dot (Dot.cpp).
llvm::ArrayRef<BuiltinDef> dotBuiltins();
llvm::ArrayRef<BuiltinDef> dotScaledBuiltins();
/// `tl.extra.cuda` helpers, registered as `cuda.<name>` (CudaExtras.cpp).
llvm::ArrayRef<BuiltinDef> cudaExtraBuiltins();
llvm::ArrayRef<BuiltinDef> raggedTmaBuiltins();
/// `a @ b`: tl.dot(a, b) with Triton's defaults (Dot.cpp).
mlir::FailureOr<Val> matmulOperator(IRGen &g, const Val &lhs, const Val &rhs,
                                    const ast::Node *where);
/// `libdevice.<name>`: Triton's libdevice wrappers (Libdevice.cpp).
llvm::ArrayRef<BuiltinDef> libdeviceBuiltins();

/// The entry named `name` (no `tl.` prefix), or null.
const BuiltinDef *findBuiltin(llvm::StringRef name);

/// `tl.tensor`, `tl.tensor_descriptor`, ...: classes a kernel can only name
/// as `isinstance`'s second argument (Names.cpp).
bool isTLTypeName(llvm::StringRef name);

/// Binds `args` to `def`'s parameters and runs its handler; messages name
/// the builtin as `calledAs` (`tl.cast`, or `to` for `x.to(...)`).
mlir::FailureOr<Val> callRegistered(IRGen &g, const BuiltinDef &def,
                                    llvm::StringRef calledAs,
                                    const CallArgs &args,
                                    const ast::CallExpr *e);

//===--- Helpers shared by the families -----------------------------------===//

/// Calls another builtin (`tl.where`, `tl.maximum`, ...) with positional
/// values, reporting errors at `e`.
mlir::FailureOr<Val> callWith(IRGen &g, llvm::StringRef name,
                              std::vector<Val> pos, const ast::CallExpr *e);

/// `mask` of a load/store/atomic through `ptr`, broadcast to its shape; a
/// null value when not given (Memory.cpp).
mlir::FailureOr<mlir::Value> prepareMask(IRGen &g, ArgReader &rd, const Arg &a,
                                         const Val &ptr);
/// A value stored or exchanged through `ptr`: broadcast, then converted to
/// the pointee type as Triton does implicitly (Memory.cpp).
mlir::FailureOr<Val> prepareValue(IRGen &g, ArgReader &rd, const Arg &a,
                                  const Val &ptr, llvm::StringRef what);

/// Broadcasts `vals` to one common shape in place, as Triton's elementwise
/// builtins do (binaryTypeCheck against a running common value, then each
/// value against the result); `arith` also promotes the dtypes together,
/// `allowPtr` admits pointers (Registry.cpp).
mlir::LogicalResult broadcastTogether(IRGen &g, std::vector<Val> &vals, bool allowPtr,
                                      bool arith, const ast::Node *where,
                                      llvm::StringRef fn);

/// tl.inline_asm_elementwise (InlineAsm.cpp).
mlir::FailureOr<Val> inlineAsmBuiltin(BuiltinCall &c);
/// tl.map_elementwise (MapElementwise.cpp).
mlir::FailureOr<Val> mapElementwiseBuiltin(BuiltinCall &c);

/// The high half of the unsigned product of two integers of the same
/// (promoted) type, as Triton's tl.umulhi.
mlir::FailureOr<Val> umulhi(IRGen &g, Val x, Val y, const ast::Node *where,
                            llvm::StringRef fn);

/// Fills the combiner block of a tile.reduce / tile.scan: gets its 2N
/// arguments (accumulated values first) as scalars, returns the N values to
/// yield (Scan.cpp).
using CombinerBody = llvm::function_ref<mlir::FailureOr<llvm::SmallVector<mlir::Value>>(
    llvm::ArrayRef<Val> args)>;
/// tile.reduce of `inputs` (tensors of one shape) along `axis` (all axes,
/// last first, when none), with Triton's keep_dims.
mlir::FailureOr<std::vector<Val>> reduceWith(IRGen &g, std::vector<Val> inputs,
                                             std::optional<unsigned> axis,
                                             bool keepDims, CombinerBody body,
                                             const ast::Node *e);
/// The element of a one-element tensor (Triton's _unsplat: a reduction
/// that keeps its first operand; Shape.cpp).
mlir::FailureOr<Val> unsplat(IRGen &g, Val x, const ast::Node *e);
/// tile.scan of `inputs` along `axis`.
mlir::FailureOr<std::vector<Val>> scanWith(IRGen &g, std::vector<Val> inputs,
                                           unsigned axis, bool reverse,
                                           CombinerBody body,
                                           const ast::CallExpr *e);

} // namespace kiln::fe

#endif

//===- Tile.h - The tile dialect --------------------------------*- C++ -*-===//
#ifndef KILN_DIALECT_TILE_IR_TILE_H
#define KILN_DIALECT_TILE_IR_TILE_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "kiln/Dialect/Tile/IR/TileOpsDialect.h.inc"
#include "kiln/Dialect/Tile/IR/TileEnums.h.inc"

#define GET_TYPEDEF_CLASSES
#include "kiln/Dialect/Tile/IR/TileOpsTypes.h.inc"

#define GET_ATTRDEF_CLASSES
#include "kiln/Dialect/Tile/IR/TileAttrs.h.inc"

namespace kiln::tile {
/// The kernel argument (an `!llvm.ptr`) holding the global scratch of the
/// tensor maps the kernel builds (tile.tensormap_create): the attribute's
/// value is the bytes each program owns; the launch allocates that many
/// per program of the grid.
inline constexpr const char *kGlobalScratchAttr = "tile.global_scratch";
/// The module attribute holding the warps of one program (set by the
/// frontend, checked by --tile-assign-layouts).
inline constexpr const char *kNumWarpsAttr = "tile.num_warps";

/// Pointer-like type -> the type its load yields: `!tile.ptr<T>` -> T,
/// `tensor<S x !tile.ptr<T>, E>` -> `tensor<S x T, E>`. Other types are
/// returned unchanged.
mlir::Type getPointeeType(mlir::Type ptrLike);
/// Scalar -> i1; tensor<S x T, E> -> tensor<S x i1, E>.
mlir::Type getI1TypeLike(mlir::Type type);
/// Element type of a tensor, or the type itself for a scalar.
mlir::Type getElementTypeOrSelf(mlir::Type type);
/// Compute capability named by the enclosing module's `tile.arch` ("sm_90"
/// -> 90); sm_90 when the module names none, nullopt when it is malformed.
std::optional<unsigned> getTargetComputeCapability(mlir::Operation *op);
/// Warps of one program: the enclosing module's kNumWarpsAttr (`op` may be
/// the module), or `fallback` when it has none.
unsigned getModuleNumWarps(mlir::Operation *op, unsigned fallback = 4);

/// Width in bits of one register of an inline-assembly operand of element
/// type `elem` when `pack` elements go to one instance: narrow elements share
/// a 32-bit register (Triton's packing), pointers are 64 bits.
unsigned inlineAsmRegisterBits(mlir::Type elem, unsigned pack);
/// Registers per operand of one inline-assembly instance.
unsigned inlineAsmRegisterCount(mlir::Type elem, unsigned pack);
/// Checks an NVPTX inline-assembly constraint string (`=r,r,l`) against the
/// register widths of the outputs and inputs; the reason when it does not fit.
std::optional<std::string>
checkInlineAsmConstraints(llvm::StringRef constraints,
                          llvm::ArrayRef<unsigned> outputBits,
                          llvm::ArrayRef<unsigned> inputBits);
/// Checks the operand references of an inline-assembly template against the
/// `numOperands` operands (outputs, then inputs): `$N` / `${N}` / `${N:r}`
/// with N below the count, `$$` (a literal `$`), LLVM's `$(`, `$|`, `$)` and
/// `${:uid}` / `${:comment}` / `${:private}`; the reason when a `$` is
/// anything else (LLVM's printer aborts on it).
std::optional<std::string> checkInlineAsmTemplate(llvm::StringRef text, unsigned numOperands);
} // namespace kiln::tile

#define GET_OP_CLASSES
#include "kiln/Dialect/Tile/IR/TileOps.h.inc"

#endif // KILN_DIALECT_TILE_IR_TILE_H

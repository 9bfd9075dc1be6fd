//===- Types.h - Triton-language types and promotion rules -----*- C++ -*-===//
//
// Runtime values are typed in Triton's terms (element dtype with signedness,
// pointer-ness, shape) because MLIR's signless integers cannot tell uint32
// from int32. The promotion rules follow Triton's semantics: scalar
// constants of a lower or equal kind do not take part in promotion, fp16/bf16
// division goes through fp32, integer promotion follows C.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_LIB_FRONTEND_TYPES_H
#define KILN_LIB_FRONTEND_TYPES_H

#include "kiln/Frontend/Spec.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Types.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>
#include <string>

namespace kiln::fe {

/// Type of a runtime value: a scalar or tensor of `dtype`, or of pointers to
/// `dtype` when `isPtr`.
struct TType {
  DType dtype = DType::I32;
  bool isPtr = false;
  llvm::SmallVector<int64_t, 2> shape; ///< empty for scalars
  /// A pointer to constant data (a `tl.const` parameter): never stored
  /// through. Part of the type, as in Triton, so pointer arithmetic keeps it
  /// and an `if` cannot merge it with a plain pointer.
  bool isConst = false;

  bool isTensor() const { return !shape.empty(); }
  TType scalar() const { return TType{dtype, isPtr, {}, isConst}; }
  TType withShape(llvm::ArrayRef<int64_t> s) const {
    return TType{dtype, isPtr, llvm::SmallVector<int64_t, 2>(s), isConst};
  }
  /// Same shape, element `d` (not a pointer).
  TType withDType(DType d) const { return TType{d, false, shape}; }
  int64_t numel() const;
  bool operator==(const TType &o) const {
    return dtype == o.dtype && isPtr == o.isPtr && shape == o.shape &&
           isConst == o.isConst;
  }
  bool operator!=(const TType &o) const { return !(*this == o); }
};

mlir::Type toMLIR(mlir::MLIRContext *ctx, DType d);
mlir::Type toMLIR(mlir::MLIRContext *ctx, const TType &t);
/// MLIR spelling of a type, e.g. `tensor<1024xf32>`, `!tile.ptr<f16>`, with
/// `ui32` for uint32 so messages keep the signedness.
std::string typeStr(mlir::MLIRContext *ctx, const TType &t);
/// Triton's name of a dtype: `int32`, `uint32`, `fp16`, `bf16`, `fp32`, ...
const char *tritonName(DType d);
/// `[32, 128]`.
std::string shapeStr(llvm::ArrayRef<int64_t> shape);

bool isIntDType(DType d);
bool isUnsigned(DType d);
unsigned bitWidth(DType d);

/// The kind order of scalar-constant promotion, Triton's dtype.kind(): bool < integral < floating. Signedness is not a
/// kind: a Python int next to a uint32 tensor takes the tensor's type.
enum class TypeKind { Bool = 0, Int = 1, Float = 2 };
TypeKind kindOf(DType d);

/// C's usual arithmetic conversions on two integer dtypes.
DType integerPromote(DType a, DType b);

/// Triton's computation_type_impl. `aIsConst` / `bIsConst`: the operand is a
/// Python constant (constexpr) rather than a runtime value. Returns nothing
/// and sets `why` when the combination is invalid.
std::optional<DType> computationType(DType a, bool aIsConst, DType b,
                                     bool bIsConst, bool divOrMod,
                                     std::string &why);

/// Broadcast shape of two shapes after right-aligning ranks (Triton prepends
/// size-1 dims); nothing if incompatible.
std::optional<llvm::SmallVector<int64_t, 2>>
broadcastShapes(llvm::ArrayRef<int64_t> a, llvm::ArrayRef<int64_t> b);

/// Triton's limit on the number of elements of a tensor.
constexpr int64_t kMaxTensorNumel = 1 << 20;

} // namespace kiln::fe

#endif

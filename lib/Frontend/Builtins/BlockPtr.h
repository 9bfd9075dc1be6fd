//===- BlockPtr.h - Block pointers for tl.load / tl.store ------*- C++ -*-===//
//
// tl.make_block_ptr and tl.advance (BlockPtr.cpp) build a Val of kind
// BlockPtr; tl.load / tl.store (Memory.cpp) hand such a pointer here, where
// it becomes a pointer tensor and a boundary mask. Tensor descriptors are
// BlockPtr Vals too (`descriptor` set), accessed through their own builtins
// (TensorDescriptor.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef KILN_LIB_FRONTEND_BUILTINS_BLOCKPTR_H
#define KILN_LIB_FRONTEND_BUILTINS_BLOCKPTR_H

#include "Registry.h"

#include "kiln/Dialect/Tile/IR/Tile.h"

namespace kiln::fe {

/// tl.make_block_ptr(base, shape, strides, offsets, block_shape, order).
mlir::FailureOr<Val> makeBlockPtrBuiltin(BuiltinCall &call);
/// tl.advance(base, offsets).
mlir::FailureOr<Val> advanceBuiltin(BuiltinCall &call);

/// tl.load through a block pointer; `a` is bound to tl.load's parameters.
mlir::FailureOr<Val> loadBlockPtr(BuiltinCall &call);
/// tl.store through a block pointer; `a` is bound to tl.store's parameters.
/// `made` (optional) receives the store op, for the caller's cache hints.
mlir::FailureOr<Val> storeBlockPtr(BuiltinCall &call,
                                   tile::StoreOp *made = nullptr);

/// tl.make_tensor_descriptor(base, shape, strides, block_shape,
/// padding_option="zero").
mlir::FailureOr<Val> makeTensorDescriptorBuiltin(BuiltinCall &call);
/// tl.load_tensor_descriptor(desc, offsets) and `desc.load(offsets)`.
mlir::FailureOr<Val> loadTensorDescriptorBuiltin(BuiltinCall &call);
/// tl.store_tensor_descriptor(desc, offsets, value), `desc.store(...)`.
mlir::FailureOr<Val> storeTensorDescriptorBuiltin(BuiltinCall &call);
/// `desc.atomic_<op>(offsets, value)` (registered as
/// `tensor_descriptor.atomic_<op>`): tl.atomic_<op> on the block, masked to
/// the tensor's bounds.
mlir::FailureOr<Val> descriptorAtomicBuiltin(BuiltinCall &call);

} // namespace kiln::fe

/// The expansion block pointers and tensor descriptors share (BlockPtr.cpp).
namespace kiln::fe::blockptr {
/// The elements of a list-like argument (a single value is a list of one).
std::vector<Val> listOf(const Val &v);
/// `offsets` of make_block_ptr / advance / a descriptor access: `rank` i32
/// scalars.
mlir::FailureOr<std::vector<Val>> readOffsets(IRGen &g, const Arg &a, size_t rank,
                                              llvm::StringRef fn);
/// Reads a list of constexpr ints (block_shape, order, boundary_check).
mlir::FailureOr<std::vector<int64_t>> constInts(IRGen &g, const Arg &a, llvm::StringRef fn,
                                                llvm::StringRef what);
/// A block shape of powers of two within the maximum tensor size.
mlir::LogicalResult checkBlockShape(IRGen &g, llvm::ArrayRef<int64_t> block,
                                    const ast::Node *where, llvm::StringRef fn);
/// The pointer tensor of block pointer `p`, and the mask of the dims in
/// `check` (null when empty).
struct Expanded {
  Val ptr;
  mlir::Value mask;
};
mlir::FailureOr<Expanded> expand(IRGen &g, const Val &p, llvm::ArrayRef<int64_t> check,
                                 const ast::CallExpr *e);
/// The `other` of a padded load: NaN for "nan", else 0, in the block's shape.
mlir::FailureOr<mlir::Value> paddingTensor(IRGen &g, llvm::StringRef padding, DType dt,
                                           llvm::ArrayRef<int64_t> shape,
                                           const ast::CallExpr *e);
} // namespace kiln::fe::blockptr

#endif

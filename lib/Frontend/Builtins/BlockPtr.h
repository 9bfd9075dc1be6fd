//===- BlockPtr.h - Block pointers for tl.load / tl.store ------*- C++ -*-===//
//
// tl.make_block_ptr and tl.advance (BlockPtr.cpp) build a Val of kind
// BlockPtr; tl.load / tl.store (Memory.cpp) hand such a pointer here, where
// it becomes a pointer tensor and a boundary mask. Tensor descriptors are
// BlockPtr Vals too (`descriptor` set), accessed through their own builtins.
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

#endif

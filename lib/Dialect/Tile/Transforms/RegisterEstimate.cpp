//===- RegisterEstimate.cpp - Registers a loop body's tensors take --------===//
//
// See RegisterEstimate.h.
//
//===----------------------------------------------------------------------===//
#include "RegisterEstimate.h"

#include "kiln/Dialect/Tile/IR/Tile.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;

namespace kiln::tile {
namespace {

/// Whether `v` takes registers: not a constant, a splat or a broadcast
/// (their users read the source's registers), nor a slot read that only
/// products read in place (wgmma's operands from shared memory, a
/// transposed view of one).
bool heldInRegisters(Value v) {
  Operation *def = v.getDefiningOp();
  if (isa_and_nonnull<arith::ConstantOp, SplatOp, BroadcastOp>(def))
    return false;
  if (!isa_and_nonnull<LocalLoadOp, TransOp>(def) ||
      isa_and_nonnull<DotOperandLayoutAttr>(cast<RankedTensorType>(v.getType()).getEncoding()))
    return true;
  return !llvm::all_of(v.getUsers(), [](Operation *user) { return isa<DotOp, TransOp>(user); });
}

/// The op of `body` holding the last use of `v`, or null.
Operation *lastReader(Block &body, Value v) {
  Operation *last = nullptr;
  for (Operation *user : v.getUsers())
    if (Operation *top = body.findAncestorOpInBlock(*user))
      if (!last || last->isBeforeInBlock(top))
        last = top;
  return last;
}

} // namespace

int64_t tensorRegisters(Type type, int64_t threads) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor || !isa<FloatType>(tensor.getElementType()))
    return 0;
  int64_t bits = std::max<int64_t>(tensor.getElementType().getIntOrFloatBitWidth(), 16);
  return llvm::divideCeil(tensor.getNumElements() * bits, 32 * threads);
}

int64_t peakTensorRegisters(Block &body, int64_t threads, function_ref<bool(Value)> ignored) {
  SmallVector<std::pair<Value, Operation *>> tensors; // with their last reader
  auto track = [&](Value v) {
    if (!ignored || !ignored(v))
      tensors.push_back({v, lastReader(body, v)});
  };
  for (BlockArgument arg : body.getArguments())
    track(arg);
  int64_t peak = 0;
  for (Operation &op : body) {
    for (Value result : op.getResults())
      track(result);
    int64_t live = 0;
    for (auto [v, last] : tensors)
      if (last && op.isBeforeInBlock(last) && heldInRegisters(v))
        live += tensorRegisters(v.getType(), threads);
    peak = std::max(peak, live);
  }
  return peak;
}

} // namespace kiln::tile

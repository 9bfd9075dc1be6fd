//===- TileDialect.cpp - tile dialect registration and types --------------===//
#include "kiln/Dialect/Tile/IR/Tile.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace kiln::tile;

#include "kiln/Dialect/Tile/IR/TileOpsDialect.cpp.inc"
#include "kiln/Dialect/Tile/IR/TileEnums.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "kiln/Dialect/Tile/IR/TileOpsTypes.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "kiln/Dialect/Tile/IR/TileAttrs.cpp.inc"

namespace {
/// Prints layouts as `#blocked`, `#slice` aliases: tensor types stay readable.
struct TileOpAsmInterface : public OpAsmDialectInterface {
  using OpAsmDialectInterface::OpAsmDialectInterface;
  AliasResult getAlias(Attribute attr, raw_ostream &os) const override {
    if (isa<BlockedLayoutAttr>(attr)) {
      os << "blocked";
      return AliasResult::FinalAlias;
    }
    if (isa<SliceLayoutAttr>(attr)) {
      os << "slice";
      return AliasResult::FinalAlias;
    }
    if (isa<MmaLayoutAttr>(attr)) {
      os << "mma";
      return AliasResult::FinalAlias;
    }
    if (isa<DotOperandLayoutAttr>(attr)) {
      os << "dot_op";
      return AliasResult::FinalAlias;
    }
    return AliasResult::NoAlias;
  }
};
} // namespace

void TileDialect::initialize() {
  addInterfaces<TileOpAsmInterface>();
  addOperations<
#define GET_OP_LIST
#include "kiln/Dialect/Tile/IR/TileOps.cpp.inc"
      >();
  addTypes<
#define GET_TYPEDEF_LIST
#include "kiln/Dialect/Tile/IR/TileOpsTypes.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "kiln/Dialect/Tile/IR/TileAttrs.cpp.inc"
      >();
}

Operation *TileDialect::materializeConstant(OpBuilder &builder, Attribute value,
                                            Type type, Location loc) {
  return arith::ConstantOp::materialize(builder, value, type, loc);
}

LogicalResult
SliceLayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                        unsigned dim, Attribute parent) {
  unsigned rank;
  if (auto blocked = dyn_cast<BlockedLayoutAttr>(parent))
    rank = blocked.getSizePerThread().size();
  else if (isa<MmaLayoutAttr>(parent))
    rank = 2;
  else
    return emitError() << "slice parent must be a #tile.blocked or #tile.mma "
                          "layout, got "
                       << parent;
  if (dim >= rank)
    return emitError() << "slice dim " << dim << " is out of range for a rank-"
                       << rank << " parent";
  return success();
}

LogicalResult
BlockedLayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                          ArrayRef<unsigned> sizePerThread,
                          ArrayRef<unsigned> threadsPerWarp,
                          ArrayRef<unsigned> warpsPerCTA,
                          ArrayRef<unsigned> order) {
  size_t rank = sizePerThread.size();
  if (rank == 0 || threadsPerWarp.size() != rank ||
      warpsPerCTA.size() != rank || order.size() != rank)
    return emitError() << "blocked layout fields must all have the same "
                          "non-zero rank, got sizePerThread "
                       << sizePerThread.size() << ", threadsPerWarp "
                       << threadsPerWarp.size() << ", warpsPerCTA "
                       << warpsPerCTA.size() << ", order " << order.size();
  unsigned threads = 1;
  for (unsigned t : threadsPerWarp)
    threads *= t;
  if (threads != 32)
    return emitError() << "threadsPerWarp must multiply to 32, got " << threads;
  SmallVector<bool> seen(rank, false);
  for (unsigned d : order) {
    if (d >= rank || seen[d])
      return emitError() << "order must be a permutation of 0.." << rank - 1;
    seen[d] = true;
  }
  for (unsigned v : llvm::concat<const unsigned>(sizePerThread, warpsPerCTA))
    if (v == 0)
      return emitError() << "sizePerThread and warpsPerCTA must be positive";
  return success();
}

namespace kiln::tile {

Type getElementTypeOrSelf(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return tensor.getElementType();
  return type;
}

Type getPointeeType(Type ptrLike) {
  if (auto ptr = dyn_cast<PtrType>(ptrLike))
    return ptr.getPointeeType();
  if (auto tensor = dyn_cast<RankedTensorType>(ptrLike))
    if (auto ptr = dyn_cast<PtrType>(tensor.getElementType()))
      return RankedTensorType::get(tensor.getShape(), ptr.getPointeeType(),
                                   tensor.getEncoding());
  return ptrLike;
}

Type getI1TypeLike(Type type) {
  auto i1 = IntegerType::get(type.getContext(), 1);
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return RankedTensorType::get(tensor.getShape(), i1, tensor.getEncoding());
  return i1;
}

std::optional<unsigned> getTargetComputeCapability(Operation *op) {
  auto module = isa<ModuleOp>(op) ? cast<ModuleOp>(op) : op->getParentOfType<ModuleOp>();
  auto arch = module ? module->getAttrOfType<StringAttr>("tile.arch") : nullptr;
  if (!arch)
    return 90;
  StringRef name = arch.getValue();
  unsigned cc;
  if (!name.consume_front("sm_") || name.getAsInteger(10, cc))
    return std::nullopt;
  return cc;
}

unsigned getModuleNumWarps(Operation *op, unsigned fallback) {
  auto module = isa<ModuleOp>(op) ? cast<ModuleOp>(op) : op->getParentOfType<ModuleOp>();
  auto warps = module ? module->getAttrOfType<IntegerAttr>(kNumWarpsAttr) : nullptr;
  return warps ? unsigned(warps.getInt()) : fallback;
}

} // namespace kiln::tile

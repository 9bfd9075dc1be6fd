//===- TestAxisInfo.cpp - Print the axis analysis as remarks (for lit) ----===//
#include "kiln/Analysis/AxisInfo.h"
#include "kiln/Dialect/Tile/Transforms/Passes.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

namespace kiln::tile {
#define GEN_PASS_DEF_TILETESTAXISINFO
#include "kiln/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace kiln::tile

using namespace mlir;
using namespace kiln;
using namespace kiln::tile;

namespace {
bool isTracked(Type type) {
  Type elem = kiln::tile::getElementTypeOrSelf(type);
  return isa<IntegerType, PtrType>(elem);
}

struct TileTestAxisInfoPass
    : kiln::tile::impl::TileTestAxisInfoBase<TileTestAxisInfoPass> {
  void runOnOperation() override {
    ModuleAxisInfo axis(getOperation());
    if (failed(axis.status()))
      return signalPassFailure();
    getOperation().walk([&](Operation *op) {
      // Loop-carried values: one remark per region argument, on the loop.
      if (isa<scf::ForOp, scf::WhileOp>(op))
        for (Region &region : op->getRegions())
          for (BlockArgument arg : region.getArguments()) {
            if (!isTracked(arg.getType()))
              continue;
            std::string text;
            llvm::raw_string_ostream os(text);
            axis.get(arg).print(os);
            op->emitRemark() << "region " << region.getRegionNumber() << " arg "
                             << arg.getArgNumber() << ": " << text;
          }
      for (Value result : op->getResults()) {
        if (!isTracked(result.getType()))
          continue;
        std::string text;
        llvm::raw_string_ostream os(text);
        axis.get(result).print(os);
        op->emitRemark() << text;
      }
      Value ptr, mask;
      if (auto load = dyn_cast<LoadOp>(op))
        ptr = load.getPtr(), mask = load.getMask();
      else if (auto store = dyn_cast<StoreOp>(op))
        ptr = store.getPtr(), mask = store.getMask();
      if (ptr) {
        auto tensor = dyn_cast<RankedTensorType>(ptr.getType());
        unsigned dim = tensor ? tensor.getRank() - 1 : 0;
        op->emitRemark() << "vector width = "
                         << (tensor ? axis.getVectorWidth(ptr, dim, mask) : 1);
      }
    });
  }
};
} // namespace

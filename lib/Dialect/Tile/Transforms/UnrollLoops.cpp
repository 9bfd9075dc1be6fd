//===- UnrollLoops.cpp - tl.range(..., loop_unroll_factor=N) ----------------===//
//
// The frontend marks such loops `tile.loop_unroll_factor`; this pass unrolls
// them with MLIR's scf unroller: the loop then steps N iterations at a time
// over the largest multiple of N iterations, and a copy of the original loop
// runs the rest (its trip count is computed at run time). Runs first in the
// backend, before layouts and software pipelining, as Triton unrolls before
// its pipeliner: the pipeliner then sees the unrolled body.
//
//===----------------------------------------------------------------------===//
#include "kiln/Dialect/Tile/Transforms/Passes.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"

namespace kiln::tile {
#define GEN_PASS_DEF_TILEUNROLLLOOPS
#include "kiln/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace kiln::tile

using namespace mlir;

namespace {

constexpr llvm::StringLiteral kUnrollAttr = "tile.loop_unroll_factor";

struct UnrollLoops : kiln::tile::impl::TileUnrollLoopsBase<UnrollLoops> {
  void runOnOperation() override {
    SmallVector<std::pair<scf::ForOp, int64_t>> marked;
    getOperation().walk([&](scf::ForOp loop) {
      if (auto factor = loop->getAttrOfType<IntegerAttr>(kUnrollAttr)) {
        loop->removeAttr(kUnrollAttr);
        // Loops compared unsigned (a `range` over unsigned bounds) keep
        // their form: the unroller computes trip counts signed.
        if (factor.getInt() > 1 && !loop.getUnsignedCmp())
          marked.push_back({loop, factor.getInt()});
      }
    });
    for (auto [loop, factor] : marked)
      if (failed(loopUnrollByFactor(loop, uint64_t(factor))))
        loop.emitWarning("loop_unroll_factor=") << factor << " not applied";
  }
};

} // namespace

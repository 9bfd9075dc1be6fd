//===- SharedMemoryPlan.cpp - Where scratch and slots live in shared memory ===//
//
// Two kinds of shared memory: one scratch area at offset 0 that every op
// needing one reuses (layout exchanges, reductions, staged dot operands:
// each use is fenced by barriers), and the !tile.smem buffers of
// tile.local_alloc (pipelined slots, loop-invariant dot operands), which
// hold data across ops. A buffer is live from its allocation to the end of
// the outermost op (a loop) holding its last use in the allocation's block
// (uses of a tile.local_load of it count: a dot reads the slot directly),
// and through the tile.async_wait that follows it (copies may land until
// then). A buffer starts after the scratch of every user that does not run
// after its life: scratch users after it (attention's epilogue exchange
// after the key loop, a matmul's 128 KB accumulator exchange after its K
// loop) share its bytes, as buffers whose lives do not overlap share each
// other's (two key loops one after the other): the kernel asks for less
// shared memory, more programs fit on an SM, and the pipeliner's slots are
// not squeezed by an exchange that comes after them. A scratch user before a
// buffer shares it only when a tile.barrier in the buffer's block separates
// it from the first copy into the buffer (the pipeliner puts one before its
// prologue: mamba's chunk scan multiplies a 24 KB staged product before its
// K loop); otherwise its last reads could race the copies.
//
//===----------------------------------------------------------------------===//
#include "Lowering.h"

#include "kiln/Dialect/Tile/IR/BufferLife.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace kiln;

namespace kiln::lowering {
namespace {

struct Interval {
  int64_t start, end;
  bool overlaps(const Interval &o) const { return start <= o.end && o.start <= end; }
};

} // namespace

unsigned planSharedMemory(ModuleOp module, LoweringState &state) {
  tile::OpOrder order = tile::numberOps(module);
  DenseMap<Operation *, int64_t> &index = order.index;

  unsigned scratch = 0;
  SmallVector<std::pair<int64_t, unsigned>> scratchUsers; // (index, bytes)
  module.walk([&](Operation *op) {
    if (unsigned bytes = getScratchBytes(op)) {
      scratch = std::max(scratch, bytes);
      scratchUsers.push_back({index[op], bytes});
    }
  });

  struct Buffer {
    tile::LocalAllocOp alloc;
    Interval life;
    /// Scratch users before this index are fenced from the buffer's copies.
    int64_t fencedBefore;
  };
  SmallVector<Buffer> buffers;
  module.walk([&](tile::LocalAllocOp alloc) {
    Interval life{index[alloc], index[alloc]};
    // The last barrier of the block before the first copy (or store) into
    // the buffer.
    int64_t fencedBefore = -1;
    for (Operation *op = alloc->getNextNode(); op; op = op->getNextNode()) {
      bool copies = false;
      op->walk([&](Operation *inner) {
        if (auto copy = dyn_cast<tile::AsyncCopyOp>(inner))
          copies |= copy.getBuffer() == alloc.getResult();
        else if (auto tma = dyn_cast<tile::TmaCopyOp>(inner))
          copies |= tma.getBuffer() == alloc.getResult();
        else if (auto store = dyn_cast<tile::LocalStoreOp>(inner))
          copies |= store.getBuffer() == alloc.getResult();
      });
      if (copies)
        break;
      if (isa<tile::BarrierOp>(op))
        fencedBefore = index[op];
    }
    life.end = tile::bufferLifeEnd(alloc, order);
    buffers.push_back({alloc, life, fencedBefore});
  });

  // Only scratch users after a buffer's life may share its bytes: they
  // start with a barrier, and the buffer's last wait ends with one after all
  // reads of the slots.
  int64_t end = scratch;
  for (auto [i, entry] : llvm::enumerate(buffers)) {
    auto [alloc, life, fencedBefore] = entry;
    unsigned before = 0;
    for (auto [at, bytes] : scratchUsers)
      if (at <= life.end && at >= fencedBefore)
        before = std::max(before, bytes);
    // 1024 bytes: the period of the 128-byte swizzle, which wgmma applies to
    // absolute shared addresses.
    int64_t offset = before ? llvm::alignTo(before, 1024) : 0;
    for (unsigned j = 0; j < i; ++j)
      if (buffers[j].life.overlaps(life)) {
        tile::SharedMemoryType other = buffers[j].alloc.getType();
        offset = std::max(offset, state.localAllocOffset[buffers[j].alloc] +
                                      other.getSlotsBytes());
      }
    offset = llvm::alignTo(offset, 1024);
    state.localAllocOffset[alloc] = offset;
    tile::SharedMemoryType type = alloc.getType();
    end = std::max(end, offset + type.getSlotsBytes());
  }
  // The mbarriers of TMA-filled buffers, each buffer's own (a few bytes).
  end = llvm::alignTo(end, 8);
  for (Buffer &buffer : buffers)
    if (tile::SharedMemoryType type = buffer.alloc.getType(); type.getBarriers()) {
      state.barrierOffset[buffer.alloc] = end;
      end += 8 * type.getNumSlots();
    }
  return unsigned(llvm::alignTo(end, 16));
}

} // namespace kiln::lowering

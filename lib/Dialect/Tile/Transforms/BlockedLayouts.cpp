//===- BlockedLayouts.cpp - Blocked layouts chosen by AssignLayouts -------===//
#include "BlockedLayouts.h"

#include "kiln/Analysis/DistributedLayout.h"

using namespace mlir;

namespace kiln::tile {

SmallVector<unsigned> fastFirstOrder(unsigned rank, unsigned fast) {
  SmallVector<unsigned> order{fast};
  for (int d = rank - 1; d >= 0; --d)
    if (unsigned(d) != fast)
      order.push_back(d);
  return order;
}

BlockedLayoutAttr makeBlocked(MLIRContext *ctx, ArrayRef<int64_t> shape,
                              ArrayRef<unsigned> order, unsigned vec,
                              unsigned numWarps, ArrayRef<unsigned> reduced,
                              unsigned elemBits) {
  unsigned rank = shape.size();
  int64_t numel = 1;
  for (int64_t s : shape)
    numel *= s;
  SmallVector<unsigned> spt(rank, 1), tpw(rank, 1), wpc(rank, 1);
  int64_t perThread = std::max<int64_t>(1, numel / (int64_t(kWarpSize) * numWarps));
  spt[order[0]] = std::max<int64_t>(
      1, std::min<int64_t>({int64_t(vec), shape[order[0]], perThread}));
  unsigned warps = numWarps;
  bool keepWarpsOff = !reduced.empty() && reduced.size() < rank;
  if (keepWarpsOff) {
    for (unsigned d : order) {
      if (llvm::is_contained(reduced, d))
        continue;
      int64_t perWarp = spt[d]; // Elements a warp must keep along d.
      if (d == order[0])
        perWarp *= std::max<int64_t>(1, 512 / (int64_t(spt[d]) * elemBits));
      unsigned w = std::min<int64_t>(warps, std::max<int64_t>(1, shape[d] / perWarp));
      wpc[d] = w;
      warps /= w;
    }
  }
  unsigned lanes = kWarpSize;
  for (unsigned d : order) {
    unsigned t = std::min<int64_t>(
        lanes, std::max<int64_t>(1, shape[d] / (int64_t(spt[d]) * wpc[d])));
    tpw[d] = t;
    lanes /= t;
  }
  tpw[order.back()] *= lanes;
  for (unsigned d : order) {
    if (keepWarpsOff && !llvm::is_contained(reduced, d))
      continue;
    unsigned w = std::min<int64_t>(
        warps, std::max<int64_t>(1, shape[d] / (int64_t(spt[d]) * tpw[d])));
    wpc[d] *= w;
    warps /= w;
  }
  wpc[order.back()] *= warps;
  return BlockedLayoutAttr::get(ctx, spt, tpw, wpc, order);
}


BlockedLayoutAttr derivedLayout(Operation *op, BlockedLayoutAttr src) {
  MLIRContext *ctx = op->getContext();
  SmallVector<unsigned> spt(src.getSizePerThread()), tpw(src.getThreadsPerWarp()),
      wpc(src.getWarpsPerCTA()), order(src.getOrder());
  if (auto trans = dyn_cast<TransOp>(op)) {
    ArrayRef<int32_t> perm = trans.getOrder();
    SmallVector<unsigned> inv(perm.size()), s2, t2, w2, o2;
    for (auto [i, d] : llvm::enumerate(perm)) {
      inv[d] = i;
      s2.push_back(spt[d]), t2.push_back(tpw[d]), w2.push_back(wpc[d]);
    }
    for (unsigned d : order)
      o2.push_back(inv[d]);
    return BlockedLayoutAttr::get(ctx, s2, t2, w2, o2);
  }
  if (isa<JoinOp>(op)) {
    unsigned minor = spt.size();
    spt.push_back(2), tpw.push_back(1), wpc.push_back(1);
    order.insert(order.begin(), minor);
    return BlockedLayoutAttr::get(ctx, spt, tpw, wpc, order);
  }
  if (isa<SplitOp>(op)) {
    unsigned minor = spt.size() - 1;
    if (order[0] != minor || spt[minor] != 2 || tpw[minor] != 1 || wpc[minor] != 1)
      return {};
    spt.pop_back(), tpw.pop_back(), wpc.pop_back();
    order.erase(order.begin());
    return BlockedLayoutAttr::get(ctx, spt, tpw, wpc, order);
  }
  if (isa<CatOp>(op))
    return src;
  if (isa<ReshapeOp>(op)) {
    // The operand's layout seen in the result's coordinates (row-major
    // index bits are kept), when a blocked layout can hold it.
    auto srcType = cast<RankedTensorType>(op->getOperand(0).getType());
    auto dstType = cast<RankedTensorType>(op->getResult(0).getType());
    std::optional<DistributedLayout> s =
        getDistributedLayout(srcType.getShape(), src);
    if (!s)
      return {};
    auto strides = [](ArrayRef<int64_t> shape) {
      SmallVector<int64_t> st(shape.size(), 1);
      for (int d = int(shape.size()) - 2; d >= 0; --d)
        st[d] = st[d + 1] * shape[d + 1];
      return st;
    };
    SmallVector<int64_t> srcStrides = strides(srcType.getShape()),
                         dstStrides = strides(dstType.getShape());
    auto toDst = [&](const DistributedLayout::Coord &c) {
      int64_t lin = 0;
      for (unsigned d = 0; d < c.size(); ++d)
        lin += c[d] * srcStrides[d];
      DistributedLayout::Coord out(dstType.getRank(), 0);
      for (unsigned d = 0; d < out.size(); ++d)
        out[d] = (lin / dstStrides[d]) % dstType.getDimSize(d);
      return out;
    };
    DistributedLayout mapped;
    mapped.shape.assign(dstType.getShape().begin(), dstType.getShape().end());
    for (auto &c : s->regBases)
      mapped.regBases.push_back(toDst(c));
    for (auto &c : s->laneBases)
      mapped.laneBases.push_back(toDst(c));
    for (auto &c : s->warpBases)
      mapped.warpBases.push_back(toDst(c));
    return dyn_cast_or_null<BlockedLayoutAttr>(toBlockedLayout(ctx, mapped));
  }
  return {};
}

} // namespace kiln::tile

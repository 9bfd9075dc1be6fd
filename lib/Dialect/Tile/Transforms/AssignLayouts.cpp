//===- AssignLayouts.cpp - Give every tensor a distributed layout ---------===//
//
// Layouts are found by unification. Each tensor value gets a term: a free
// "blocked variable" or `slice(dim, term)`. Elementwise operands/results,
// loop-carried values and branch results must have equal terms; a reduction
// result is the slice of its operand's term and an expand_dims operand is
// the slice of its result's term. Unifying a variable with a slice binds it,
// so `cols = arange(...)` used as `cols[None, :]` simply becomes a slice of
// the 2-D layout. A constraint that cannot hold gets a tile.convert_layout.
// Finally each remaining variable becomes a concrete #tile.blocked layout
// sized from its tensors' shapes, its memory accesses' element widths and
// the axis analysis.
//
// tl.dot pins its terms: the accumulator and result get a fixed #tile.mma
// layout (free variables such as a zero-initialized, loop-carried
// accumulator join it, so the K loop never converts it; global accesses'
// pointers never do). Arithmetic on an accumulator stays in its layout,
// reductions of it are slices of it, and an f16/bf16 A computed from
// another dot's accumulator takes its fixed #tile.dot_op term (a register
// renaming); other operands keep their layouts (the dot stages them) or get
// fixed #tile.dot_op terms that nothing else joins.
//
//===----------------------------------------------------------------------===//
#include "kiln/Analysis/AxisInfo.h"
#include "kiln/Analysis/DistributedLayout.h"
#include "kiln/Analysis/MmaLayout.h"
#include "kiln/Dialect/Tile/Transforms/Passes.h"

#include "BlockedLayouts.h"
#include "DeadCode.h"
#include "DotLayouts.h"
#include "LayoutTerms.h"
#include "Rematerialize.h"
#include "PinnedAccesses.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "llvm/Support/MathExtras.h"

namespace kiln::tile {
#define GEN_PASS_DEF_TILEASSIGNLAYOUTS
#include "kiln/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace kiln::tile

using namespace mlir;
using namespace kiln;
using namespace kiln::tile;

namespace {

/// What one blocked variable's tensors need.
struct VarInfo {
  SmallVector<int64_t> shape;      // Elementwise max of its tensors' shapes.
  unsigned minMemBits = 0;         // Narrowest element accessed in memory.
  int fastDim = -1;                // Most contiguous dimension of its pointers.
  int64_t fastContig = 1;
  /// The same over accesses of a slice only (a reduction's result stored
  /// per row): used when no access of the full tensor is contiguous, since
  /// those move a whole dimension's worth more elements.
  int sliceFastDim = -1;
  int64_t sliceFastContig = 1;
  /// Dimensions reduced inside a loop: warps go elsewhere when they can, so
  /// that no iteration needs shared memory for the reduction.
  SmallVector<unsigned> reducedDims;
};

/// One global memory access through a tensor of a variable.
struct Access {
  Value ptr, mask;              // Null ptr: an atomic, one element at a time.
  SmallVector<unsigned> dimMap; // Pointer dimension -> root dimension.
  bool writes;
  bool fullRank;         // Not a slice of the variable's layout.
  unsigned maxWidth = ~0u; // Most elements one instruction moves (atomics).
};

class LayoutAssigner {
public:
  /// `loadPins`: loads laid out in their own coalesced layout whatever
  /// their consumers want (PinnedAccesses.h).
  LayoutAssigner(func::FuncOp func, unsigned numWarps, const ModuleAxisInfo &axis,
                 DenseMap<Operation *, BlockedLayoutAttr> loadPins =
                     DenseMap<Operation *, BlockedLayoutAttr>())
      : func(func), numWarps(numWarps), axis(axis) {
    pinnedLayout = std::move(loadPins);
  }

  LogicalResult run();

private:
  bool isTensor(Value v) { return isa<RankedTensorType>(v.getType()); }
  unsigned rankOf(Value v) { return cast<RankedTensorType>(v.getType()).getRank(); }
  int nodeOf(Value v);
  void setNode(Value v, int n) { valueNode[v] = n; }
  /// Makes `operand` satisfy term `target`, converting it when needed.
  void constrain(OpOperand &operand, int target);
  LogicalResult visit(Operation *op);
  LogicalResult visitYield(Operation *terminator);
  void visitDot(DotOp dot);
  LogicalResult materialize();
  /// Root variable of a node and the shape of `v` seen from that root
  /// (size-1 dimensions inserted for each slice level).
  int rootOf(int node, SmallVectorImpl<int64_t> *shape,
             SmallVectorImpl<unsigned> *dimMap);
  Attribute layoutFor(int node);
  unsigned chooseVectorWidth(ArrayRef<Access> accesses, unsigned fast,
                             const VarInfo &info, unsigned siblingWidth);
  /// The blocked layout of a variable with `info` and `accesses`: its fastest
  /// dimension first (the last one when nothing is contiguous).
  /// `siblingWidth`: the widest vector of other variables' full accesses of
  /// the same shape along the same dimension (0: none).
  BlockedLayoutAttr blockedFor(const VarInfo &info, ArrayRef<Access> accesses,
                               unsigned siblingWidth = 0);
  /// The elements per instruction `a` proves along root dimension `fast`;
  /// 0 when `a` does not run along it.
  unsigned accessWidth(const Access &a, unsigned fast);

  /// Accesses along other dimensions than others of their rank
  /// (PinnedAccesses.h): each gets a variable pinned to its fastest dimension.
  DenseMap<Operation *, int> pinnedFast;
  /// tl.dot operands loaded from global memory: the dot stages them through
  /// shared memory, so each load gets the coalesced layout of its own shape
  /// (as Triton's coalescing gives every access its own). Sharing a variable
  /// with the output tile through the row and column indices would size it
  /// for the larger tile and replicate the operand's loads over warps.
  /// Every element type; single-use element conversions between the load
  /// and the dot are looked through.
  void pinDotOperandLoads();
  DenseMap<Operation *, BlockedLayoutAttr> pinnedLayout;
  /// Shape ops, in program order, whose result layout may be derived.
  SmallVector<Operation *> shapeOps;
  void deriveShapeResults(DenseMap<int, VarInfo> &vars,
                          DenseMap<int, SmallVector<Access>> &accesses);

  func::FuncOp func;
  unsigned numWarps;
  const ModuleAxisInfo &axis;
  LayoutTerms terms;
  DenseMap<Value, int> valueNode;
  SmallVector<Value> tensorValues;
  DenseMap<int, BlockedLayoutAttr> blockedOf;
  /// Reductions inside loops: source tensor and reduced axis.
  SmallVector<std::pair<Value, unsigned>> loopReductions;
};

int LayoutAssigner::nodeOf(Value v) {
  auto it = valueNode.find(v);
  if (it != valueNode.end())
    return it->second;
  // Values first seen as operands (should not happen in structured IR).
  int n = terms.newVar(rankOf(v));
  valueNode[v] = n;
  tensorValues.push_back(v);
  return n;
}

void LayoutAssigner::constrain(OpOperand &operand, int target) {
  int current = nodeOf(operand.get());
  if (terms.canUnify(current, target)) {
    terms.unify(current, target);
    return;
  }
  OpBuilder builder(operand.getOwner());
  auto convert = ConvertLayoutOp::create(builder, operand.getOwner()->getLoc(),
                                         operand.get().getType(), operand.get());
  valueNode[convert.getResult()] = target;
  tensorValues.push_back(convert.getResult());
  operand.set(convert.getResult());
}

LogicalResult LayoutAssigner::visitYield(Operation *terminator) {
  Operation *parent = terminator->getParentOp();
  SmallVector<Value> targets;
  if (auto forOp = dyn_cast<scf::ForOp>(parent))
    targets.append(forOp.getRegionIterArgs().begin(),
                   forOp.getRegionIterArgs().end());
  else if (auto ifOp = dyn_cast<scf::IfOp>(parent))
    targets.append(ifOp.getResults().begin(), ifOp.getResults().end());
  else if (auto whileOp = dyn_cast<scf::WhileOp>(parent)) {
    if (isa<scf::ConditionOp>(terminator))
      targets.append(whileOp.getAfterArguments().begin(),
                     whileOp.getAfterArguments().end());
    else
      targets.append(whileOp.getBeforeArguments().begin(),
                     whileOp.getBeforeArguments().end());
  } else {
    return terminator->emitOpError("inside an unsupported region owner '")
           << parent->getName() << "'";
  }
  // scf.condition's first operand is the condition itself.
  unsigned skip = isa<scf::ConditionOp>(terminator) ? 1 : 0;
  for (auto [i, target] : llvm::enumerate(targets)) {
    OpOperand &operand = terminator->getOpOperand(i + skip);
    if (isTensor(target))
      constrain(operand, nodeOf(target));
  }
  return success();
}

LogicalResult LayoutAssigner::visit(Operation *op) {
  auto freshResults = [&](bool blockedOnly = false) {
    for (Value r : op->getResults())
      if (isTensor(r)) {
        valueNode[r] = terms.newVar(rankOf(r), blockedOnly);
        tensorValues.push_back(r);
      }
  };
  if (isa<scf::YieldOp, scf::ConditionOp>(op))
    return visitYield(op);
  if (auto forOp = dyn_cast<scf::ForOp>(op)) {
    for (auto [init, arg, res] : llvm::zip(forOp.getInitArgs(),
                                           forOp.getRegionIterArgs(),
                                           forOp.getResults()))
      if (isTensor(init)) {
        int n = nodeOf(init);
        setNode(arg, n);
        setNode(res, n);
        tensorValues.append({arg, res});
      }
    return success();
  }
  if (isa<scf::IfOp>(op)) {
    freshResults();
    return success();
  }
  if (auto whileOp = dyn_cast<scf::WhileOp>(op)) {
    for (auto [init, arg] : llvm::zip(whileOp.getInits(),
                                      whileOp.getBeforeArguments()))
      if (isTensor(init)) {
        setNode(arg, nodeOf(init));
        tensorValues.push_back(arg);
      }
    for (auto [arg, res] : llvm::zip(whileOp.getAfterArguments(),
                                     whileOp.getResults()))
      if (isTensor(res)) {
        int n = terms.newVar(rankOf(res));
        setNode(arg, n);
        setNode(res, n);
        tensorValues.append({arg, res});
      }
    return success();
  }
  bool anyTensor = llvm::any_of(op->getOperands(), [&](Value v) { return isTensor(v); }) ||
                   llvm::any_of(op->getResults(), [&](Value v) { return isTensor(v); });
  if (!anyTensor)
    return success();

  if (isa<ArangeOp, SplatOp, arith::ConstantOp, ConvertLayoutOp>(op)) {
    freshResults();
    return success();
  }
  if (auto bcast = dyn_cast<BroadcastOp>(op)) {
    setNode(bcast.getResult(), nodeOf(bcast.getSrc()));
    tensorValues.push_back(bcast.getResult());
    return success();
  }
  if (auto expand = dyn_cast<ExpandDimsOp>(op)) {
    int result = terms.newVar(rankOf(expand.getResult()));
    terms.requireNotSlice(result);
    setNode(expand.getResult(), result);
    tensorValues.push_back(expand.getResult());
    constrain(expand->getOpOperand(0), terms.newSlice(expand.getAxis(), result));
    return success();
  }
  if (isa<SumOp, MaxOp, MinOp, ReduceOp>(op)) {
    OpOperand &src = op->getOpOperand(0);
    unsigned axisDim = op->getAttrOfType<IntegerAttr>("axis").getInt();
    // The operands of a tuple reduction are reduced together: one layout.
    for (OpOperand &other : op->getOpOperands().drop_front())
      constrain(other, nodeOf(src.get()));
    Value result = op->getResult(0);
    if (!isTensor(result))
      return success(); // Reducing to a scalar works from any layout.
    int srcNode = nodeOf(src.get());
    // A slice of a slice (or of an operand layout) is not a layout Kiln has:
    // reduce a blocked copy. An accumulator is reduced where it is.
    Attribute fixed = terms.fixedLayout(srcNode);
    if (terms.isSlice(srcNode) || (fixed && !isa<MmaLayoutAttr>(fixed))) {
      int blocked = terms.newVar(rankOf(src.get()), /*blockedOnly=*/true);
      for (OpOperand &operand : op->getOpOperands())
        constrain(operand, blocked);
      srcNode = nodeOf(src.get());
    }
    terms.requireNotSlice(srcNode);
    if (op->getParentOfType<scf::ForOp>() || op->getParentOfType<scf::WhileOp>())
      loopReductions.push_back({src.get(), axisDim});
    int slice = terms.newSlice(axisDim, srcNode);
    for (Value r : op->getResults()) {
      setNode(r, slice);
      tensorValues.push_back(r);
    }
    return success();
  }
  if (isa<PrintOp, AssertOp>(op)) // take any layout
    return success();
  if (auto dot = dyn_cast<DotOp>(op)) {
    visitDot(dot);
    return success();
  }
  // tile.gather / tile.histogram stage their sources through shared memory,
  // so those keep any layout; a gather is laid out like its index.
  if (auto gather = dyn_cast<GatherOp>(op)) {
    setNode(gather.getResult(), nodeOf(gather.getIndex()));
    tensorValues.push_back(gather.getResult());
    return success();
  }
  if (auto hist = dyn_cast<HistogramOp>(op)) {
    if (hist.getMask())
      constrain(hist->getOpOperand(1), nodeOf(hist.getSrc()));
    freshResults();
    return success();
  }
  if (isa<TransOp, ReshapeOp, JoinOp, SplitOp, CatOp>(op)) {
    // The result starts free: materialize() derives it from the operand's
    // layout when nothing else asks for one (a register-only lowering).
    int result = terms.newVar(rankOf(op->getResult(0)), /*blockedOnly=*/true);
    for (Value r : op->getResults()) {
      setNode(r, result);
      tensorValues.push_back(r);
    }
    if (isa<JoinOp, CatOp>(op)) // Both operands share one type.
      constrain(op->getOpOperand(1), nodeOf(op->getOperand(0)));
    shapeOps.push_back(op);
    return success();
  }

  // A scan keeps its operands' layout (all operands share one).
  bool elementwise =
      isa<AddPtrOp, PtrCastOp, WhereOp, LoadOp, StoreOp, AtomicCASOp, AtomicRMWOp,
          MultipleOfOp, MaxContiguousOp, MaxConstancyOp, ScanOp, SortOp>(op) ||
      isa<PreciseDivFOp, PreciseSqrtOp, ExternElementwiseOp,
          InlineAsmElementwiseOp, MapElementwiseOp>(op) || // MathOpToLLVM.cpp
      ((isa<arith::ArithDialect, math::MathDialect>(op->getDialect())) &&
       OpTrait::hasElementwiseMappableTraits(op));
  if (!elementwise)
    return op->emitOpError("has tensor operands or results the layout "
                           "assignment does not know how to distribute");
  int target = -1;
  // Arithmetic on a tl.dot result stays in the accumulator layout: its other
  // operands (masks, row statistics) convert, or are recomputed there by
  // --tile-remove-layout-conversions, instead of the result converting.
  // Memory accesses keep choosing by their own pointers.
  bool computes = !isa<LoadOp, StoreOp, AtomicCASOp, AtomicRMWOp, ScanOp, SortOp>(op);
  if (computes)
    for (Value operand : op->getOperands())
      if (isTensor(operand) && terms.isMmaRooted(nodeOf(operand))) {
        target = nodeOf(operand);
        break;
      }
  if (target < 0) {
    if (auto pin = pinnedLayout.find(op); pin != pinnedLayout.end())
      target = terms.newFixed(rankOf(op->getResult(0)), pin->second);
    else if (auto pin = pinnedFast.find(op); pin != pinnedFast.end())
      target = terms.newVar(rankOf(op->getOperand(0)), /*blockedOnly=*/true, pin->second);
  }
  if (target >= 0) {
    for (Value r : op->getResults())
      if (isTensor(r)) {
        setNode(r, target);
        tensorValues.push_back(r);
      }
  } else {
    freshResults();
  }
  for (Value r : op->getResults())
    if (isTensor(r)) {
      if (target < 0)
        target = nodeOf(r);
      else
        terms.unify(nodeOf(r), target);
    }
  bool accessesMemory = isa<LoadOp, StoreOp, AtomicCASOp, AtomicRMWOp>(op);
  // An atomic keeps its own pointers' layout against a value from a load
  // pinned to its coalesced one (that value converts, as a stored one does);
  // an accumulator's value it still takes as it is.
  if (isa<AtomicCASOp, AtomicRMWOp>(op) && target >= 0 && !terms.isSlice(target) &&
      !terms.fixedLayout(target) &&
      llvm::any_of(op->getOperands(), [&](Value v) {
        return isTensor(v) && isa_and_nonnull<BlockedLayoutAttr>(terms.fixedLayout(nodeOf(v)));
      }))
    terms.requireNoFixed(target);
  for (OpOperand &operand : op->getOpOperands()) {
    if (!isTensor(operand.get()))
      continue;
    if (target < 0) {
      target = nodeOf(operand.get()); // e.g. tile.store: no results.
      // A global access keeps the coalesced layout of its pointers: a value
      // stored from an accumulator converts, the pointers do not join it.
      if (accessesMemory && !terms.isSlice(target) && !terms.fixedLayout(target))
        terms.requireNoFixed(target);
      continue;
    }
    constrain(operand, target);
  }
  if (accessesMemory && target >= 0 && !terms.isSlice(target) && !terms.fixedLayout(target))
    terms.requireNoFixed(target);
  return success();
}

void LayoutAssigner::visitDot(DotOp dot) {
  MLIRContext *ctx = dot.getContext();
  auto resultType = cast<RankedTensorType>(dot.getType());
  int64_t m = resultType.getDimSize(0), n = resultType.getDimSize(1);
  std::optional<SmallVector<unsigned, 2>> groups = warpGroupLayout(dot, numWarps);
  if (!groups)
    groups = kMajorWarpGroupLayout(dot, numWarps, axis,
                                   [&](Value ptr) { return coalescedDim(axis, ptr); });
  // All warps along M when the rows are reduced (each warp then owns whole
  // rows: no exchange between warps) or when A comes from a dot that did so
  // (its registers are then A's fragments). Groups split N only where rows
  // are not reduced; a dot after a split one picks its own (A is staged).
  bool rowsWhole = m % (int64_t(kMmaTileM) * numWarps) == 0;
  DotOp producer = producingDot(dot.getA());
  auto producerMma = producer ? dyn_cast_or_null<MmaLayoutAttr>(
                                    terms.fixedLayout(nodeOf(producer.getResult())))
                              : MmaLayoutAttr();
  bool rowReduced = isRowReduced(dot.getResult());
  bool byGroups = groups && !((*groups)[1] > 1 && rowReduced);
  SmallVector<unsigned, 2> warps = byGroups ? *groups : chooseMmaWarps(m, n, numWarps);
  unsigned version = warps[1] > 1 && byGroups ? 3 : 2;
  if (producerMma && producerMma.getVersion() == 2 && producer.getType().getDimSize(0) == m) {
    warps.assign(producerMma.getWarpsPerCTA().begin(), producerMma.getWarpsPerCTA().end());
    version = 2;
  } else if (rowsWhole && rowReduced) {
    warps = {numWarps, 1};
    version = 2;
  }
  auto mma = MmaLayoutAttr::get(ctx, version, warps);
  unsigned kWidth = dotKWidth(dot.getA().getType().getElementType(),
                              dot.getInputPrecision());
  int acc = terms.newFixed(2, mma);
  Type elem = dot.getA().getType().getElementType();
  // An A computed from an accumulator in the same warps' rows (P of
  // attention) goes to its fragments in registers, with no shared memory.
  if (kWidth == 2 && (elem.isF16() || elem.isBF16()) && producerMma == mma &&
      warps[1] == 1)
    constrain(dot->getOpOperand(0),
              terms.newFixed(2, DotOperandLayoutAttr::get(ctx, 0, mma, kWidth)));
  // Other f16/bf16 operands keep their layouts: the dot stages them through
  // shared memory itself and loads each K step with ldmatrix (DotOpToLLVM.cpp).
  if (kWidth != 2 || !(elem.isF16() || elem.isBF16())) {
    constrain(dot->getOpOperand(0),
              terms.newFixed(2, DotOperandLayoutAttr::get(ctx, 0, mma, kWidth)));
    constrain(dot->getOpOperand(1),
              terms.newFixed(2, DotOperandLayoutAttr::get(ctx, 1, mma, kWidth)));
  }
  constrain(dot->getOpOperand(2), acc);
  setNode(dot.getResult(), acc);
  tensorValues.push_back(dot.getResult());
}

int LayoutAssigner::rootOf(int node, SmallVectorImpl<int64_t> *shape,
                           SmallVectorImpl<unsigned> *dimMap) {
  int n = terms.find(node);
  while (terms.isSlice(n)) {
    unsigned dim = terms.sliceDim(n);
    if (shape)
      shape->insert(shape->begin() + dim, 1);
    if (dimMap)
      for (unsigned &d : *dimMap)
        if (d >= dim)
          ++d;
    n = terms.find(terms.sliceParent(n));
  }
  return n;
}

Attribute LayoutAssigner::layoutFor(int node) {
  int n = terms.find(node);
  if (Attribute fixed = terms.fixedLayout(n))
    return fixed;
  if (!terms.isSlice(n))
    return blockedOf.lookup(n);
  Attribute parent = layoutFor(terms.sliceParent(n));
  if (!isa_and_nonnull<BlockedLayoutAttr, MmaLayoutAttr>(parent))
    return {};
  return SliceLayoutAttr::get(func.getContext(), terms.sliceDim(n), parent);
}

/// Elements per thread along the fast dimension, from what the axis analysis
/// proves about the accesses (as Triton's coalescing does): each access
/// votes for its own vector width (contiguity, alignment, mask constancy,
/// 16 bytes); the widest vote wins so that loads get full vectors, but never
/// wider than a write of the full tensor can store at once, whose vector
/// would otherwise leave gaps in every warp's write. Nothing proven: 1, so
/// that the lanes of a warp touch consecutive elements and scalar accesses
/// coalesce.
unsigned LayoutAssigner::accessWidth(const Access &a, unsigned fast) {
  if (!a.ptr)
    return 1;
  auto it = llvm::find(a.dimMap, fast);
  if (it == a.dimMap.end())
    return 0; // The fast dimension was reduced away: no say.
  return axis.getVectorWidth(a.ptr, it - a.dimMap.begin(), a.mask);
}

unsigned LayoutAssigner::chooseVectorWidth(ArrayRef<Access> accesses,
                                           unsigned fast, const VarInfo &info,
                                           unsigned siblingWidth) {
  unsigned registersOnly = std::max(1u, 128u / (info.minMemBits ? info.minMemBits : 32));
  unsigned widest = 1, writeCap = ~0u;
  bool voted = false;
  for (const Access &a : accesses) {
    unsigned width = accessWidth(a, fast);
    if (!width)
      continue;
    voted = true;
    // An atomic narrower than what is proven (4 f32 per vector atom) splits
    // a thread's run into several instructions: it does not narrow the run.
    widest = std::max(widest, std::min(width, a.maxWidth));
    // A write of a reduction's result (a slice of this layout) moves fewer
    // elements than the accesses of the full tensor: it does not cap them.
    if (a.writes && a.fullRank)
      writeCap = std::min(writeCap, width);
  }
  if (!voted) // No access runs along the fast dimension: registers only.
    return registersOnly;
  // A variable that only reads runs as wide as its widest sibling of the
  // same shape (Triton's coalescing gives a load the widest vector among
  // the accesses its indices reach): an fp32 row read beside bf16 rows then
  // holds 8 contiguous elements per thread, two 16-byte loads, rather than
  // 4 and a repetition that a scan or reduction must also combine.
  if (writeCap == ~0u)
    widest = std::max(widest, siblingWidth);
  return std::min(widest, writeCap);
}

BlockedLayoutAttr LayoutAssigner::blockedFor(const VarInfo &info,
                                             ArrayRef<Access> accesses,
                                             unsigned siblingWidth) {
  unsigned rank = info.shape.size();
  unsigned fast = info.fastDim >= 0 ? info.fastDim : rank - 1;
  SmallVector<unsigned> order = fastFirstOrder(rank, fast);
  unsigned vec = chooseVectorWidth(accesses, fast, info, siblingWidth);
  return makeBlocked(func.getContext(), info.shape, order, vec, numWarps, info.reducedDims,
                     info.minMemBits ? info.minMemBits : 32);
}

void LayoutAssigner::deriveShapeResults(
    DenseMap<int, VarInfo> &vars, DenseMap<int, SmallVector<Access>> &accesses) {
  for (Operation *op : shapeOps) {
    Value src = op->getOperand(0), res = op->getResult(0);
    int srcNode = terms.find(valueNode[src]), resRoot = terms.find(valueNode[res]);
    if (terms.isSlice(srcNode) || terms.isSlice(resRoot))
      continue;
    auto resType = cast<RankedTensorType>(res.getType());
    auto srcType = cast<RankedTensorType>(src.getType());
    // Only when the result's variable has no say of its own (no memory
    // access, no reduction in a loop) and no larger broadcast shape.
    if (!accesses.lookup(resRoot).empty() || !vars[resRoot].reducedDims.empty() ||
        ArrayRef<int64_t>(vars[resRoot].shape) != resType.getShape() ||
        ArrayRef<int64_t>(vars[srcNode].shape) != srcType.getShape())
      continue;
    BlockedLayoutAttr srcLayout = blockedOf.lookup(srcNode);
    if (!srcLayout)
      continue;
    if (BlockedLayoutAttr derived = derivedLayout(op, srcLayout))
      blockedOf[resRoot] = derived;
  }
}

LogicalResult LayoutAssigner::materialize() {
  DenseMap<int, VarInfo> vars;
  for (Value v : tensorValues) {
    auto type = cast<RankedTensorType>(v.getType());
    for (int64_t s : type.getShape())
      if (s <= 0 || !llvm::isPowerOf2_64(s)) {
        auto diag = mlir::emitError(v.getLoc())
                    << "tensor dimensions must be powers of two, got " << type;
        return diag;
      }
    SmallVector<int64_t> shape(type.getShape());
    int root = rootOf(valueNode[v], &shape, nullptr);
    VarInfo &info = vars[root];
    if (info.shape.empty())
      info.shape = shape;
    else
      for (auto [a, b] : llvm::zip(info.shape, shape))
        a = std::max(a, b);
  }
  // Memory accesses: element width and contiguity of their pointers.
  DenseMap<int, SmallVector<Access>> accesses;
  func.walk([&](Operation *op) {
    Value ptr, mask;
    bool writes = true;
    unsigned maxWidth = ~0u;
    if (auto load = dyn_cast<LoadOp>(op)) {
      ptr = load.getPtr();
      mask = load.getMask();
      writes = false;
    } else if (auto store = dyn_cast<StoreOp>(op)) {
      ptr = store.getPtr();
      mask = store.getMask();
    } else if (auto rmw = dyn_cast<AtomicRMWOp>(op)) {
      ptr = rmw.getPtr();
      mask = rmw.getMask();
      maxWidth = rmw.getMaxVectorElements(getTargetComputeCapability(op).value_or(0));
    } else if (auto cas = dyn_cast<AtomicCASOp>(op)) {
      ptr = cas.getPtr();
    }
    if (!ptr || !isTensor(ptr))
      return;
    SmallVector<unsigned> dimMap;
    for (unsigned d = 0; d < rankOf(ptr); ++d)
      dimMap.push_back(d);
    int root = rootOf(valueNode[ptr], nullptr, &dimMap);
    // The axis facts are those of the values before this pass converted
    // them (a pinned access's pointer and mask may be conversions).
    ptr = beforeConversions(ptr);
    mask = beforeConversions(mask);
    VarInfo &info = vars[root];
    if (terms.pinnedFastDim(root) >= 0)
      info.fastDim = terms.pinnedFastDim(root), info.fastContig = INT64_MAX;
    unsigned bits = getPointeeBytes(ptr.getType()) * 8;
    info.minMemBits = info.minMemBits ? std::min(info.minMemBits, bits) : bits;
    AxisInfo facts = axis.get(ptr);
    bool sliceOnly = dimMap.size() < info.shape.size();
    int &fastDim = sliceOnly ? info.sliceFastDim : info.fastDim;
    int64_t &fastContig = sliceOnly ? info.sliceFastContig : info.fastContig;
    for (unsigned d = 0; d < rankOf(ptr) && d < facts.rank(); ++d)
      if (facts.getContiguity(d) > fastContig) {
        fastContig = facts.getContiguity(d);
        fastDim = dimMap[d];
      }
    // Atomics that are lowered one element at a time vote for width 1; the
    // vector atomics of sm_90 vote like stores, up to their vector width.
    if (isa<AtomicRMWOp, AtomicCASOp>(op) && maxWidth <= 1)
      ptr = Value();
    bool fullRank = dimMap.size() == info.shape.size();
    accesses[root].push_back({ptr, mask, dimMap, writes, fullRank, maxWidth});
  });
  for (auto [src, axisDim] : loopReductions) {
    SmallVector<unsigned> dimMap;
    for (unsigned d = 0; d < rankOf(src); ++d)
      dimMap.push_back(d);
    VarInfo &info = vars[rootOf(valueNode[src], nullptr, &dimMap)];
    if (!llvm::is_contained(info.reducedDims, dimMap[axisDim]))
      info.reducedDims.push_back(dimMap[axisDim]);
  }
  for (auto &[root, info] : vars)
    if (info.fastDim < 0)
      info.fastDim = info.sliceFastDim;
  for (auto &[root, info] : vars) {
    if (terms.fixedLayout(root))
      continue;
    unsigned siblingWidth = 0;
    if (info.fastDim >= 0)
      for (auto &[other, otherInfo] : vars) {
        if (other == root || otherInfo.shape != info.shape ||
            otherInfo.fastDim != info.fastDim || terms.fixedLayout(other))
          continue;
        for (const Access &a : accesses.lookup(other))
          if (a.fullRank && a.ptr)
            siblingWidth = std::max(siblingWidth, accessWidth(a, info.fastDim));
      }
    blockedOf[root] = blockedFor(info, accesses.lookup(root), siblingWidth);
  }
  deriveShapeResults(vars, accesses);
  // Rewrite the types in place; constants carry their type in the value.
  for (Value v : tensorValues) {
    auto type = cast<RankedTensorType>(v.getType());
    Attribute layout = layoutFor(valueNode[v]);
    if (!layout)
      return mlir::emitError(v.getLoc(), "internal error: no layout found");
    auto newType = RankedTensorType::get(type.getShape(), type.getElementType(), layout);
    v.setType(newType);
    if (auto cst = v.getDefiningOp<arith::ConstantOp>()) {
      auto dense = cast<DenseElementsAttr>(cst.getValue());
      cst.setValueAttr(dense.reshape(newType));
    }
  }
  return success();
}

void LayoutAssigner::pinDotOperandLoads() {
  func.walk([&](DotOp dot) {
    for (auto [index, operand] : llvm::enumerate(SmallVector<Value>{dot.getA(), dot.getB()})) {
      // Through element type conversions (`x.to(tl.float16)` before the
      // dot): they take the load's layout.
      while (Operation *def = operand.getDefiningOp()) {
        if (!isa<CastOpInterface>(def) || def->getNumOperands() != 1 ||
            !def->hasOneUse() || !isTensor(def->getOperand(0)))
          break;
        operand = def->getOperand(0);
      }
      auto load = operand.getDefiningOp<LoadOp>();
      if (!load || !load->hasOneUse() || !isTensor(load.getPtr()))
        continue;
      Value ptr = load.getPtr();
      auto type = cast<RankedTensorType>(load.getType());
      VarInfo info;
      info.shape.assign(type.getShape().begin(), type.getShape().end());
      info.minMemBits = getPointeeBytes(ptr.getType()) * 8;
      info.fastDim = coalescedDim(axis, ptr);
      // A gathered operand (no dimension proven contiguous: attorch's
      // im2col convolution) puts its lanes along M (A) or N (B): the pointer
      // and mask terms of those dimensions stay live through the K loop, and
      // each thread then holds few of them. With lanes along K a thread of a
      // 256x128 A tile held all 256 rows' pointers and spilled 13 KB (Triton
      // 3.6 also lays A out along M; it keeps B along K).
      if (info.fastDim < 0)
        info.fastDim = index == 0 ? 0 : 1;
      SmallVector<unsigned> identity = llvm::to_vector(llvm::seq<unsigned>(0, type.getRank()));
      Access access{ptr, load.getMask(), identity, /*writes=*/false, /*fullRank=*/true};
      pinnedLayout.try_emplace(load, blockedFor(info, access));
    }
  });
}

LogicalResult LayoutAssigner::run() {
  pinnedFast = disagreeingAccesses(func, axis);
  pinDotOperandLoads();
  for (BlockArgument arg : func.getArguments())
    if (isTensor(arg))
      return func.emitOpError("tensor arguments are not supported (argument ")
             << arg.getArgNumber() << ")";
  WalkResult walk = func.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (op == func.getOperation())
      return WalkResult::advance();
    return failed(visit(op)) ? WalkResult::interrupt() : WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();
  return materialize();
}

struct TileAssignLayoutsPass
    : kiln::tile::impl::TileAssignLayoutsBase<TileAssignLayoutsPass> {
  using TileAssignLayoutsBase::TileAssignLayoutsBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    unsigned warps = numWarps ? unsigned(numWarps) : getModuleNumWarps(module);
    if (warps == 0 || warps > 32 || !llvm::isPowerOf2_32(warps)) {
      module.emitError() << "num_warps must be a power of two between 1 and "
                            "32, got "
                         << warps;
      return signalPassFailure();
    }
    module->setAttr(kNumWarpsAttr,
                    IntegerAttr::get(IntegerType::get(&getContext(), 32), warps));
    SmallVector<func::FuncOp> funcs(module.getOps<func::FuncOp>());
    // Unread or unchanged iter args would tie layouts for nothing.
    dropUnusedIterArgsIn(module);
    for (auto func : funcs)
      untieCheapIndexMath(func);
    // Where the assignment lays out loads that their own coalesced layout
    // would serve with a quarter of the instructions (PinnedAccesses.h), it
    // runs again, with those loads pinned, on a copy of the function taken
    // before, whose body then becomes the function's. The copies are erased
    // at the end, so that no new op takes the place of one the axis facts
    // describe.
    SmallVector<func::FuncOp> copies;
    for (auto func : funcs) {
      copies.push_back(func.clone());
      module.insert(func->getIterator(), copies.back());
      copies.back().setSymName((func.getSymName() + ".kiln_pinned_loads").str());
    }
    auto eraseCopies = [&] {
      for (auto copy : copies)
        copy.erase();
    };
    ModuleAxisInfo axis(module);
    if (failed(axis.status()))
      return eraseCopies(), signalPassFailure();
    for (auto [func, copy] : llvm::zip(funcs, copies)) {
      if (failed(LayoutAssigner(func, warps, axis).run()))
        return eraseCopies(), signalPassFailure();
      SmallVector<unsigned> replicated = findReplicatedLoads(func, warps, axis);
      if (replicated.empty())
        continue;
      if (failed(LayoutAssigner(copy, warps, axis,
                                replicatedLoadPins(copy, replicated, warps, axis))
                     .run()))
        return eraseCopies(), signalPassFailure();
      // The function keeps its identity (callers hold it across the pass
      // pipeline): the bodies are swapped, and the copy is erased with the
      // first one.
      Region first;
      first.takeBody(func.getBody());
      func.getBody().takeBody(copy.getBody());
      copy.getBody().takeBody(first);
    }
    eraseCopies();
    // Conversions that turned out to be between equal layouts.
    module.walk([](ConvertLayoutOp op) {
      if (op.getSrc().getType() == op.getType()) {
        op.replaceAllUsesWith(op.getSrc());
        op.erase();
      }
    });
  }
};

} // namespace

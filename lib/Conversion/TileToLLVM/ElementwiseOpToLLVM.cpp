//===- ElementwiseOpToLLVM.cpp - Per-thread values of tensor ops ----------===//
//
// Ops whose every result element depends only on the same elements of the
// operands (arith, math, addptr, where, splat, ...) become one scalar op per
// element the thread owns. Shape ops (broadcast, expand_dims) only pick the
// thread's registers; arange computes indices from the thread id.
//
//===----------------------------------------------------------------------===//
#include "Lowering.h"

#include "mlir/IR/TypeUtilities.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"

using namespace mlir;
using namespace kiln;
using namespace kiln::tile;

namespace kiln::lowering {

TileTypeConverter::TileTypeConverter(MLIRContext *ctx) {
  addConversion([](Type t) { return t; });
  addConversion([ctx](PtrType) -> Type {
    return LLVM::LLVMPointerType::get(ctx, kGlobalSpace);
  });
  // A shared-memory buffer is its byte offset in the dynamic shared memory.
  addConversion([ctx](SharedMemoryType) -> Type { return IntegerType::get(ctx, 32); });
  addConversion([this](RankedTensorType type, SmallVectorImpl<Type> &out)
                    -> std::optional<LogicalResult> {
    std::optional<DistributedLayout> layout = getDistributedLayout(type);
    if (!layout)
      return failure();
    Type elem = convertType(type.getElementType());
    if (!elem)
      return failure();
    out.append(layout->numRegs(), elem);
    return success();
  });
}

namespace {

SmallVector<Type> convertedTypes(const TypeConverter *tc, Type t) {
  SmallVector<Type> types;
  if (failed(tc->convertType(t, types)))
    types.clear();
  return types;
}

/// The i-th thread-owned value of an operand (scalars are shared).
Value nth(ValueRange values, unsigned i) {
  return values.size() == 1 ? values[0] : values[i];
}

/// For each register of `op`'s result, the first register of this thread
/// holding an element of the same constant block (state.constancy): only
/// those are computed. Identity when nothing is proven constant.
SmallVector<unsigned> blockRepresentatives(Operation *op, const LoweringState &state,
                                           unsigned numRegs) {
  SmallVector<unsigned> rep = llvm::to_vector(llvm::seq<unsigned>(0, numRegs));
  auto it = state.constancy.find(op);
  if (it == state.constancy.end())
    return rep;
  auto type = cast<RankedTensorType>(op->getResult(0).getType());
  std::optional<DistributedLayout> layout = getDistributedLayout(type);
  if (!layout || layout->numRegs() != numRegs)
    return rep;
  // Blocks start at multiples of their power-of-two length, and a layout's
  // bases never overlap (DistributedLayout.h: a thread's coordinates are its
  // offset plus the register's, without carries), so a register's block is
  // its thread-relative coordinates shifted right.
  SmallVector<unsigned, 4> shift;
  for (int64_t c : it->second)
    shift.push_back(c > 0 ? llvm::countr_zero(uint64_t(c)) : 0);
  DenseMap<SmallVector<int64_t, 4>, unsigned> firstOfBlock;
  for (unsigned r = 0; r < numRegs; ++r) {
    DistributedLayout::Coord offset = layout->regOffset(r);
    SmallVector<int64_t, 4> block;
    for (unsigned d = 0; d < offset.size(); ++d)
      block.push_back(offset[d] >> shift[d]);
    rep[r] = firstOfBlock.try_emplace(block, r).first->second;
  }
  return rep;
}

/// arith / math ops on tensors: one scalar op per owned element (per
/// constant block when the axis analysis proves blocks equal).
struct ElementwiseLowering : ConversionPattern {
  ElementwiseLowering(TypeConverter &tc, MLIRContext *ctx, const LoweringState &state)
      : ConversionPattern(tc, MatchAnyOpTypeTag(), /*benefit=*/1, ctx), state(state) {}
  const LoweringState &state;

  LogicalResult matchAndRewrite(Operation *op, ArrayRef<ValueRange> operands,
                                ConversionPatternRewriter &rewriter) const override {
    if (!isa<arith::ArithDialect, math::MathDialect>(op->getDialect()) ||
        isa<arith::ConstantOp>(op) || op->getNumResults() == 0 ||
        !llvm::any_of(op->getResultTypes(), llvm::IsaPred<RankedTensorType>))
      return failure();
    SmallVector<SmallVector<Type>> resultTypes;
    for (Type t : op->getResultTypes()) {
      resultTypes.push_back(convertedTypes(getTypeConverter(), t));
      if (resultTypes.back().empty())
        return rewriter.notifyMatchFailure(op, "result without a layout");
    }
    unsigned n = resultTypes[0].size();
    SmallVector<unsigned> rep = blockRepresentatives(op, state, n);
    SmallVector<SmallVector<Value>> results(op->getNumResults());
    for (unsigned i = 0; i < n; ++i) {
      if (rep[i] != i) {
        for (unsigned r = 0; r < op->getNumResults(); ++r)
          results[r].push_back(results[r][rep[i]]);
        continue;
      }
      OperationState state(op->getLoc(), op->getName());
      for (ValueRange operand : operands)
        state.addOperands(nth(operand, i));
      for (auto &types : resultTypes)
        state.addTypes(types[i]);
      state.addAttributes(op->getAttrs());
      Operation *scalar = rewriter.create(state);
      for (unsigned r = 0; r < op->getNumResults(); ++r)
        results[r].push_back(scalar->getResult(r));
    }
    rewriter.replaceOpWithMultiple(op, results);
    return success();
  }
};

/// fp32 -> fp8 on tensors, two registers per `cvt.rn.satfinite.e4m3x2.f32`
/// (`e5m2x2`): the scalar lowering (MathToNVVM.cpp) converts one value per
/// instruction and a store then packs the bytes again. Registers 2i and
/// 2i + 1 are neighbours along the layout's fastest dimension (an mma
/// accumulator's column pair), which a 16-bit store writes as the
/// instruction's result. Other sources, targets below sm_89 and tensors
/// with constant blocks (computed once per block) take the scalar path.
struct TruncFToFp8PairLowering : OpConversionPattern<arith::TruncFOp> {
  TruncFToFp8PairLowering(TypeConverter &tc, MLIRContext *ctx, const LoweringState &state)
      : OpConversionPattern(tc, ctx, /*benefit=*/2), state(state) {}
  const LoweringState &state;

  LogicalResult matchAndRewrite(arith::TruncFOp op, OneToNOpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    auto type = dyn_cast<RankedTensorType>(op.getType());
    Type dst = type ? type.getElementType() : Type();
    if (!type || !isa_and_nonnull<Float8E4M3FNType, Float8E5M2Type>(dst) ||
        !mlir::getElementTypeOrSelf(op.getIn().getType()).isF32())
      return failure();
    std::optional<unsigned> cc = getTargetComputeCapability(op);
    if (!cc || *cc < 89)
      return failure();
    ValueRange in = adaptor.getIn();
    unsigned n = in.size();
    SmallVector<unsigned> rep = blockRepresentatives(op, state, n);
    if (n % 2 || !llvm::equal(rep, llvm::seq<unsigned>(0, n)))
      return failure();
    Location loc = op.getLoc();
    StringRef name = fp8PairFromF32Intrinsic(dst);
    Type i8 = rewriter.getI8Type(), i16 = rewriter.getI16Type();
    SmallVector<Value> out;
    for (unsigned i = 0; i < n; i += 2) {
      // The first operand goes to the upper byte.
      Value pair = LLVM::CallIntrinsicOp::create(rewriter, loc, i16, rewriter.getStringAttr(name),
                                                 ValueRange{in[i + 1], in[i]})
                       .getResult(0);
      Value high = LLVM::LShrOp::create(rewriter, loc, pair,
                                        LLVM::ConstantOp::create(rewriter, loc, i16,
                                                                 rewriter.getI16IntegerAttr(8)));
      for (Value half : {pair, high})
        out.push_back(arith::BitcastOp::create(rewriter, loc, dst,
                                               LLVM::TruncOp::create(rewriter, loc, i8, half)));
    }
    rewriter.replaceOpWithMultiple(op, {out});
    return success();
  }
};

struct ConstantLowering : OpConversionPattern<arith::ConstantOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(arith::ConstantOp op, OneToNOpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    auto type = dyn_cast<RankedTensorType>(op.getType());
    if (!type)
      return failure();
    auto splat = dyn_cast<SplatElementsAttr>(op.getValue());
    if (!splat)
      return op.emitOpError("non-splat tensor constants are not supported by "
                            "the GPU lowering");
    SmallVector<Type> types = convertedTypes(getTypeConverter(), type);
    if (types.empty())
      return rewriter.notifyMatchFailure(op, "tensor without a layout");
    Value scalar = arith::ConstantOp::create(
        rewriter, op.getLoc(), cast<TypedAttr>(splat.getSplatValue<Attribute>()));
    rewriter.replaceOpWithMultiple(op, {SmallVector<Value>(types.size(), scalar)});
    return success();
  }
};

struct SplatLowering : OpConversionPattern<SplatOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(SplatOp op, OneToNOpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    SmallVector<Type> types = convertedTypes(getTypeConverter(), op.getType());
    if (types.empty())
      return rewriter.notifyMatchFailure(op, "tensor without a layout");
    Value src = adaptor.getSrc()[0];
    rewriter.replaceOpWithMultiple(op, {SmallVector<Value>(types.size(), src)});
    return success();
  }
};

struct ArangeLowering : OpConversionPattern<ArangeOp> {
  ArangeLowering(TypeConverter &tc, MLIRContext *ctx, const LoweringState &state)
      : OpConversionPattern(tc, ctx), state(state) {}
  const LoweringState &state;

  LogicalResult matchAndRewrite(ArangeOp op, OneToNOpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    std::optional<DistributedLayout> layout = getDistributedLayout(op.getType());
    if (!layout)
      return rewriter.notifyMatchFailure(op, "tensor without a layout");
    Location loc = op.getLoc();
    const LoweringState::ThreadIds &ids = state.idsFor(op);
    Value base = threadCoords(rewriter, loc, *layout, ids.lane, ids.warp)[0];
    SmallVector<Value> values;
    for (unsigned r = 0; r < layout->numRegs(); ++r) {
      int64_t offset = layout->regOffset(r)[0] + op.getStart();
      values.push_back(offset ? arith::AddIOp::create(rewriter, loc, base,
                                                      i32Const(rewriter, loc, offset))
                                    .getResult()
                              : base);
    }
    rewriter.replaceOpWithMultiple(op, {values});
    return success();
  }
};

/// Register mapping for ops that keep elements in the same threads: result
/// register r holds source register map(r).
LogicalResult pickRegisters(Operation *op, RankedTensorType srcType,
                            RankedTensorType dstType, ValueRange src,
                            llvm::function_ref<DistributedLayout::Coord(
                                const DistributedLayout::Coord &)> toSrc,
                            ConversionPatternRewriter &rewriter) {
  std::optional<DistributedLayout> s = getDistributedLayout(srcType);
  std::optional<DistributedLayout> d = getDistributedLayout(dstType);
  if (!s || !d)
    return rewriter.notifyMatchFailure(op, "tensor without a layout");
  // Every lane / warp bit must select the same source element.
  auto sameThreads = [&](ArrayRef<DistributedLayout::Coord> sb,
                         ArrayRef<DistributedLayout::Coord> db) {
    if (sb.size() != db.size())
      return false;
    for (auto [x, y] : llvm::zip(sb, db))
      if (x != toSrc(y))
        return false;
    return true;
  };
  if (!sameThreads(s->laneBases, d->laneBases) ||
      !sameThreads(s->warpBases, d->warpBases))
    return op->emitOpError("operand and result layouts place elements in "
                           "different threads (a tile.convert_layout is needed)");
  SmallVector<Value> values;
  for (unsigned r = 0; r < d->numRegs(); ++r) {
    std::optional<unsigned> reg = s->findReg(toSrc(d->regOffset(r)));
    if (!reg)
      return op->emitOpError("result element not held by the operand's thread");
    values.push_back(src[*reg]);
  }
  rewriter.replaceOpWithMultiple(op, {values});
  return success();
}

struct BroadcastLowering : OpConversionPattern<BroadcastOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(BroadcastOp op, OneToNOpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    auto srcType = cast<RankedTensorType>(op.getSrc().getType());
    return pickRegisters(
        op, srcType, cast<RankedTensorType>(op.getType()), adaptor.getSrc(),
        [&](const DistributedLayout::Coord &c) {
          DistributedLayout::Coord out(c);
          for (unsigned d = 0; d < out.size(); ++d)
            if (srcType.getDimSize(d) == 1)
              out[d] = 0;
          return out;
        },
        rewriter);
  }
};

struct ExpandDimsLowering : OpConversionPattern<ExpandDimsOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(ExpandDimsOp op, OneToNOpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    unsigned axis = op.getAxis();
    return pickRegisters(
        op, cast<RankedTensorType>(op.getSrc().getType()),
        cast<RankedTensorType>(op.getType()), adaptor.getSrc(),
        [&](const DistributedLayout::Coord &c) {
          DistributedLayout::Coord out(c);
          out.erase(out.begin() + axis);
          return out;
        },
        rewriter);
  }
};

struct AddPtrLowering : OpConversionPattern<AddPtrOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(AddPtrOp op, OneToNOpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Type pointee = getTypeConverter()->convertType(
        mlir::getElementTypeOrSelf(getPointeeType(op.getPtr().getType())));
    // fp8 is not an LLVM type: step over i8.
    if (isa<FloatType>(pointee) && !LLVM::isCompatibleType(pointee))
      pointee = IntegerType::get(getContext(), pointee.getIntOrFloatBitWidth());
    auto ptrType = LLVM::LLVMPointerType::get(getContext(), kGlobalSpace);
    SmallVector<Value> values;
    for (unsigned i = 0; i < adaptor.getPtr().size(); ++i)
      values.push_back(LLVM::GEPOp::create(rewriter, op.getLoc(), ptrType, pointee,
                                           adaptor.getPtr()[i],
                                           ValueRange{nth(adaptor.getOffset(), i)}));
    rewriter.replaceOpWithMultiple(op, {values});
    return success();
  }
};

/// Pointers are opaque in LLVM: int <-> pointer per element, and a pointer
/// seen as another element type is the same value.
struct PtrCastLowering : OpConversionPattern<PtrCastOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(PtrCastOp op, OneToNOpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    bool fromPtr = isa<PtrType>(mlir::getElementTypeOrSelf(op.getSrc().getType()));
    bool toPtr = isa<PtrType>(mlir::getElementTypeOrSelf(op.getType()));
    auto ptrType = LLVM::LLVMPointerType::get(getContext(), kGlobalSpace);
    SmallVector<Value> values;
    for (Value v : adaptor.getSrc()) {
      if (fromPtr && toPtr)
        values.push_back(v);
      else if (toPtr)
        values.push_back(LLVM::IntToPtrOp::create(rewriter, op.getLoc(), ptrType, v));
      else
        values.push_back(LLVM::PtrToIntOp::create(rewriter, op.getLoc(),
                                                  rewriter.getI64Type(), v));
    }
    rewriter.replaceOpWithMultiple(op, {values});
    return success();
  }
};

struct WhereLowering : OpConversionPattern<WhereOp> {
  WhereLowering(TypeConverter &tc, MLIRContext *ctx, const LoweringState &state)
      : OpConversionPattern(tc, ctx), state(state) {}
  const LoweringState &state;
  LogicalResult matchAndRewrite(WhereOp op, OneToNOpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    SmallVector<Value> values;
    unsigned n = adaptor.getTrueValue().size();
    SmallVector<unsigned> rep = blockRepresentatives(op, state, n);
    for (unsigned i = 0; i < n; ++i)
      values.push_back(rep[i] != i ? values[rep[i]] : arith::SelectOp::create(
          rewriter, op.getLoc(), nth(adaptor.getCondition(), i),
          adaptor.getTrueValue()[i], adaptor.getFalseValue()[i]));
    rewriter.replaceOpWithMultiple(op, {values});
    return success();
  }
};

/// Hints only feed the axis analysis; the values pass through.
template <typename HintOp>
struct HintLowering : OpConversionPattern<HintOp> {
  using OpConversionPattern<HintOp>::OpConversionPattern;
  LogicalResult matchAndRewrite(HintOp op, typename HintOp::template GenericAdaptor<ArrayRef<ValueRange>> adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithMultiple(op, {SmallVector<Value>(adaptor.getSrc())});
    return success();
  }
};

/// program_id / num_programs: the NVVM special register of the grid axis.
template <typename TileOp, typename XOp, typename YOp, typename ZOp>
struct GridRegisterLowering : OpConversionPattern<TileOp> {
  using OpConversionPattern<TileOp>::OpConversionPattern;
  LogicalResult matchAndRewrite(TileOp op, typename TileOp::template GenericAdaptor<ArrayRef<ValueRange>>,
                                ConversionPatternRewriter &rewriter) const override {
    Type i32 = rewriter.getI32Type();
    Location loc = op.getLoc();
    Value value;
    switch (op.getAxis()) {
    case 0: value = XOp::create(rewriter, loc, i32); break;
    case 1: value = YOp::create(rewriter, loc, i32); break;
    default: value = ZOp::create(rewriter, loc, i32); break;
    }
    rewriter.replaceOp(op, value);
    return success();
  }
};
using ProgramIdLowering = GridRegisterLowering<ProgramIdOp, NVVM::BlockIdXOp,
                                               NVVM::BlockIdYOp, NVVM::BlockIdZOp>;
using NumProgramsLowering = GridRegisterLowering<NumProgramsOp, NVVM::GridDimXOp,
                                                 NVVM::GridDimYOp, NVVM::GridDimZOp>;

struct BarrierLowering : OpConversionPattern<BarrierOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(BarrierOp op, OneToNOpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    barrier(rewriter, op.getLoc());
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void populateElementwisePatterns(TileTypeConverter &converter,
                                 const LoweringState &state,
                                 RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<ElementwiseLowering, ArangeLowering, WhereLowering, TruncFToFp8PairLowering>(
      converter, ctx, state);
  patterns.add<ConstantLowering, SplatLowering, BroadcastLowering,
               ExpandDimsLowering, AddPtrLowering, PtrCastLowering,
               HintLowering<MultipleOfOp>, HintLowering<MaxContiguousOp>,
               HintLowering<MaxConstancyOp>,
               ProgramIdLowering, NumProgramsLowering, BarrierLowering>(converter,
                                                                        ctx);
}

} // namespace kiln::lowering

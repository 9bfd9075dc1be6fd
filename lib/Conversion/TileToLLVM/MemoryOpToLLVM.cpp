//===- MemoryOpToLLVM.cpp - Global loads, stores and atomics --------------===//
//
// Loads and stores are inline PTX so that a mask becomes one predicate on a
// vector access (`@p ld.global.v4.b32`): LLVM has no predicated vector load
// for NVPTX and would branch around each access. Consecutive registers that
// the axis analysis proves contiguous, aligned and uniformly masked are
// accessed together, up to 128 bits.
//
// Masked-off lanes of a load take `other` (a constant `other` is moved into
// the destination registers before the predicated load, as is zero when no
// `other` is given, so results never depend on stale registers).
//
// Stores and atomics are executed only by the first copy of replicated
// elements. On sm_90 a floating-point atomic add of proven-contiguous
// elements is one vector `atom` (`atom.global.acq_rel.gpu.add.v4.f32`), as
// Triton emits it: element-by-element atomics would cap the layout of every
// tensor feeding them at one element per thread. A scalar atomic runs on thread 0 after a barrier (so every
// thread has finished what precedes it), and its result reaches the other
// threads through shared memory: a spin loop on it stays uniform.
//
//===----------------------------------------------------------------------===//
#include "Lowering.h"

#include "mlir/IR/TypeUtilities.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace kiln;
using namespace kiln::tile;

namespace kiln::lowering {
namespace {

/// How a group of `vec` elements moves: as `numWords` words of `wordBits`.
struct Access {
  unsigned vec, elemBits, wordBits, numWords;
  Type elemType, bitsType;

  Access(Type elem, unsigned vec) : vec(vec), elemType(elem) {
    bitsType = bitsTypeFor(elem);
    elemBits = bitsType.getIntOrFloatBitWidth();
    unsigned total = vec * elemBits;
    wordBits = total >= 32 ? 32 : total;
    numWords = total / wordBits;
  }
  /// Registers hold at least 16 bits (PTX has no 8-bit registers).
  Type regType(MLIRContext *ctx) const {
    return IntegerType::get(ctx, std::max(16u, wordBits));
  }
  std::string regConstraint() const { return wordBits == 32 ? "r" : "h"; }
  std::string ptxType() const { return "b" + std::to_string(wordBits); }
  /// Elements that are their own bits' width (not i1 or pointers).
  bool direct() const {
    // fp8 (not an LLVM type) moves as i8 bits.
    return !isa<LLVM::LLVMPointerType>(elemType) && !elemType.isInteger(1) &&
           LLVM::isCompatibleType(elemType);
  }
  std::string vecSuffix() const {
    return numWords > 1 ? ".v" + std::to_string(numWords) : "";
  }
};

/// One word -> the `count` elements it holds.
void unpackWord(OpBuilder &b, Location loc, const Access &a, Value word,
                unsigned count, SmallVectorImpl<Value> &elems) {
  Type laneType = a.direct() ? a.elemType : a.bitsType;
  auto finish = [&](Value lane) {
    elems.push_back(a.direct() ? lane : fromBits(b, loc, lane, a.elemType));
  };
  if (count == 1) {
    finish(word.getType() == laneType
               ? word
               : LLVM::BitcastOp::create(b, loc, laneType, word).getResult());
    return;
  }
  Value v = LLVM::BitcastOp::create(
      b, loc, VectorType::get({(int64_t)count}, laneType), word);
  for (unsigned i = 0; i < count; ++i)
    finish(LLVM::ExtractElementOp::create(b, loc, v, i32Const(b, loc, i)));
}

/// Words -> elements.
SmallVector<Value> unpackWords(OpBuilder &b, Location loc, const Access &a,
                               ArrayRef<Value> regs) {
  SmallVector<Value> words;
  Type wordType = b.getIntegerType(a.wordBits);
  for (Value r : regs)
    words.push_back(r.getType() == wordType
                        ? r
                        : LLVM::TruncOp::create(b, loc, wordType, r).getResult());
  SmallVector<Value> elems;
  if (a.elemBits <= a.wordBits) {
    // Word by word: no vector of words to build and take apart.
    for (Value w : words)
      unpackWord(b, loc, a, w, a.wordBits / a.elemBits, elems);
    return elems;
  }
  // Elements wider than a word (64-bit values in 32-bit words).
  auto vecType = VectorType::get({(int64_t)a.numWords}, wordType);
  Value packed = LLVM::UndefOp::create(b, loc, vecType);
  for (auto [i, w] : llvm::enumerate(words))
    packed = LLVM::InsertElementOp::create(b, loc, packed, w, i32Const(b, loc, i));
  unpackWord(b, loc, a, packed, a.vec, elems);
  return elems;
}

/// `elems` -> one value of `type` holding their bits.
Value packInto(OpBuilder &b, Location loc, const Access &a, ArrayRef<Value> elems,
               Type type) {
  Type laneType = a.direct() ? a.elemType : a.bitsType;
  auto lane = [&](Value e) { return a.direct() ? e : toBits(b, loc, e); };
  Value packed;
  if (elems.size() == 1) {
    packed = lane(elems[0]);
  } else {
    packed = LLVM::UndefOp::create(
        b, loc, VectorType::get({(int64_t)elems.size()}, laneType));
    for (auto [i, e] : llvm::enumerate(elems)) {
      Value index = i32Const(b, loc, i); // before the lane: a fixed op order
      packed = LLVM::InsertElementOp::create(b, loc, packed, lane(e), index);
    }
  }
  return packed.getType() == type ? packed
                                  : LLVM::BitcastOp::create(b, loc, type, packed);
}

/// Elements -> words (in registers of regType).
SmallVector<Value> packWords(OpBuilder &b, Location loc, const Access &a,
                             ArrayRef<Value> elems) {
  Type wordType = b.getIntegerType(a.wordBits);
  SmallVector<Value> words;
  if (a.elemBits <= a.wordBits) {
    unsigned perWord = a.wordBits / a.elemBits;
    for (unsigned w = 0; w < a.numWords; ++w)
      words.push_back(packInto(b, loc, a, elems.slice(w * perWord, perWord), wordType));
  } else {
    auto wordsType = VectorType::get({(int64_t)a.numWords}, wordType);
    Value v = packInto(b, loc, a, elems, wordsType);
    for (unsigned i = 0; i < a.numWords; ++i)
      words.push_back(LLVM::ExtractElementOp::create(b, loc, v, i32Const(b, loc, i)));
  }
  Type regType = a.regType(b.getContext());
  for (Value &w : words)
    if (w.getType() != regType)
      w = LLVM::ZExtOp::create(b, loc, regType, w);
  return words;
}

/// Bits of a constant `other` operand (scalar or splat), if it is one.
std::optional<APInt> constantBits(Value other) {
  Attribute attr;
  if (!other || !matchPattern(other, m_Constant(&attr)))
    return std::nullopt;
  if (auto splat = dyn_cast<SplatElementsAttr>(attr))
    attr = splat.getSplatValue<Attribute>();
  if (auto i = dyn_cast<IntegerAttr>(attr))
    return i.getValue();
  if (auto f = dyn_cast<FloatAttr>(attr))
    return f.getValue().bitcastToAPInt();
  return std::nullopt;
}

Value nthOrNull(ValueRange values, unsigned i) {
  if (values.empty())
    return {};
  return values.size() == 1 ? values[0] : values[i];
}

/// Thread-ownership predicate for writes to `ptrType` elements: the first
/// copy of replicated tensor elements, thread 0 for scalars.
Value writerPredicate(OpBuilder &b, Location loc, Type ptrType,
                      const LoweringState::ThreadIds &ids) {
  auto tensor = dyn_cast<RankedTensorType>(ptrType);
  if (!tensor)
    return isThread0(b, loc, ids);
  std::optional<DistributedLayout> layout = getDistributedLayout(tensor);
  return isFirstCopy(b, loc, *layout, ids.lane, ids.warp);
}

/// Qualifiers after `ld.global` / `st.global` for Triton's cache hints:
/// `cache` (`.cg`, ...) as given; `evict` as the lines' L2 priority (a
/// `.L2::cache_hint` operand, l2Policy) and, where PTX allows it (not with a
/// cache operator), their L1 priority.
std::string cacheQualifiers(StringRef cache, StringRef evict) {
  std::string q = cache.str();
  if (!evict.empty()) {
    if (cache.empty())
      q += ".L1::" + evict.str();
    q += ".L2::cache_hint";
  }
  return q;
}

/// The 64-bit L2 cache policy giving every line `evict` priority. Without
/// side effects, so that LLVM keeps one per function.
Value l2Policy(OpBuilder &b, Location loc, StringRef evict) {
  std::string text = ("createpolicy.fractional.L2::" + evict + ".b64 $0, 1.0;").str();
  return inlinePtx(b, loc, {b.getI64Type()}, {}, text, "=l",
                   /*hasSideEffects=*/false)[0];
}

struct LoadLowering : OpConversionPattern<LoadOp> {
  LoadLowering(TypeConverter &tc, MLIRContext *ctx, const LoweringState &state)
      : OpConversionPattern(tc, ctx), state(state) {}

  LogicalResult matchAndRewrite(LoadOp op, OneToNOpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type elem = getTypeConverter()->convertType(mlir::getElementTypeOrSelf(op.getType()));
    ValueRange ptrs = adaptor.getPtr(), masks = adaptor.getMask(),
               others = adaptor.getOther();
    unsigned n = ptrs.size();
    unsigned vec = std::max(1u, state.vectorWidth.lookup(op));
    if (n % vec)
      vec = 1;
    Access a(elem, vec);
    std::optional<APInt> otherBits = constantBits(op.getOther());
    bool selectOther = op.getOther() && !otherBits;
    if (!otherBits)
      otherBits = APInt::getZero(a.elemBits);
    MLIRContext *ctx = getContext();
    // A volatile load reads memory every time and takes no hints.
    bool isVolatile = op.getIsVolatile();
    std::string opcode =
        isVolatile ? "ld.volatile.global"
                   : "ld.global" + cacheQualifiers(op.getCache(), op.getEvict());
    Value policy;
    if (!isVolatile && !op.getEvict().empty())
      policy = l2Policy(rewriter, loc, op.getEvict());

    SmallVector<Value> values;
    for (unsigned g = 0; g < n / vec; ++g) {
      unsigned r0 = g * vec;
      Value pred = nthOrNull(masks, r0);
      std::string text, constraints;
      SmallVector<Value> inputs{ptrs[r0]};
      unsigned ptrArg = a.numWords, predArg = a.numWords + 1;
      unsigned policyArg = a.numWords + (pred ? 2 : 1);
      for (unsigned w = 0; w < a.numWords; ++w)
        constraints += "=" + a.regConstraint() + ",";
      constraints += "l";
      if (pred) {
        inputs.push_back(pred);
        constraints += ",b";
        // Masked-off lanes keep these bits.
        APInt all(a.vec * a.elemBits, 0);
        for (unsigned e = 0; e < a.vec; ++e)
          all.insertBits(otherBits->zextOrTrunc(a.elemBits), e * a.elemBits);
        for (unsigned w = 0; w < a.numWords; ++w) {
          APInt word = all.extractBits(a.wordBits, w * a.wordBits);
          unsigned movBits = std::max(16u, a.wordBits);
          text += llvm::formatv("mov.b{0} ${1}, 0x{2};\n\t", movBits, w,
                                llvm::toString(word.zext(movBits), 16, false))
                      .str();
        }
        text += llvm::formatv("@${0} ", predArg).str();
      }
      if (policy) {
        inputs.push_back(policy);
        constraints += ",l";
      }
      text += opcode + a.vecSuffix() + "." + a.ptxType() + " ";
      if (a.numWords > 1)
        text += "{ ";
      for (unsigned w = 0; w < a.numWords; ++w)
        text += (w ? ", $" : "$") + std::to_string(w);
      if (a.numWords > 1)
        text += " }";
      text += llvm::formatv(", [ ${0} + 0 ]", ptrArg).str();
      if (policy)
        text += llvm::formatv(", ${0}", policyArg).str();
      text += ";";
      SmallVector<Type> regTypes(a.numWords, a.regType(ctx));
      SmallVector<Value> regs =
          inlinePtx(rewriter, loc, regTypes, inputs, text, constraints,
                    /*hasSideEffects=*/true);
      SmallVector<Value> elems = unpackWords(rewriter, loc, a, regs);
      for (unsigned i = 0; i < vec; ++i) {
        Value v = elems[i];
        if (selectOther)
          v = arith::SelectOp::create(rewriter, loc, nthOrNull(masks, r0 + i), v,
                                      nthOrNull(others, r0 + i));
        values.push_back(v);
      }
    }
    rewriter.replaceOpWithMultiple(op, {values});
    return success();
  }

  const LoweringState &state;
};

struct StoreLowering : OpConversionPattern<StoreOp> {
  StoreLowering(TypeConverter &tc, MLIRContext *ctx, const LoweringState &state)
      : OpConversionPattern(tc, ctx), state(state) {}

  LogicalResult matchAndRewrite(StoreOp op, OneToNOpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type elem = getTypeConverter()->convertType(
        mlir::getElementTypeOrSelf(op.getValue().getType()));
    ValueRange ptrs = adaptor.getPtr(), masks = adaptor.getMask(),
               values = adaptor.getValue();
    unsigned n = ptrs.size();
    unsigned vec = std::max(1u, state.vectorWidth.lookup(op));
    if (n % vec)
      vec = 1;
    Access a(elem, vec);
    Value writer = writerPredicate(rewriter, loc, op.getPtr().getType(),
                                   state.idsFor(op));
    std::string opcode = "st.global" + cacheQualifiers(op.getCache(), op.getEvict());
    Value policy;
    if (!op.getEvict().empty())
      policy = l2Policy(rewriter, loc, op.getEvict());
    for (unsigned g = 0; g < n / vec; ++g) {
      unsigned r0 = g * vec;
      Value pred = andAll(rewriter, loc, {nthOrNull(masks, r0), writer});
      SmallVector<Value> elems;
      for (unsigned i = 0; i < vec; ++i)
        elems.push_back(nthOrNull(values, r0 + i));
      SmallVector<Value> words = packWords(rewriter, loc, a, elems);
      SmallVector<Value> inputs{ptrs[r0]};
      inputs.append(words);
      std::string constraints = "l";
      for (unsigned w = 0; w < a.numWords; ++w)
        constraints += "," + a.regConstraint();
      std::string text;
      if (pred) {
        inputs.push_back(pred);
        constraints += ",b";
        text += llvm::formatv("@${0} ", a.numWords + 1).str();
      }
      if (policy) {
        inputs.push_back(policy);
        constraints += ",l";
      }
      text += opcode + a.vecSuffix() + "." + a.ptxType() + " [ $0 + 0 ], ";
      if (a.numWords > 1)
        text += "{ ";
      for (unsigned w = 0; w < a.numWords; ++w)
        text += (w ? ", $" : "$") + std::to_string(w + 1);
      if (a.numWords > 1)
        text += " }";
      if (policy)
        text += llvm::formatv(", ${0}", inputs.size() - 1).str();
      text += ";";
      inlinePtx(rewriter, loc, {}, inputs, text, constraints, /*hasSideEffects=*/true);
    }
    rewriter.eraseOp(op);
    return success();
  }

  const LoweringState &state;
};

/// PTX `atom` operation and type for a read-modify-write on `elem`.
FailureOr<std::string> rmwInstruction(RMWKind kind, Type elem) {
  unsigned bits = elem.getIntOrFloatBitWidth();
  std::string b = std::to_string(bits);
  bool isFloat = isa<FloatType>(elem);
  switch (kind) {
  case RMWKind::xchg: return "exch.b" + b;
  case RMWKind::add:
    if (!isFloat)
      return "add.u" + b;
    if (elem.isF16())
      return std::string("add.noftz.f16");
    if (elem.isBF16())
      return std::string("add.noftz.bf16");
    return "add.f" + b;
  // A float max / min is marked `fmax` / `fmin`: emitAtom splits it by sign.
  case RMWKind::max: return (isFloat ? "fmax.b" : "max.s") + b;
  case RMWKind::min: return (isFloat ? "fmin.b" : "min.s") + b;
  case RMWKind::umax: return "max.u" + b;
  case RMWKind::umin: return "min.u" + b;
  case RMWKind::and_: return "and.b" + b;
  case RMWKind::or_: return "or.b" + b;
  case RMWKind::xor_: return "xor.b" + b;
  }
  return failure();
}

/// The `instr` of a bf16 atomic add before sm_90 (no bf16 `atom.add` there).
constexpr llvm::StringLiteral kBF16AddByCAS = "casadd.bf16";

/// Emits one predicated `atom` on `vec` consecutive elements (operands: ptr,
/// then `args`, each holding `vec` values; vec > 1 is a vector `atom` of one
/// operand) returning the old values.
SmallVector<Value> emitAtom(OpBuilder &b, Location loc, StringRef instr, StringRef ordering,
                            Value ptr, ArrayRef<SmallVector<Value>> args, Value pred,
                            Type elem, unsigned vec) {
  Type bitsType = bitsTypeFor(elem);
  std::string reg = bitsType.getIntOrFloatBitWidth() == 64 ? "l"
                    : bitsType.getIntOrFloatBitWidth() == 32 ? "r" : "h";
  // `{ $a, $b, ... }` for a vector operand, `$a` for a scalar.
  auto operand = [&](unsigned first) {
    std::string text = vec > 1 ? "{ " : "";
    for (unsigned i = 0; i < vec; ++i)
      text += (i ? ", $" : "$") + std::to_string(first + i);
    return text + (vec > 1 ? " }" : "");
  };
  SmallVector<Value> inputs{ptr};
  std::string constraints;
  for (unsigned i = 0; i < vec; ++i)
    constraints += "=" + reg + ",";
  constraints += "l";
  for (ArrayRef<Value> arg : args)
    for (Value v : arg) {
      inputs.push_back(toBits(b, loc, v));
      constraints += "," + reg;
    }
  std::string text;
  if (pred) {
    inputs.push_back(pred);
    constraints += ",b";
    text += llvm::formatv("@${0} ", vec + inputs.size() - 1).str();
  }
  if (instr.starts_with("fmax.") || instr.starts_with("fmin.")) {
    // A float max / min on the bits, as Triton does it: IEEE order is the
    // signed order of the bits for values with the sign bit clear and the
    // reverse unsigned order for values with it set; one atom per sign,
    // under disjoint predicates. The split is by the sign bit, not by
    // `x >= 0` (Triton's): -0.0 then takes the unsigned side, where it never
    // beats a negative value, so the result does not depend on the order the
    // atoms land in. NaN takes neither side (it is ignored, as in Triton).
    assert(vec == 1 && args.size() == 1 && "a float max / min is one scalar atom");
    std::string bits = instr.substr(strlen("fmax.b")).str();
    bool isMax = instr.starts_with("fmax.");
    std::string ord = "atom.global." + ordering.str() + ".";
    std::string block = "{ .reg .pred pos, neg, num; setp.num.f" + bits + " num, $2, $2; setp.ge.s" +
                        bits + " pos, $2, 0; setp.lt.s" + bits +
                        " neg, $2, 0; and.pred pos, pos, num; and.pred neg, neg, num; ";
    if (pred)
      block += "and.pred pos, pos, $3; and.pred neg, neg, $3; ";
    block += "@pos " + ord + (isMax ? "max.s" : "min.s") + bits + " $0, [ $1 + 0 ], $2; ";
    block += "@neg " + ord + (isMax ? "min.u" : "max.u") + bits + " $0, [ $1 + 0 ], $2; }";
    Value old = inlinePtx(b, loc, {bitsType}, inputs, block, constraints,
                          /*hasSideEffects=*/true)[0];
    return {fromBits(b, loc, old, elem)};
  }
  if (instr == kBF16AddByCAS) {
    // bf16 `atom.add` needs sm_90: before it, a compare-and-swap loop on the
    // 16 bits (Triton's LLVM expands its atomicrmw the same way). The sum is
    // one rounding (`fma` by 1.0: sm_80 has no bf16 `add`); a NaN in memory
    // compares by bits, so the loop ends.
    assert(vec == 1 && args.size() == 1 && "a bf16 add by CAS is one scalar atom");
    std::string loop = "L_kiln_cas_${:uid}";
    std::string done = "L_kiln_cas_done_${:uid}";
    std::string block = "{ .reg .pred again; .reg .b16 seen, sum, one; mov.b16 one, 0x3F80; ";
    if (pred)
      block += "@!$3 bra " + done + "; ";
    block += "ld.global.b16 $0, [ $1 + 0 ]; " + loop + ": fma.rn.bf16 sum, $0, one, $2; " +
             "atom.global." + ordering.str() + ".cas.b16 seen, [ $1 + 0 ], $0, sum; " +
             "setp.ne.b16 again, seen, $0; mov.b16 $0, seen; @again bra " + loop + "; " +
             done + ": }";
    Value old = inlinePtx(b, loc, {bitsType}, inputs, block, constraints,
                          /*hasSideEffects=*/true)[0];
    return {fromBits(b, loc, old, elem)};
  }
  std::string vecSuffix = vec > 1 ? ".v" + std::to_string(vec) : "";
  // The vector qualifier goes right before the element type: add.v4.f32,
  // add.noftz.v8.f16.
  std::string op = instr.str();
  size_t typeDot = op.rfind('.');
  op = op.substr(0, typeDot) + vecSuffix + op.substr(typeDot);
  text += "atom.global." + ordering.str() + "." + op + " " + operand(0) + ", [ $" +
          std::to_string(vec) + " + 0 ]";
  for (unsigned i = 0; i < args.size(); ++i)
    text += ", " + operand(vec + 1 + i * vec);
  text += ";";
  SmallVector<Type> resultTypes(vec, bitsType);
  SmallVector<Value> olds;
  for (Value old : inlinePtx(b, loc, resultTypes, inputs, text, constraints,
                             /*hasSideEffects=*/true))
    olds.push_back(fromBits(b, loc, old, elem));
  return olds;
}

/// Shared lowering of atomic_cas / atomic_rmw: `args(i)` gives the value
/// operands for element i.
LogicalResult lowerAtomic(Operation *op, const LoweringState::ThreadIds &ids,
                          Type ptrType, Type resultType,
                          StringRef instr, StringRef ordering, ValueRange ptrs, ValueRange masks,
                          llvm::function_ref<SmallVector<Value>(unsigned)> args,
                          Type elem, ConversionPatternRewriter &rewriter,
                          unsigned vec = 1) {
  Location loc = op->getLoc();
  bool used = !op->getResult(0).use_empty();
  auto tensor = dyn_cast<RankedTensorType>(ptrType);
  if (!tensor) {
    // Thread 0 runs it once everyone is done with what came before.
    barrier(rewriter, loc);
    Value pred = andAll(rewriter, loc, {isThread0(rewriter, loc, ids), nthOrNull(masks, 0)});
    SmallVector<SmallVector<Value>> scalarArgs;
    for (Value v : args(0))
      scalarArgs.push_back({v});
    Value old = emitAtom(rewriter, loc, instr, ordering, ptrs[0], scalarArgs, pred, elem, 1)[0];
    if (!used) {
      rewriter.replaceOp(op, old);
      return success();
    }
    Type bitsType = bitsTypeFor(elem);
    unsigned bytes = bitsType.getIntOrFloatBitWidth() / 8;
    scf::IfOp::create(rewriter, loc, isThread0(rewriter, loc, ids),
                      [&](OpBuilder &b, Location l) {
                        Value ptr = sharedPtr(b, l, Value()); // a fixed op order
                        LLVM::StoreOp::create(b, l, toBits(b, l, old), ptr, bytes);
                        scf::YieldOp::create(b, l);
                      });
    barrier(rewriter, loc);
    Value bits = LLVM::LoadOp::create(rewriter, loc, bitsType,
                                      sharedPtr(rewriter, loc, Value()), bytes);
    rewriter.replaceOp(op, fromBits(rewriter, loc, bits, elem));
    return success();
  }
  std::optional<DistributedLayout> layout = getDistributedLayout(tensor);
  if (!layout)
    return rewriter.notifyMatchFailure(op, "tensor without a layout");
  Value owner = isFirstCopy(rewriter, loc, *layout, ids.lane, ids.warp);
  SmallVector<Value> results;
  if (ptrs.size() % vec)
    vec = 1;
  for (unsigned i = 0; i < ptrs.size(); i += vec) {
    // The analysis proved the `vec` elements contiguous, aligned and equally
    // masked: the first element's pointer and mask stand for the group.
    Value pred = andAll(rewriter, loc, {nthOrNull(masks, i), owner});
    SmallVector<SmallVector<Value>> groupArgs;
    for (unsigned j = 0; j < vec; ++j)
      for (auto [k, v] : llvm::enumerate(args(i + j))) {
        if (groupArgs.size() <= k)
          groupArgs.emplace_back();
        groupArgs[k].push_back(v);
      }
    llvm::append_range(results, emitAtom(rewriter, loc, instr, ordering, ptrs[i], groupArgs,
                                         pred, elem, vec));
  }
  // Copies of replicated elements get the owner's result.
  if (used && owner) {
    std::optional<DistributedLayout> resultLayout =
        getDistributedLayout(cast<RankedTensorType>(resultType));
    results = exchangeThroughShared(rewriter, loc, ids, *layout, results,
                                    *resultLayout, elem);
  }
  rewriter.replaceOpWithMultiple(op, {results});
  return success();
}

struct AtomicCASLowering : OpConversionPattern<AtomicCASOp> {
  AtomicCASLowering(TypeConverter &tc, MLIRContext *ctx, const LoweringState &state)
      : OpConversionPattern(tc, ctx), state(state) {}
  const LoweringState &state;

  LogicalResult matchAndRewrite(AtomicCASOp op, OneToNOpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Type elem = getTypeConverter()->convertType(mlir::getElementTypeOrSelf(op.getType()));
    std::string instr =
        "cas.b" + std::to_string(bitsTypeFor(elem).getIntOrFloatBitWidth());
    ValueRange cmp = adaptor.getCmp(), val = adaptor.getVal();
    // Spelled as Triton spells a compare-and-swap (atom.global.acq_rel.gpu;
    // its other atomics put the scope first): ptxas takes either order, and
    // tools grep Triton's.
    std::string ordering = (op.getSem() + "." + op.getScope()).str();
    return lowerAtomic(
        op, state.idsFor(op), op.getPtr().getType(), op.getType(), instr, ordering,
        adaptor.getPtr(), {},
        [&](unsigned i) {
          return SmallVector<Value>{cmp.size() == 1 ? cmp[0] : cmp[i],
                                    val.size() == 1 ? val[0] : val[i]};
        },
        elem, rewriter);
  }
};

struct AtomicRMWLowering : OpConversionPattern<AtomicRMWOp> {
  AtomicRMWLowering(TypeConverter &tc, MLIRContext *ctx, const LoweringState &state)
      : OpConversionPattern(tc, ctx), state(state) {}
  const LoweringState &state;

  LogicalResult matchAndRewrite(AtomicRMWOp op, OneToNOpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Type elem = getTypeConverter()->convertType(mlir::getElementTypeOrSelf(op.getType()));
    FailureOr<std::string> instr = rmwInstruction(op.getKind(), elem);
    if (failed(instr))
      return op.emitOpError("unsupported atomic operation");
    ValueRange val = adaptor.getVal();
    // Scope before semantics, as Triton spells it (atom.global.gpu.acq_rel):
    // ptxas takes either order, and tools grep Triton's.
    std::string ordering = (op.getScope() + "." + op.getSem()).str();
    unsigned vec = std::max(1u, state.vectorWidth.lookup(op));
    if (elem.isBF16() && state.computeCapability < 90) {
      *instr = kBF16AddByCAS.str();
      vec = 1;
    }
    return lowerAtomic(
        op, state.idsFor(op), op.getPtr().getType(), op.getType(), *instr, ordering,
        adaptor.getPtr(), adaptor.getMask(),
        [&](unsigned i) {
          return SmallVector<Value>{val.size() == 1 ? val[0] : val[i]};
        },
        elem, rewriter, vec);
  }
};

} // namespace

void populateMemoryPatterns(TileTypeConverter &converter, const LoweringState &state,
                            RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<LoadLowering, StoreLowering, AtomicCASLowering, AtomicRMWLowering>(
      converter, ctx, state);
}

} // namespace kiln::lowering

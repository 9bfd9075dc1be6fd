//===- Utility.cpp - IR building helpers for the tile lowering ------------===//
#include "Lowering.h"

#include "llvm/ADT/StringExtras.h"

#include "mlir/IR/IRMapping.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace kiln;

namespace kiln::lowering {

Value i32Const(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(v));
}

LoweringState::ThreadIds createThreadIds(OpBuilder &b, Location loc, bool uniformWarp) {
  Value tid = NVVM::ThreadIdXOp::create(b, loc, b.getI32Type());
  Value lane = arith::AndIOp::create(b, loc, tid, i32Const(b, loc, kWarpSize - 1));
  Value warp = arith::ShRUIOp::create(b, loc, tid, i32Const(b, loc, kLaneBits));
  // The same value read from lane 0: ptxas then knows it is warp-uniform and
  // keeps what is computed from it (wgmma's descriptors) in uniform registers.
  if (uniformWarp) {
    Value allLanes = i32Const(b, loc, -1);
    Value firstLane = i32Const(b, loc, 0);
    Value clamp = i32Const(b, loc, kWarpSize - 1);
    warp = NVVM::ShflOp::create(b, loc, b.getI32Type(), allLanes, warp, firstLane, clamp,
                                NVVM::ShflKind::idx, UnitAttr());
  }
  return {tid, lane, warp};
}

const LoweringState::ThreadIds &LoweringState::idsFor(Operation *op) const {
  Operation *func = op->getParentOfType<FunctionOpInterface>();
  auto it = threadIds.find(func);
  assert(it != threadIds.end() && "thread ids are created for every function");
  return it->second;
}

void barrier(OpBuilder &b, Location loc) {
  // A program of one warp synchronizes its threads, and orders their
  // shared-memory accesses, with bar.warp.sync (as Triton does): there is
  // no other warp to wait for at a CTA barrier.
  Block *block = b.getInsertionBlock();
  Operation *parent = block ? block->getParentOp() : nullptr;
  if (parent && tile::getModuleNumWarps(parent, /*fallback=*/0) == 1) {
    NVVM::SyncWarpOp::create(b, loc, i32Const(b, loc, -1));
    return;
  }
  NVVM::Barrier0Op::create(b, loc);
}

bool definedBeforeInBlock(Value v, OpBuilder &b) {
  Operation *def = v.getDefiningOp();
  if (!def || def->getBlock() != b.getInsertionBlock())
    return false;
  return b.getInsertionPoint() == b.getInsertionBlock()->end() ||
         def->isBeforeInBlock(&*b.getInsertionPoint());
}

LLVM::LLVMFuncOp getOrInsertFunction(ModuleOp module, OpBuilder &b, Location loc,
                                     StringRef name, LLVM::LLVMFunctionType type) {
  if (auto f = module.lookupSymbol<LLVM::LLVMFuncOp>(name))
    return f;
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(module.getBody());
  return LLVM::LLVMFuncOp::create(b, loc, name, type);
}

Value stringConstant(ModuleOp module, OpBuilder &b, Location loc, StringRef text,
                     StringRef prefix) {
  std::string data = text.str();
  data.push_back('\0');
  MLIRContext *ctx = b.getContext();
  auto arrayType = LLVM::LLVMArrayType::get(IntegerType::get(ctx, 8), data.size());
  std::string name;
  for (unsigned i = 0;; ++i) {
    name = (prefix + llvm::Twine(i)).str();
    if (!module.lookupSymbol(name))
      break;
  }
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(module.getBody());
    LLVM::GlobalOp::create(b, loc, arrayType, /*isConstant=*/true, LLVM::Linkage::Internal,
                           name, b.getStringAttr(data));
  }
  return LLVM::AddressOfOp::create(b, loc, LLVM::LLVMPointerType::get(ctx), name);
}

Value sharedPtr(OpBuilder &b, Location loc, Value byteOffset) {
  auto ptrType = LLVM::LLVMPointerType::get(b.getContext(), kSharedSpace);
  Value base = LLVM::AddressOfOp::create(b, loc, ptrType, kSharedSymbol);
  if (!byteOffset)
    return base;
  return LLVM::GEPOp::create(b, loc, ptrType, b.getI8Type(), base,
                             ValueRange{byteOffset});
}

Value andAll(OpBuilder &b, Location loc, ArrayRef<Value> conds) {
  Value acc;
  for (Value c : conds) {
    if (!c)
      continue;
    acc = acc ? arith::AndIOp::create(b, loc, acc, c).getResult() : c;
  }
  return acc;
}

/// Sum over runs of id bits that map to consecutive powers of two on `dim`.
static Value coordFromBits(OpBuilder &b, Location loc, Value id,
                           ArrayRef<DistributedLayout::Coord> bases, unsigned dim) {
  Value acc;
  unsigned n = bases.size();
  for (unsigned i = 0; i < n;) {
    int64_t base = bases[i][dim];
    if (base == 0) {
      ++i;
      continue;
    }
    unsigned e = i + 1;
    while (e < n && bases[e][dim] == (base << (e - i)))
      ++e;
    // ((id >> i) & (2^(e-i) - 1)) * base, with base a power of two.
    Value bits = id;
    if (i)
      bits = arith::ShRUIOp::create(b, loc, bits, i32Const(b, loc, i));
    bits = arith::AndIOp::create(b, loc, bits, i32Const(b, loc, (1 << (e - i)) - 1));
    if (base > 1)
      bits = arith::ShLIOp::create(b, loc, bits,
                                   i32Const(b, loc, llvm::Log2_64(base)));
    acc = acc ? arith::OrIOp::create(b, loc, acc, bits).getResult() : bits;
    i = e;
  }
  return acc;
}

SmallVector<Value> threadCoords(OpBuilder &b, Location loc,
                                const DistributedLayout &layout, Value lane,
                                Value warp) {
  SmallVector<Value> coords;
  for (unsigned d = 0; d < layout.rank(); ++d) {
    Value fromLane = coordFromBits(b, loc, lane, layout.laneBases, d);
    Value fromWarp = coordFromBits(b, loc, warp, layout.warpBases, d);
    Value c = fromLane && fromWarp
                  ? arith::OrIOp::create(b, loc, fromLane, fromWarp).getResult()
                  : (fromLane ? fromLane : fromWarp);
    coords.push_back(c ? c : i32Const(b, loc, 0));
  }
  return coords;
}

Value isFirstCopy(OpBuilder &b, Location loc, const DistributedLayout &layout,
                  Value lane, Value warp) {
  SmallVector<Value> conds;
  auto zeroBits = [&](Value id, unsigned mask) {
    if (!mask)
      return;
    Value bits = arith::AndIOp::create(b, loc, id, i32Const(b, loc, mask));
    conds.push_back(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, bits,
                                          i32Const(b, loc, 0)));
  };
  zeroBits(lane, layout.replicatedLaneMask());
  zeroBits(warp, layout.replicatedWarpMask());
  return andAll(b, loc, conds);
}

Value linearize(OpBuilder &b, Location loc, ArrayRef<Value> coords,
                ArrayRef<int64_t> offset, ArrayRef<int64_t> shape) {
  int64_t stride = 1, constant = 0;
  Value acc;
  for (int d = shape.size() - 1; d >= 0; --d) {
    constant += offset[d] * stride;
    if (coords[d]) {
      Value term = coords[d];
      if (stride > 1)
        term = arith::MulIOp::create(b, loc, term, i32Const(b, loc, stride));
      acc = acc ? arith::AddIOp::create(b, loc, acc, term).getResult() : term;
    }
    stride *= shape[d];
  }
  if (!acc)
    return i32Const(b, loc, constant);
  if (constant)
    acc = arith::AddIOp::create(b, loc, acc, i32Const(b, loc, constant));
  return acc;
}

Type bitsTypeFor(Type elem) {
  MLIRContext *ctx = elem.getContext();
  if (isa<LLVM::LLVMPointerType>(elem))
    return IntegerType::get(ctx, 64);
  unsigned bits = elem.getIntOrFloatBitWidth();
  return IntegerType::get(ctx, std::max(8u, bits));
}

Value toBits(OpBuilder &b, Location loc, Value v) {
  Type t = v.getType();
  Type bitsType = bitsTypeFor(t);
  if (isa<LLVM::LLVMPointerType>(t))
    return LLVM::PtrToIntOp::create(b, loc, bitsType, v);
  if (t == bitsType)
    return v;
  if (t.isInteger(1))
    return LLVM::ZExtOp::create(b, loc, bitsType, v);
  if (!LLVM::isCompatibleType(t)) // fp8: arith until the LLVM type conversion
    return arith::BitcastOp::create(b, loc, bitsType, v);
  return LLVM::BitcastOp::create(b, loc, bitsType, v);
}

Value packToI32(OpBuilder &b, Location loc, ArrayRef<Value> vals) {
  Type i32 = b.getI32Type();
  if (vals.size() == 1)
    return toBits(b, loc, vals[0]);
  Type bits = bitsTypeFor(vals[0].getType());
  auto vecType = VectorType::get({int64_t(vals.size())}, bits);
  Value vec = LLVM::UndefOp::create(b, loc, vecType);
  for (auto [i, v] : llvm::enumerate(vals))
    vec = LLVM::InsertElementOp::create(b, loc, vec, toBits(b, loc, v), i32Const(b, loc, i));
  return LLVM::BitcastOp::create(b, loc, i32, vec);
}

Value fromBits(OpBuilder &b, Location loc, Value bits, Type elem) {
  if (isa<LLVM::LLVMPointerType>(elem))
    return LLVM::IntToPtrOp::create(b, loc, elem, bits);
  if (bits.getType() == elem)
    return bits;
  if (elem.isInteger(1))
    return LLVM::TruncOp::create(b, loc, elem, bits);
  if (!LLVM::isCompatibleType(elem)) // fp8
    return arith::BitcastOp::create(b, loc, elem, bits);
  return LLVM::BitcastOp::create(b, loc, elem, bits);
}

std::string asmOperandList(unsigned first, unsigned n) {
  SmallVector<std::string> parts;
  for (unsigned i = 0; i < n; ++i)
    parts.push_back("$" + std::to_string(first + i));
  return "{" + llvm::join(parts, ", ") + "}";
}

SmallVector<Value> inlinePtx(OpBuilder &b, Location loc, TypeRange resultTypes,
                             ValueRange inputs, StringRef text,
                             StringRef constraints, bool hasSideEffects) {
  MLIRContext *ctx = b.getContext();
  Type resultType;
  if (resultTypes.size() == 1)
    resultType = resultTypes[0];
  else if (resultTypes.size() > 1)
    resultType = LLVM::LLVMStructType::getLiteral(ctx, SmallVector<Type>(resultTypes));
  auto op = LLVM::InlineAsmOp::create(
      b, loc, resultType ? TypeRange{resultType} : TypeRange{}, inputs, text,
      constraints, hasSideEffects, /*is_align_stack=*/false,
      LLVM::tailcallkind::TailCallKind::None,
      LLVM::AsmDialectAttr::get(ctx, LLVM::AsmDialect::AD_ATT),
      /*operand_attrs=*/ArrayAttr());
  SmallVector<Value> results;
  if (resultTypes.size() == 1)
    results.push_back(op.getResult(0));
  else
    for (unsigned i = 0; i < resultTypes.size(); ++i)
      results.push_back(LLVM::ExtractValueOp::create(b, loc, op.getResult(0), i));
  return results;
}

Value isThread0(OpBuilder &b, Location loc, const LoweringState::ThreadIds &ids) {
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, ids.tid,
                               i32Const(b, loc, 0));
}

Value combine(OpBuilder &b, Location loc, ReduceKind kind, Value x, Value y) {
  bool isFloat = isa<FloatType>(x.getType());
  switch (kind) {
  case ReduceKind::Sum:
    return isFloat ? arith::AddFOp::create(b, loc, x, y).getResult()
                   : arith::AddIOp::create(b, loc, x, y).getResult();
  case ReduceKind::Max:
    return isFloat ? arith::MaxNumFOp::create(b, loc, x, y).getResult()
                   : arith::MaxSIOp::create(b, loc, x, y).getResult();
  case ReduceKind::Min:
    return isFloat ? arith::MinNumFOp::create(b, loc, x, y).getResult()
                   : arith::MinSIOp::create(b, loc, x, y).getResult();
  }
  llvm_unreachable("unknown reduction");
}

SmallVector<Value> inlineCombiner(OpBuilder &b, Region &combiner, ValueRange acc,
                                  ValueRange x) {
  Block &block = combiner.front();
  IRMapping mapping;
  unsigned n = acc.size();
  for (unsigned i = 0; i < n; ++i) {
    mapping.map(block.getArgument(i), acc[i]);
    mapping.map(block.getArgument(n + i), x[i]);
  }
  for (Operation &op : block.without_terminator())
    b.clone(op, mapping);
  SmallVector<Value> out;
  for (Value v : block.getTerminator()->getOperands())
    out.push_back(mapping.lookupOrDefault(v));
  return out;
}

/// One 32-bit shuffle of `kind`; `which` makes its lane operand (a xor
/// distance or a source lane) between the clamp and the member mask.
static Value shfl32(OpBuilder &b, Location loc, Value v, NVVM::ShflKind kind,
                    llvm::function_ref<Value()> which) {
  // Named locals: the constants' order must not depend on the compiler's
  // argument evaluation order (lit tests check it).
  Value clamp = i32Const(b, loc, kWarpSize - 1);
  Value lane = which();
  Value allLanes = i32Const(b, loc, -1);
  return NVVM::ShflOp::create(b, loc, v.getType(), allLanes, v, lane, clamp, kind,
                              UnitAttr());
}

/// A shuffle of any 16/32/64-bit scalar through 32-bit shuffles.
static Value shuffleScalar(OpBuilder &b, Location loc, Value v,
                           llvm::function_ref<Value(Value)> shuffle32) {
  Type t = v.getType();
  Type i32 = b.getI32Type();
  if (t.isF32() || t.isInteger(32))
    return shuffle32(v);
  Value bits = toBits(b, loc, v);
  unsigned width = bits.getType().getIntOrFloatBitWidth();
  Value shuffled;
  if (width < 32) {
    Value wide = LLVM::ZExtOp::create(b, loc, i32, bits);
    shuffled = LLVM::TruncOp::create(b, loc, bits.getType(), shuffle32(wide));
  } else {
    // 64 bits: two halves.
    Value lo = LLVM::TruncOp::create(b, loc, i32, bits);
    Value hi = LLVM::TruncOp::create(
        b, loc, i32,
        LLVM::LShrOp::create(b, loc, bits,
                             LLVM::ConstantOp::create(b, loc, bits.getType(), 32)));
    lo = LLVM::ZExtOp::create(b, loc, bits.getType(), shuffle32(lo));
    hi = LLVM::ZExtOp::create(b, loc, bits.getType(), shuffle32(hi));
    hi = LLVM::ShlOp::create(b, loc, hi,
                             LLVM::ConstantOp::create(b, loc, bits.getType(), 32));
    shuffled = LLVM::OrOp::create(b, loc, lo, hi);
  }
  return fromBits(b, loc, shuffled, t);
}

Value shuffleXor(OpBuilder &b, Location loc, Value v, unsigned laneMask) {
  return shuffleScalar(b, loc, v, [&](Value x) {
    return shfl32(b, loc, x, NVVM::ShflKind::bfly,
                  [&] { return i32Const(b, loc, laneMask); });
  });
}

Value shuffleIdx(OpBuilder &b, Location loc, Value v, Value srcLane) {
  return shuffleScalar(b, loc, v, [&](Value x) {
    return shfl32(b, loc, x, NVVM::ShflKind::idx, [&] { return srcLane; });
  });
}

} // namespace kiln::lowering

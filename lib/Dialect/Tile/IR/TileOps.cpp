//===- TileOps.cpp - tile dialect verifiers and folders -------------------===//
#include "kiln/Dialect/Tile/IR/Tile.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace kiln::tile;

namespace {
/// Shape of a tensor type; empty for scalars.
ArrayRef<int64_t> shapeOf(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return tensor.getShape();
  return {};
}

std::string shapeString(ArrayRef<int64_t> shape) {
  std::string s = "[";
  llvm::raw_string_ostream os(s);
  llvm::interleaveComma(shape, os);
  os << "]";
  return s;
}

LogicalResult verifyGridAxis(Operation *op, int32_t axis) {
  if (axis < 0 || axis > 2)
    return op->emitOpError() << "axis must be 0, 1 or 2, got " << axis;
  return success();
}

bool isZeroConstant(Attribute attr) {
  if (!attr)
    return false;
  if (auto i = dyn_cast<IntegerAttr>(attr))
    return i.getValue().isZero();
  if (auto dense = dyn_cast<SplatElementsAttr>(attr))
    if (auto i = dyn_cast<IntegerAttr>(dense.getSplatValue<Attribute>()))
      return i.getValue().isZero();
  return false;
}
} // namespace

LogicalResult ProgramIdOp::verify() { return verifyGridAxis(*this, getAxis()); }
LogicalResult NumProgramsOp::verify() { return verifyGridAxis(*this, getAxis()); }

LogicalResult ArangeOp::verify() {
  int64_t start = getStart(), end = getEnd();
  int64_t length = end - start;
  if (length <= 0)
    return emitOpError() << "range length must be positive, got start " << start
                         << " and end " << end;
  if (!llvm::isPowerOf2_64(length))
    return emitOpError() << "range length " << length
                         << " is not a power of two";
  auto type = getType();
  if (type.getRank() != 1 || type.getDimSize(0) != length)
    return emitOpError() << "result must be a 1-D tensor of " << length
                         << " elements, got " << type;
  return success();
}

LogicalResult SplatOp::verify() {
  Type elem = cast<RankedTensorType>(getType()).getElementType();
  if (elem != getSrc().getType())
    return emitOpError() << "result element type " << elem
                         << " does not match operand type "
                         << getSrc().getType();
  return success();
}

OpFoldResult SplatOp::fold(FoldAdaptor adaptor) {
  Attribute value = adaptor.getSrc();
  if (value && (isa<IntegerAttr>(value) || isa<FloatAttr>(value)))
    return SplatElementsAttr::get(cast<ShapedType>(getType()), value);
  return {};
}

LogicalResult BroadcastOp::verify() {
  auto src = cast<RankedTensorType>(getSrc().getType());
  auto dst = cast<RankedTensorType>(getType());
  if (src.getElementType() != dst.getElementType())
    return emitOpError() << "element type " << dst.getElementType()
                         << " of the result does not match operand element type "
                         << src.getElementType();
  if (src.getRank() != dst.getRank())
    return emitOpError() << "operand rank " << src.getRank()
                         << " does not match result rank " << dst.getRank();
  for (auto [dim, pair] : llvm::enumerate(llvm::zip(src.getShape(), dst.getShape()))) {
    auto [from, to] = pair;
    if (from != to && from != 1)
      return emitOpError() << "dimension " << dim << " of size " << from
                           << " cannot be broadcast to size " << to;
  }
  return success();
}

OpFoldResult WhereOp::fold(FoldAdaptor adaptor) {
  Attribute cond = adaptor.getCondition();
  if (auto splat = dyn_cast_or_null<SplatElementsAttr>(cond))
    cond = splat.getSplatValue<Attribute>();
  if (auto b = dyn_cast_or_null<IntegerAttr>(cond))
    return b.getValue().isZero() ? getFalseValue() : getTrueValue();
  if (getTrueValue() == getFalseValue())
    return getTrueValue();
  return {};
}

OpFoldResult BroadcastOp::fold(FoldAdaptor adaptor) {
  if (getSrc().getType() == getType())
    return getSrc();
  if (auto splat = dyn_cast_or_null<SplatElementsAttr>(adaptor.getSrc()))
    return SplatElementsAttr::get(cast<ShapedType>(getType()),
                                  splat.getSplatValue<Attribute>());
  return {};
}

LogicalResult ExpandDimsOp::verify() {
  auto src = cast<RankedTensorType>(getSrc().getType());
  auto dst = cast<RankedTensorType>(getType());
  int64_t axis = getAxis();
  if (axis < 0 || axis > src.getRank())
    return emitOpError() << "axis " << axis
                         << " out of range for inserting into a rank-"
                         << src.getRank() << " tensor";
  SmallVector<int64_t> expected(src.getShape());
  expected.insert(expected.begin() + axis, 1);
  if (dst.getShape() != ArrayRef<int64_t>(expected))
    return emitOpError() << "expected result shape " << shapeString(expected)
                         << ", got " << shapeString(dst.getShape());
  if (src.getElementType() != dst.getElementType())
    return emitOpError() << "element type must be preserved, got "
                         << src.getElementType() << " and "
                         << dst.getElementType();
  return success();
}

LogicalResult ConvertLayoutOp::verify() {
  auto src = cast<RankedTensorType>(getSrc().getType());
  auto dst = cast<RankedTensorType>(getType());
  if (src.getShape() != dst.getShape() ||
      src.getElementType() != dst.getElementType())
    return emitOpError() << "must preserve shape and element type, got " << src
                         << " and " << dst;
  return success();
}

OpFoldResult ConvertLayoutOp::fold(FoldAdaptor) {
  if (getSrc().getType() == getType())
    return getSrc();
  return {};
}

LogicalResult AddPtrOp::verify() {
  if (shapeOf(getPtr().getType()) != shapeOf(getOffset().getType()) ||
      isa<RankedTensorType>(getPtr().getType()) !=
          isa<RankedTensorType>(getOffset().getType()))
    return emitOpError()
           << "pointer and offset must both be scalars or tensors of the same "
              "shape, got "
           << getPtr().getType() << " and " << getOffset().getType();
  return success();
}

OpFoldResult AddPtrOp::fold(FoldAdaptor adaptor) {
  if (isZeroConstant(adaptor.getOffset()))
    return getPtr();
  return {};
}

LogicalResult PtrCastOp::verify() {
  Type from = getElementTypeOrSelf(getSrc().getType());
  Type to = getElementTypeOrSelf(getResult().getType());
  bool fromPtr = isa<PtrType>(from), toPtr = isa<PtrType>(to);
  if (!fromPtr && !toPtr)
    return emitOpError() << "casts to or from a pointer, got " << from
                         << " -> " << to;
  for (Type t : {from, to})
    if (!isa<PtrType>(t) && !t.isInteger(64))
      return emitOpError() << "the integer side must be i64, got " << t;
  if (isa<RankedTensorType>(getSrc().getType()) !=
      isa<RankedTensorType>(getResult().getType()))
    return emitOpError() << "source and result must both be scalars or "
                            "tensors of one shape";
  return success();
}

/// `cache` and `evict` of a load or store: empty or one of the allowed words.
static LogicalResult verifyCacheHints(Operation *op, StringRef cache,
                                      ArrayRef<StringRef> caches, StringRef evict) {
  if (!cache.empty() && !llvm::is_contained(caches, cache))
    return op->emitOpError() << "unknown cache modifier `" << cache
                             << "` (expected " << llvm::join(caches, ", ") << ")";
  if (!evict.empty() && evict != "evict_first" && evict != "evict_last")
    return op->emitOpError() << "unknown eviction policy `" << evict
                             << "` (expected evict_first or evict_last)";
  return success();
}

void LoadOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>> &effects) {
  effects.emplace_back(MemoryEffects::Read::get());
  // Reading a flag another program writes: never dead, never hoisted or
  // merged with another read.
  if (getIsVolatile())
    effects.emplace_back(MemoryEffects::Write::get());
}

/// The descriptor-block operands of a load or store (`access`, whose
/// `block` is the loaded or stored tensor, named `tensor` in errors): `coords` together with either
/// `descArg` or a 2-D `desc` of base, shapes and row stride.
static LogicalResult verifyDescriptorBlock(Operation *access, Type block, bool hostDesc,
                                           ValueRange desc, ValueRange coords, StringRef what,
                                           StringRef tensor) {
  bool deviceDesc = !desc.empty();
  if (hostDesc && deviceDesc)
    return access->emitOpError() << "has both `descArg` and `desc`";
  if ((hostDesc || deviceDesc) != !coords.empty())
    return access->emitOpError() << "`coords` go together with `descArg` or `desc` (a "
                                    "descriptor block's " << what << ")";
  auto type = dyn_cast<RankedTensorType>(block);
  if (deviceDesc) {
    // base, 2 shapes, 1 row stride: a 2-D descriptor made in the kernel.
    SmallVector<Type> types(desc.getTypes());
    if (types.size() != 4 || !isa<PtrType>(types[0]) || !types[1].isInteger(32) ||
        !types[2].isInteger(32) || !types[3].isInteger(64))
      return access->emitOpError()
             << "`desc` must be a base pointer, two i32 shapes and an i64 stride";
    if (!type || cast<PtrType>(types[0]).getPointeeType() != type.getElementType())
      return access->emitOpError() << "`desc` base must point to the " << tensor
                                   << "'s element type";
  }
  // One coordinate per dimension of the block; a host descriptor's block of
  // rank 3 to 5 may drop unit dimensions (a squeezed load: `[1, BM, BK]` as
  // BM x BK), keeping a coordinate for each.
  bool squeezed = hostDesc && type && int64_t(coords.size()) > type.getRank() &&
                  coords.size() <= 5;
  if (!coords.empty() && (!type || (type.getRank() != int64_t(coords.size()) && !squeezed)))
    return access->emitOpError() << "has " << coords.size() << " coords; the " << tensor
                                 << " must be a tensor of that rank";
  return success();
}

LogicalResult LoadOp::verify() {
  if (getOther() && !getMask())
    return emitOpError() << "`other` given without `mask`";
  if (getDescNan() && getDesc().empty())
    return emitOpError() << "`descNan` without `desc`";
  if (failed(verifyDescriptorBlock(*this, getType(), getDescArg().has_value(), getDesc(),
                                   getCoords(), "load", "result")))
    return failure();
  // Mask and pointee types are checked by the op's type constraints.
  return verifyCacheHints(*this, getCache(), {".ca", ".cg", ".cv"}, getEvict());
}

LogicalResult StoreOp::verify() {
  if (failed(verifyDescriptorBlock(*this, getValue().getType(), getDescArg().has_value(),
                                   getDesc(), getCoords(), "store", "value")))
    return failure();
  return verifyCacheHints(*this, getCache(), {".wb", ".cg", ".cs", ".wt"}, getEvict());
}

/// `sem` and `scope` of an atomic: Triton's (and PTX's) names.
static LogicalResult verifyOrdering(Operation *op, StringRef sem, StringRef scope) {
  if (!llvm::is_contained({"relaxed", "acquire", "release", "acq_rel"}, sem))
    return op->emitOpError() << "sem must be relaxed, acquire, release or acq_rel, got \""
                             << sem << "\"";
  if (!llvm::is_contained({"cta", "gpu", "sys"}, scope))
    return op->emitOpError() << "scope must be cta, gpu or sys, got \"" << scope << "\"";
  return success();
}

LogicalResult AtomicCASOp::verify() {
  if (failed(verifyOrdering(*this, getSem(), getScope())))
    return failure();
  Type elem = getElementTypeOrSelf(getResult().getType());
  unsigned bits = elem.getIntOrFloatBitWidth();
  // PTX's atom.cas takes .b16 (sm_70+), .b32 and .b64, as Triton's does.
  if (bits != 16 && bits != 32 && bits != 64)
    return emitOpError() << "atomic_cas needs a 16-, 32- or 64-bit element type, got "
                         << elem;
  return success();
}

unsigned AtomicRMWOp::getMaxVectorElements(unsigned computeCapability) {
  // PTX ISA 8.1 on sm_90: `atom.add.v2/.v4.f32` and `atom.add.noftz.v2-.v8`
  // of f16/bf16; every other atomic updates one element per instruction.
  Type elem = getElementTypeOrSelf(getResult().getType());
  if (computeCapability < 90 || getKind() != RMWKind::add ||
      !isa<RankedTensorType>(getPtr().getType()))
    return 1;
  if (elem.isF32())
    return 4;
  if (elem.isF16() || elem.isBF16())
    return 8;
  return 1;
}

LogicalResult AtomicRMWOp::verify() {
  if (failed(verifyOrdering(*this, getSem(), getScope())))
    return failure();
  Type elem = getElementTypeOrSelf(getResult().getType());
  bool isInt = isa<IntegerType>(elem);
  unsigned bits = elem.getIntOrFloatBitWidth();
  switch (getKind()) {
  case RMWKind::max:
  case RMWKind::min:
    if (!isInt && (elem.isF32() || elem.isF64()))
      break;
    [[fallthrough]];
  case RMWKind::and_:
  case RMWKind::or_:
  case RMWKind::xor_:
  case RMWKind::umax:
  case RMWKind::umin:
    if (!isInt || (bits != 32 && bits != 64))
      return emitOpError() << "atomic " << stringifyRMWKind(getKind())
                           << " needs a 32- or 64-bit integer element type, got "
                           << elem;
    break;
  case RMWKind::xchg:
    if (bits != 32 && bits != 64)
      return emitOpError() << "atomic xchg needs a 32- or 64-bit element type, got "
                           << elem;
    break;
  case RMWKind::add:
    if (isInt ? (bits != 32 && bits != 64) : (bits < 16))
      return emitOpError() << "atomic add does not support element type " << elem;
    break;
  }
  return success();
}

namespace {
template <typename ReduceOp>
LogicalResult verifyReduction(ReduceOp op) {
  auto src = cast<RankedTensorType>(op.getSrc().getType());
  int64_t axis = op.getAxis();
  if (axis < 0 || axis >= src.getRank())
    return op.emitOpError() << "axis " << axis << " out of range for a rank-"
                            << src.getRank() << " tensor";
  Type result = op.getType();
  if (src.getRank() == 1) {
    if (result != src.getElementType())
      return op.emitOpError() << "reducing a 1-D tensor yields a scalar of type "
                              << src.getElementType() << ", got " << result;
    return success();
  }
  SmallVector<int64_t> expected(src.getShape());
  expected.erase(expected.begin() + axis);
  auto tensor = dyn_cast<RankedTensorType>(result);
  if (!tensor || tensor.getShape() != ArrayRef<int64_t>(expected) ||
      tensor.getElementType() != src.getElementType())
    return op.emitOpError() << "expected a result of shape "
                            << shapeString(expected) << " and element type "
                            << src.getElementType() << ", got " << result;
  return success();
}
} // namespace

LogicalResult SumOp::verify() { return verifyReduction(*this); }
LogicalResult MaxOp::verify() { return verifyReduction(*this); }
LogicalResult MinOp::verify() { return verifyReduction(*this); }

namespace {
/// Checks what tile.reduce and tile.scan share: operands of one shape, the
/// axis, and a combiner block of 2N scalars yielding N scalars of the
/// operands' element types.
LogicalResult verifyCombinerOp(Operation *op, OperandRange srcs, int64_t axis,
                               Region &combiner) {
  if (srcs.empty())
    return op->emitOpError() << "needs at least one operand";
  auto first = cast<RankedTensorType>(srcs[0].getType());
  for (auto [i, v] : llvm::enumerate(srcs)) {
    auto type = cast<RankedTensorType>(v.getType());
    if (type.getShape() != first.getShape())
      return op->emitOpError() << "operand " << i << " has shape "
                               << shapeString(type.getShape())
                               << " but operand 0 has shape "
                               << shapeString(first.getShape());
  }
  if (axis < 0 || axis >= first.getRank())
    return op->emitOpError() << "axis " << axis << " out of range for a rank-"
                             << first.getRank() << " tensor";
  size_t n = srcs.size();
  Block &block = combiner.front();
  if (block.getNumArguments() != 2 * n)
    return op->emitOpError() << "combiner must take " << 2 * n
                             << " arguments (two per operand), got "
                             << block.getNumArguments();
  for (unsigned i = 0; i < 2 * n; ++i) {
    Type expected = cast<RankedTensorType>(srcs[i % n].getType()).getElementType();
    if (block.getArgument(i).getType() != expected)
      return op->emitOpError() << "combiner argument " << i << " must be "
                               << expected << ", got "
                               << block.getArgument(i).getType();
  }
  auto yield = dyn_cast<YieldOp>(block.getTerminator());
  if (!yield)
    return op->emitOpError() << "combiner must end with tile.yield";
  if (yield.getValues().size() != n)
    return op->emitOpError() << "combiner must yield " << n
                             << " value(s), one per operand, got "
                             << yield.getValues().size();
  for (auto [i, v] : llvm::enumerate(yield.getValues())) {
    Type expected = cast<RankedTensorType>(srcs[i].getType()).getElementType();
    if (v.getType() != expected)
      return op->emitOpError() << "combiner result " << i << " must be "
                               << expected << ", got " << v.getType();
  }
  return success();
}
} // namespace

LogicalResult ReduceOp::verifyRegions() {
  if (failed(verifyCombinerOp(*this, getSrcs(), int32_t(getAxis()), getCombiner())))
    return failure();
  if (getResults().size() != getSrcs().size())
    return emitOpError() << "expected " << getSrcs().size()
                         << " result(s), one per operand, got "
                         << getResults().size();
  int64_t axis = int32_t(getAxis());
  for (auto [i, pair] : llvm::enumerate(llvm::zip(getSrcs(), getResults()))) {
    auto src = cast<RankedTensorType>(std::get<0>(pair).getType());
    Type result = std::get<1>(pair).getType();
    if (src.getRank() == 1) {
      if (result != src.getElementType())
        return emitOpError() << "result " << i
                             << ": reducing a 1-D tensor yields a scalar of type "
                             << src.getElementType() << ", got " << result;
      continue;
    }
    SmallVector<int64_t> expected(src.getShape());
    expected.erase(expected.begin() + axis);
    auto tensor = dyn_cast<RankedTensorType>(result);
    if (!tensor || tensor.getShape() != ArrayRef<int64_t>(expected) ||
        tensor.getElementType() != src.getElementType())
      return emitOpError() << "result " << i << ": expected shape "
                           << shapeString(expected) << " and element type "
                           << src.getElementType() << ", got " << result;
  }
  return success();
}

LogicalResult ScanOp::verifyRegions() {
  if (failed(verifyCombinerOp(*this, getSrcs(), int32_t(getAxis()), getCombiner())))
    return failure();
  if (getResults().size() != getSrcs().size())
    return emitOpError() << "expected " << getSrcs().size()
                         << " result(s), one per operand, got "
                         << getResults().size();
  for (auto [i, pair] : llvm::enumerate(llvm::zip(getSrcs(), getResults()))) {
    auto [src, result] = pair;
    if (src.getType() != result.getType())
      return emitOpError() << "result " << i << " must have the operand's type "
                           << src.getType() << ", got " << result.getType();
  }
  return success();
}

LogicalResult WhereOp::verify() {
  Type cond = getCondition().getType();
  if (isa<RankedTensorType>(cond) &&
      shapeOf(cond) != shapeOf(getResult().getType()))
    return emitOpError() << "condition shape " << shapeString(shapeOf(cond))
                         << " does not match result shape "
                         << shapeString(shapeOf(getResult().getType()));
  if (isa<RankedTensorType>(cond) && !isa<RankedTensorType>(getResult().getType()))
    return emitOpError() << "a tensor condition needs tensor values";
  return success();
}

namespace {
template <typename HintOp>
LogicalResult verifyHint(HintOp op) {
  size_t rank = std::max<size_t>(1, shapeOf(op.getSrc().getType()).size());
  ArrayRef<int32_t> values = op.getValues();
  if (values.size() != rank)
    return op.emitOpError() << "expected " << rank
                            << " value(s), one per dimension, got "
                            << values.size();
  for (int32_t v : values)
    if (v <= 0)
      return op.emitOpError() << "values must be positive, got " << v;
  return success();
}
} // namespace

LogicalResult MultipleOfOp::verify() { return verifyHint(*this); }
LogicalResult MaxContiguousOp::verify() { return verifyHint(*this); }
LogicalResult MaxConstancyOp::verify() { return verifyHint(*this); }

#define GET_OP_CLASSES
#include "kiln/Dialect/Tile/IR/TileOps.cpp.inc"

//===- TmaCopies.cpp - Which descriptor loads the pipeliner copies with TMA -===//
//
// See TmaCopies.h. The box of one copy is a slot panel (DotOperandToLLVM.cpp's
// SwizzledTile): all rows, at most 128 bytes of each, whose 16-byte chunk c
// of row r sits at c ^ ((r / perPhase) % maxPhase). That is the TMA unit's
// 128-, 64- or 32-byte swizzle of a panel whose rows are that many bytes
// (the swizzle XORs byte-address bits 4-6 with bits 7-9, which for rows of
// 128 bytes is the row modulo 8), provided the panel starts at a multiple of
// its period (8 rows); a wider block takes one copy per panel.
//
//===----------------------------------------------------------------------===//
#include "TmaCopies.h"
#include "SlotOperands.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMTypes.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Dominance.h"

using namespace mlir;

namespace kiln::tile {

namespace {
/// Bytes of one row of `load`'s block.
int64_t rowBytes(RankedTensorType type) {
  return type.getDimSize(1) * type.getElementType().getIntOrFloatBitWidth() / 8;
}

/// The kernel's global scratch argument, or null.
BlockArgument globalScratch(func::FuncOp func) {
  for (BlockArgument arg : func.getArguments())
    if (func.getArgAttr(arg.getArgNumber(), kGlobalScratchAttr))
      return arg;
  return BlockArgument();
}

/// Where a tensor map built from `fields` goes: right after the last of
/// them to be defined (each dominates the loads' loop, so each lies in a
/// block around it, and the last is after the others).
OpBuilder::InsertPoint afterFields(ValueRange fields, DominanceInfo &dom) {
  for (Value v : fields) {
    Block *block;
    Block::iterator at;
    if (Operation *def = v.getDefiningOp()) {
      block = def->getBlock();
      at = std::next(def->getIterator());
    } else {
      block = cast<BlockArgument>(v).getOwner();
      at = block->begin();
    }
    Operation *next = at == block->end() ? nullptr : &*at;
    if (next && llvm::all_of(fields, [&](Value w) { return dom.properlyDominates(w, next); }))
      return OpBuilder::InsertPoint(block, at);
  }
  return OpBuilder::InsertPoint();
}

/// The tensor map of `block`'s descriptor made in the kernel, for copies of
/// `box` with `swizzle`: one built in the kernel's global scratch
/// (tile.tensormap_create) where the descriptor's last field is defined,
/// shared by every access of that descriptor with that box.
Value deviceTensorMap(const DescriptorBlock &block, func::FuncOp func, ArrayRef<int64_t> box,
                      int64_t swizzle) {
  MLIRContext *ctx = func.getContext();
  Builder attrs(ctx);
  ValueRange fields = block.desc;
  bool nanFill = block.nanFill;
  TensormapCreateOp found;
  func.walk([&](TensormapCreateOp op) {
    if (!found && op.getBase() == fields[0] && op.getRows() == fields[1] &&
        op.getCols() == fields[2] && op.getStride() == fields[3] && op.getBox() == box &&
        op.getSwizzleAttr().getInt() == swizzle && op.getNanFill() == nanFill)
      found = op;
  });
  DominanceInfo dom(func);
  if (found && dom.properlyDominates(found.getResult(), block.access))
    return found.getResult();
  OpBuilder::InsertPoint at = afterFields(fields, dom);
  if (!at.isSet())
    return Value();
  BlockArgument scratch = globalScratch(func);
  if (!scratch) {
    unsigned index = func.getNumArguments();
    SmallVector<NamedAttribute> named{
        attrs.getNamedAttr(kGlobalScratchAttr, attrs.getI64IntegerAttr(0)),
        attrs.getNamedAttr("tile.name", attrs.getStringAttr("global_scratch"))};
    if (failed(func.insertArgument(index, LLVM::LLVMPointerType::get(ctx),
                                   attrs.getDictionaryAttr(named), func.getLoc())))
      return Value();
    scratch = func.getArgument(index);
  }
  // 128 bytes more of each program's scratch.
  auto perProgram = func.getArgAttrOfType<IntegerAttr>(scratch.getArgNumber(), kGlobalScratchAttr);
  int64_t offset = perProgram.getInt();
  func.setArgAttr(scratch.getArgNumber(), kGlobalScratchAttr,
                  attrs.getI64IntegerAttr(offset + 128));
  OpBuilder b(ctx);
  b.restoreInsertionPoint(at);
  auto create = TensormapCreateOp::create(
      b, block.access->getLoc(), LLVM::LLVMPointerType::get(ctx), scratch, fields[0], fields[1], fields[2],
      fields[3], attrs.getI64IntegerAttr(offset), attrs.getDenseI64ArrayAttr(box),
      attrs.getI64IntegerAttr(swizzle), nanFill ? attrs.getUnitAttr() : UnitAttr());
  return create.getResult();
}
} // namespace

/// Whether `load` is of a descriptor made in the kernel whose fields are
/// all defined before the loop around the load: its tensor map is built
/// once, outside the loop (tensorMapFor).
static bool deviceDescriptorBeforeLoop(LoadOp load) {
  if (load.getDesc().empty())
    return false;
  auto loop = load->getParentOfType<scf::ForOp>();
  return loop && llvm::all_of(load.getDesc(), [&](Value v) {
           return loop.isDefinedOutsideOfLoop(v);
         });
}

bool targetHasTma(Operation *op) {
  std::optional<unsigned> cc = getTargetComputeCapability(op);
  if (!cc || *cc < 90)
    return false;
  auto module = op->getParentOfType<ModuleOp>();
  return !module || !module->hasAttr(kNoTmaAttr);
}

bool isTmaBlock(Type block) {
  auto type = dyn_cast<RankedTensorType>(block);
  if (!type || type.getRank() != 2)
    return false;
  Type elem = type.getElementType();
  if (!elem.isF16() && !elem.isBF16() && !elem.isF32() && !elem.isInteger(8) &&
      !isa<Float8E4M3FNType, Float8E5M2Type>(elem))
    return false;
  int64_t rows = type.getDimSize(0), bytes = rowBytes(type);
  return rows % 8 == 0 && rows <= 256 && bytes % 16 == 0 &&
         (bytes <= 128 || bytes % 128 == 0);
}

/// The block shape of the host descriptor whose base is argument `descArg`
/// of `func` (the frontend's `tile.descriptor`), or empty.
static ArrayRef<int64_t> hostBlockShape(func::FuncOp func, int64_t descArg) {
  if (!func || descArg < 0 || descArg >= int64_t(func.getNumArguments()))
    return {};
  auto block = func.getArgAttrOfType<DenseI64ArrayAttr>(descArg, "tile.descriptor");
  return block ? block.asArrayRef() : ArrayRef<int64_t>();
}

/// A host descriptor's block of rank 3 to 5 whose unit dimensions an access
/// dropped (`desc.load([b, m, k])` of a `[1, BM, BK]` block, or a store of
/// such a block's squeezed value): the access's rows and columns are the
/// block's two other dimensions, the last among them, so that the TMA box
/// of the whole block lays the slot out as the 2-D one.
static bool isSqueezedHostBlock(const DescriptorBlock &access) {
  ArrayRef<int64_t> block = hostBlockShape(access.access->getParentOfType<func::FuncOp>(),
                                           access.descArg.value_or(-1));
  RankedTensorType type = access.type;
  if (block.size() < 3 || block.size() > 5 || access.coords.size() != block.size() ||
      type.getRank() != 2 || block.back() != type.getDimSize(1))
    return false;
  SmallVector<int64_t> kept;
  for (int64_t d : block)
    if (d != 1)
      kept.push_back(d);
  return kept == ArrayRef<int64_t>(type.getShape());
}

bool hasTmaCoords(const DescriptorBlock &access) {
  return access.coords.size() == 2 || isSqueezedHostBlock(access);
}

bool isTmaCandidate(LoadOp load) {
  bool described = load.getDescArg() || deviceDescriptorBeforeLoop(load);
  if (!described || load.getIsVolatile())
    return false;
  if (!hasTmaCoords(DescriptorBlock::of(load)))
    return false;
  return targetHasTma(load) && isTmaBlock(load.getType());
}

bool copiedWithTma(LoadOp load) { return isTmaCandidate(load) && !isTransposedOperand(load); }

DescriptorBlock DescriptorBlock::of(LoadOp load) {
  return {load, cast<RankedTensorType>(load.getType()), load.getDescArg(), load.getDesc(),
          load.getCoords(), load.getDescNan()};
}

DescriptorBlock DescriptorBlock::of(StoreOp store) {
  return {store, cast<RankedTensorType>(store.getValue().getType()), store.getDescArg(),
          store.getDesc(), store.getCoords(), false};
}

Value tensorMapFor(LoadOp load) { return tensorMapFor(DescriptorBlock::of(load)); }

Value tensorMapFor(const DescriptorBlock &block) {
  auto func = block.access->getParentOfType<func::FuncOp>();
  if (!func)
    return Value();
  MLIRContext *ctx = func.getContext();
  RankedTensorType type = block.type;
  int64_t panelBytes = std::min<int64_t>(rowBytes(type), 128);
  int64_t elemBits = type.getElementType().getIntOrFloatBitWidth();
  SmallVector<int64_t> box{type.getDimSize(0), panelBytes * 8 / elemBits};
  int64_t swizzle = panelBytes >= 32 ? panelBytes : 0;
  if (!block.descArg)
    return deviceTensorMap(block, func, box, swizzle);
  int64_t desc = *block.descArg;
  // A squeezed block of a higher-rank descriptor: the box is the block, its
  // last dimension cut to the panel (the unit dimensions add no bytes).
  if (ArrayRef<int64_t> shape = hostBlockShape(func, desc); shape.size() > 2) {
    box.assign(shape.begin(), shape.end());
    box.back() = panelBytes * 8 / elemBits;
  }
  for (BlockArgument arg : func.getArguments()) {
    auto of = func.getArgAttrOfType<IntegerAttr>(arg.getArgNumber(), "tile.tensormap");
    if (!of || of.getInt() != desc)
      continue;
    auto known = func.getArgAttrOfType<DenseI64ArrayAttr>(arg.getArgNumber(), "tile.tma_box");
    return known && known.asArrayRef() == ArrayRef<int64_t>(box) ? Value(arg) : Value();
  }
  Builder b(ctx);
  SmallVector<NamedAttribute> attrs{
      b.getNamedAttr("tile.tensormap", b.getI64IntegerAttr(desc)),
      b.getNamedAttr("tile.tma_box", b.getDenseI64ArrayAttr(box)),
      b.getNamedAttr("tile.tma_swizzle", b.getI64IntegerAttr(swizzle))};
  if (auto name = func.getArgAttrOfType<StringAttr>(desc, "tile.name"))
    attrs.push_back(b.getNamedAttr("tile.name", b.getStringAttr(name.str() + ".tensormap")));
  // Tensor maps come right after the parameters; the scratch, if any, last.
  unsigned index = func.getNumArguments();
  if (BlockArgument scratch = globalScratch(func))
    index = scratch.getArgNumber();
  if (failed(func.insertArgument(index, LLVM::LLVMPointerType::get(ctx),
                                 b.getDictionaryAttr(attrs), func.getLoc())))
    return Value();
  return func.getArgument(index);
}

} // namespace kiln::tile

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
#include "mlir/IR/BuiltinOps.h"

using namespace mlir;

namespace kiln::tile {

namespace {
/// Bytes of one row of `load`'s block.
int64_t rowBytes(RankedTensorType type) {
  return type.getDimSize(1) * type.getElementType().getIntOrFloatBitWidth() / 8;
}
} // namespace

bool isTmaCandidate(LoadOp load) {
  if (!load.getDescArg() || load.getCoords().size() != 2 || load.getIsVolatile())
    return false;
  std::optional<unsigned> cc = getTargetComputeCapability(load);
  if (!cc || *cc < 90)
    return false;
  auto module = load->getParentOfType<ModuleOp>();
  if (module && module->hasAttr(kNoTmaAttr))
    return false;
  auto type = dyn_cast<RankedTensorType>(load.getType());
  if (!type || type.getRank() != 2)
    return false;
  Type elem = type.getElementType();
  if (!elem.isF16() && !elem.isBF16() && !elem.isF32() &&
      !isa<Float8E4M3FNType, Float8E5M2Type>(elem))
    return false;
  int64_t rows = type.getDimSize(0), bytes = rowBytes(type);
  return rows % 8 == 0 && rows <= 256 && bytes % 16 == 0 &&
         (bytes <= 128 || bytes % 128 == 0);
}

bool copiedWithTma(LoadOp load) { return isTmaCandidate(load) && !isTransposedOperand(load); }

Value tensorMapFor(LoadOp load) {
  auto func = load->getParentOfType<func::FuncOp>();
  if (!func)
    return Value();
  MLIRContext *ctx = load.getContext();
  auto type = cast<RankedTensorType>(load.getType());
  int64_t panelBytes = std::min<int64_t>(rowBytes(type), 128);
  int64_t elemBits = type.getElementType().getIntOrFloatBitWidth();
  SmallVector<int64_t> box{type.getDimSize(0), panelBytes * 8 / elemBits};
  int64_t swizzle = panelBytes >= 32 ? panelBytes : 0;
  int64_t desc = *load.getDescArg();
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
  unsigned index = func.getNumArguments();
  if (failed(func.insertArgument(index, LLVM::LLVMPointerType::get(ctx),
                                 b.getDictionaryAttr(attrs), func.getLoc())))
    return Value();
  return func.getArgument(index);
}

} // namespace kiln::tile

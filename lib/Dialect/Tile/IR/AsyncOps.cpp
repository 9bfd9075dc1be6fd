//===- AsyncOps.cpp - !tile.smem and the shared-memory / async-copy ops ---===//
#include "kiln/Dialect/Tile/IR/Tile.h"
#include "kiln/Dialect/Tile/IR/BufferLife.h"

#include "mlir/IR/DialectImplementation.h"

using namespace mlir;
using namespace kiln::tile;

Type SharedMemoryType::parse(AsmParser &parser) {
  SmallVector<int64_t> shape;
  Type elem;
  bool transposed = false, barriers = false;
  if (parser.parseLess() ||
      parser.parseDimensionList(shape, /*allowDynamic=*/false, /*withTrailingX=*/true) ||
      parser.parseType(elem))
    return {};
  // `, transposed` and `, barriers`, in that order, each optional.
  while (succeeded(parser.parseOptionalComma())) {
    if (!transposed && !barriers && succeeded(parser.parseOptionalKeyword("transposed")))
      transposed = true;
    else if (!barriers && succeeded(parser.parseOptionalKeyword("barriers")))
      barriers = true;
    else
      return parser.emitError(parser.getCurrentLocation(),
                              "expected `transposed` or `barriers`"),
             Type();
  }
  if (parser.parseGreater())
    return {};
  return parser.getChecked<SharedMemoryType>(parser.getContext(), ArrayRef<int64_t>(shape),
                                             elem, transposed, barriers);
}

void SharedMemoryType::print(AsmPrinter &printer) const {
  printer << "<";
  for (int64_t d : getShape())
    printer << d << "x";
  printer << getElementType();
  if (getTransposed())
    printer << ", transposed";
  if (getBarriers())
    printer << ", barriers";
  printer << ">";
}

LogicalResult SharedMemoryType::verify(function_ref<InFlightDiagnostic()> emitError,
                                       ArrayRef<int64_t> shape, Type elementType,
                                       bool transposed, bool barriers) {
  if (shape.size() != 3)
    return emitError() << "!tile.smem needs 3 dimensions (slots x rows x columns), got "
                       << shape.size();
  for (int64_t d : shape)
    if (d < 1)
      return emitError() << "!tile.smem dimensions must be positive, got " << d;
  if (!elementType.isF16() && !elementType.isBF16() && !elementType.isF32() &&
      !elementType.isInteger(8) && !isa<Float8E4M3FNType, Float8E5M2Type>(elementType))
    return emitError() << "!tile.smem holds f16, bf16, f32, fp8 or i8 (its swizzle is for "
                          "16-bit units), got "
                       << elementType;
  int64_t perChunk = 128 / elementType.getIntOrFloatBitWidth();
  int64_t stored = shape[transposed ? 1 : 2];
  if (stored % perChunk)
    return emitError() << "!tile.smem " << (transposed ? "columns (transposed)" : "rows")
                       << " must be whole 16-byte chunks (a multiple of " << perChunk
                       << " elements), got " << stored;
  return success();
}

int64_t SharedMemoryType::getSlotBytes() const {
  int64_t n = getElementType().getIntOrFloatBitWidth() / 8;
  for (int64_t d : getSlotShape())
    n *= d;
  return n;
}

namespace {
/// `tensor` (of `what`) has the slot shape of `buffer`.
LogicalResult checkSlotShape(Operation *op, RankedTensorType tensor, SharedMemoryType buffer,
                             StringRef what) {
  // A 1-D tile is the one row of a 1 x N slot.
  SmallVector<int64_t> shape(tensor.getShape());
  if (shape.size() == 1)
    shape.insert(shape.begin(), 1);
  if (ArrayRef<int64_t>(shape) != buffer.getSlotShape()) {
    InFlightDiagnostic diag = op->emitOpError()
                              << what << " shape [" << tensor.getShape()
                              << "] differs from the slot shape [" << buffer.getSlotShape()
                              << "] of " << buffer;
    if (tensor.getRank() == 1)
      diag << " (a 1-D tile of N fills a 1 x N slot)";
    return diag;
  }
  return success();
}
} // namespace

LogicalResult AsyncCopyOp::verify() {
  auto ptrs = cast<RankedTensorType>(getPtr().getType());
  SharedMemoryType buffer = getBuffer().getType();
  if (failed(checkSlotShape(*this, ptrs, buffer, "pointer tensor")))
    return failure();
  if (cast<RankedTensorType>(getPointeeType(ptrs)).getElementType() !=
      buffer.getElementType())
    return emitOpError() << "copies " << getPointeeType(ptrs) << " into "
                         << buffer << ": the element types differ";
  if (Value mask = getMask())
    if (cast<RankedTensorType>(mask.getType()).getShape() != ptrs.getShape())
      return emitOpError() << "mask shape differs from the pointer tensor's";
  return success();
}

LogicalResult LocalStoreOp::verify() {
  auto value = cast<RankedTensorType>(getValue().getType());
  SharedMemoryType buffer = getBuffer().getType();
  if (failed(checkSlotShape(*this, value, buffer, "value")))
    return failure();
  if (value.getElementType() != buffer.getElementType())
    return emitOpError() << "writes " << value.getElementType() << " into " << buffer;
  return success();
}

LogicalResult LocalLoadOp::verify() {
  auto result = cast<RankedTensorType>(getType());
  SharedMemoryType buffer = getBuffer().getType();
  if (failed(checkSlotShape(*this, result, buffer, "result")))
    return failure();
  if (result.getElementType() != buffer.getElementType())
    return emitOpError() << "reads " << result.getElementType() << " from " << buffer;
  return success();
}

namespace {
/// `buffer` carries the mbarriers a TMA op needs.
LogicalResult checkBarriers(Operation *op, SharedMemoryType buffer) {
  if (!buffer.getBarriers())
    return op->emitOpError() << "needs a buffer with mbarriers (`!tile.smem<..., barriers>`), got "
                             << buffer;
  return success();
}
} // namespace

LogicalResult TmaCopyOp::verify() {
  SharedMemoryType buffer = getBuffer().getType();
  if (Value owner = getOwner()) {
    // The copy arrives on the owner's barrier of the same slot.
    auto ownerType = cast<SharedMemoryType>(owner.getType());
    if (failed(checkBarriers(*this, ownerType)))
      return failure();
    if (buffer.getBarriers())
      return emitOpError() << "arrives on another buffer's mbarriers, so its own buffer has "
                              "none, got "
                           << buffer;
    if (ownerType.getNumSlots() != buffer.getNumSlots())
      return emitOpError() << "arrives on a buffer of " << ownerType.getNumSlots()
                           << " slots, but fills one of " << buffer.getNumSlots();
  } else if (failed(checkBarriers(*this, buffer))) {
    return failure();
  }
  if (buffer.getTransposed())
    return emitOpError() << "copies rows as the tensor stores them: the buffer cannot be "
                            "transposed, got "
                         << buffer;
  // A 2-D block, or one of a higher-rank descriptor whose unit dimensions
  // the slot drops (the TMA unit takes up to 5).
  if (getCoords().size() < 2 || getCoords().size() > 5)
    return emitOpError() << "takes 2 to 5 coordinates (one per dimension of the "
                            "descriptor), got "
                         << getCoords().size();
  return success();
}

LogicalResult TensormapCreateOp::verify() {
  // A tensor map is 128 bytes, 64-byte aligned (the runtime's scratch is).
  // Read signed: the accessor's unsigned value would let -128 pass.
  if (int64_t offset = getOffsetAttr().getInt(); offset < 0 || offset % 128 != 0)
    return emitOpError() << "offset must be a non-negative multiple of 128 bytes, got "
                         << offset;
  ArrayRef<int64_t> box = getBox();
  // The TMA unit's limits: 1 to 256 elements per box dimension.
  if (box.size() != 2 || llvm::any_of(box, [](int64_t d) { return d < 1 || d > 256; }))
    return emitOpError() << "box must be 2 dimensions of 1 to 256 elements";
  if (int64_t swizzle = getSwizzleAttr().getInt(); !llvm::is_contained({0, 32, 64, 128}, swizzle))
    return emitOpError() << "swizzle must be 0, 32, 64 or 128 bytes, got " << swizzle;
  return success();
}

LogicalResult TmaWaitOp::verify() { return checkBarriers(*this, getBuffer().getType()); }
LogicalResult TmaInitOp::verify() {
  // mbarrier.init takes up to 2^20 - 1 arrivals.
  if (int64_t arrivals = getArrivalsAttr().getInt(); arrivals < 1 || arrivals >= (1 << 20))
    return emitOpError() << "arrivals must be 1 to 2^20 - 1, got " << arrivals;
  return checkBarriers(*this, getBuffer().getType());
}
LogicalResult TmaInvalOp::verify() { return checkBarriers(*this, getBuffer().getType()); }

LogicalResult TmaStoreOp::verify() {
  SharedMemoryType buffer = getBuffer().getType();
  if (buffer.getTransposed() || buffer.getBarriers())
    return emitOpError() << "stores a slot as the tensor stores its rows, from a buffer "
                            "neither transposed nor with mbarriers, got "
                         << buffer;
  if (getCoords().size() < 2 || getCoords().size() > 5)
    return emitOpError() << "takes 2 to 5 coordinates (a descriptor of that rank), got "
                         << getCoords().size();
  return success();
}

LogicalResult TmaStoreWaitOp::verify() {
  if (int64_t pending = getPendingAttr().getInt(); pending < 0)
    return emitOpError() << "pending must not be negative, got " << pending;
  return success();
}

SmallVector<Operation *> kiln::tile::getBufferUsers(LocalAllocOp alloc) {
  SmallVector<Operation *> users;
  for (Operation *user : alloc->getUsers()) {
    users.push_back(user);
    if (!isa<LocalLoadOp>(user))
      continue;
    for (Operation *reader : user->getUsers()) {
      users.push_back(reader);
      if (isa<TransOp>(reader))
        users.append(reader->getUsers().begin(), reader->getUsers().end());
    }
  }
  return users;
}

bool kiln::tile::isBufferLiveAt(LocalAllocOp alloc, Operation *op) {
  if (op->isProperAncestor(alloc))
    return true;
  Block *block = alloc->getBlock();
  Operation *at = block->findAncestorOpInBlock(*op);
  for (Operation *user : getBufferUsers(alloc)) {
    Operation *top = block->findAncestorOpInBlock(*user);
    if (!top)
      return true;
    if (at && (top == at || at->isBeforeInBlock(top)))
      return true;
  }
  return false;
}

kiln::tile::OpOrder kiln::tile::numberOps(Operation *root) {
  OpOrder order;
  root->walk<WalkOrder::PreOrder>([&](Operation *op) { order.index[op] = order.size++; });
  root->walk<WalkOrder::PostOrder>([&](Operation *op) {
    int64_t last = order.index[op];
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (Operation &inner : block)
          last = std::max(last, order.lastIndex.lookup(&inner));
    order.lastIndex[op] = last;
  });
  return order;
}

int64_t kiln::tile::bufferLifeEnd(LocalAllocOp alloc, const OpOrder &order) {
  int64_t end = order.index.lookup(alloc);
  for (Operation *user : getBufferUsers(alloc)) {
    Operation *top = alloc->getBlock()->findAncestorOpInBlock(*user);
    if (!top)
      return order.size;
    end = std::max(end, order.lastIndex.lookup(top));
    if (Operation *after = top->getNextNode(); after && isa<AsyncWaitOp>(after))
      end = std::max(end, order.index.lookup(after));
  }
  return end;
}

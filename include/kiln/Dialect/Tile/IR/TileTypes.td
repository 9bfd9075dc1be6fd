#ifndef KILN_TILE_TYPES
#define KILN_TILE_TYPES

include "kiln/Dialect/Tile/IR/TileDialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/BuiltinTypeInterfaces.td"

class Tile_Type<string name, string typeMnemonic> : TypeDef<Tile_Dialect, name> {
  let mnemonic = typeMnemonic;
}

def Tile_PtrType : Tile_Type<"Ptr", "ptr"> {
  let summary = "pointer to global memory holding elements of a scalar type";
  let description = [{
    `!tile.ptr<f16>` addresses global memory holding `f16` values. Pointer
    arithmetic (`tile.addptr`) is in units of elements.
  }];
  let parameters = (ins "::mlir::Type":$pointeeType);
  let assemblyFormat = "`<` $pointeeType `>`";
  let builders = [
    TypeBuilderWithInferredContext<(ins "::mlir::Type":$pointeeType), [{
      return $_get(pointeeType.getContext(), pointeeType);
    }]>
  ];
}

def Tile_Ptr : Type<CPred<"::llvm::isa<::kiln::tile::PtrType>($_self)">,
                    "tile pointer", "::kiln::tile::PtrType">;
def Tile_PtrTensor : RankedTensorOf<[Tile_Ptr]>;
def Tile_PtrLike : AnyTypeOf<[Tile_Ptr, Tile_PtrTensor], "pointer or tensor of pointers">;

def Tile_SharedMemoryType : Tile_Type<"SharedMemory", "smem"> {
  let summary = "multi-buffered tile in shared memory (software pipelining)";
  let description = [{
    `!tile.smem<3x128x32xf16>` is shared memory for 3 slots of a 128 x 32
    tile of 16-bit floats. Each slot is stored row-major along its last
    dimension in 16-byte chunks of 8 elements; chunk `c` of row `r` sits at
    chunk position `c ^ ((r / perPhase) % maxPhase)` with `perPhase =
    max(1, 128 / rowBytes)` and `maxPhase = min(chunks per row, 8 /
    perPhase)`: the swizzle under which ldmatrix reads the rows of one
    phase from distinct banks. Made by `tile.local_alloc`; the lowering
    places it after the scratch area of the kernel's dynamic shared memory.

    `!tile.smem<3x64x128xf16, transposed>` stores each 64 x 128 slot column
    by column instead (128 stored rows of 64 elements, the first dimension
    innermost, swizzled as above): the form a B operand loaded with K
    contiguous (K^T of attention) is copied in, 16 bytes at a time, and
    that ldmatrix (without .trans) and wgmma (K-major B) read; an A operand
    loaded with M contiguous is copied in the same way (K rows of M), read
    by ldmatrix.trans and by wgmma as M-major.

    `!tile.smem<3x1x32xf32>` holds a 1-D tile of 32 (a loop's per-K factors,
    started ahead like the dot's operands) as the one row of each slot.

    `!tile.smem<4x256x32xf32>` holds 32-bit floats, the operands of a tf32
    wgmma: each element is stored as two 16-bit units, so a row of 32
    floats is laid out and swizzled exactly as a row of 64 halves (128
    bytes). As dot operands such slots are read by wgmma only (A as M rows
    of K, B transposed, N rows of K: tf32 wgmma has no transposed operands);
    other f32 tiles of a pipelined loop are read back with ld.shared.

    `!tile.smem<3x128x128xf8E4M3FN>` (or `f8E5M2`) holds the 8-bit float
    operands of an fp8 wgmma: two elements per 16-bit unit, so a row of 128
    is laid out and swizzled as a row of 64 halves. Read by wgmma only, both
    K-major like tf32's. `!tile.smem<3x128x64xi8>` holds the operands of an
    int8 (s8) wgmma the same way.

    `!tile.smem<3x64x64xf16, barriers>` is filled by TMA copies
    (`tile.tma_copy`): it also has one 8-byte mbarrier per slot, which tells
    the readers when a slot's bytes have landed (the lowering places all
    mbarriers after the kernel's other shared memory). The TMA unit writes
    the slot's swizzled layout itself (its 128/64/32-byte swizzle is the one
    above, panel by panel).
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$shape, "::mlir::Type":$elementType,
                        DefaultValuedParameter<"bool", "false">:$transposed,
                        DefaultValuedParameter<"bool", "false">:$barriers);
  let builders = [
    TypeBuilder<(ins "::llvm::ArrayRef<int64_t>":$shape, "::mlir::Type":$elementType,
                     CArg<"bool", "false">:$transposed, CArg<"bool", "false">:$barriers), [{
      return $_get($_ctxt, shape, elementType, transposed, barriers);
    }]>
  ];
  let skipDefaultBuilders = 1;
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Slots (the leading dimension).
    int64_t getNumSlots() const { return getShape().front(); }
    /// The shape of one slot.
    ::llvm::ArrayRef<int64_t> getSlotShape() const { return getShape().drop_front(); }
    /// Bytes of one slot.
    int64_t getSlotBytes() const;
    /// Bytes of the slots.
    int64_t getSlotsBytes() const { return getNumSlots() * getSlotBytes(); }
    /// Bytes of the whole buffer: the slots and the mbarriers if any.
    int64_t getAllocBytes() const {
      return getSlotsBytes() + (getBarriers() ? 8 * getNumSlots() : 0);
    }
    /// Rows and row length of one slot as stored (columns and column length
    /// when transposed).
    int64_t getStoredRows() const { return getShape()[getTransposed() ? 2 : 1]; }
    int64_t getStoredRowLen() const { return getShape()[getTransposed() ? 1 : 2]; }
    /// Bits per element (8, 16 or 32) and 16-bit storage units per stored
    /// row: the swizzle works on 16-bit units (an f32 takes two, an fp8
    /// half of one).
    int64_t getElementBits() const { return getElementType().getIntOrFloatBitWidth(); }
    int64_t getStoredRowUnits() const { return getStoredRowLen() * getElementBits() / 16; }
  }];
}

def Tile_SharedMemory : Type<CPred<"::llvm::isa<::kiln::tile::SharedMemoryType>($_self)">,
                             "shared-memory tile", "::kiln::tile::SharedMemoryType">;

def Tile_Int : AnyTypeOf<[AnySignlessInteger]>;
def Tile_IntLike : AnyTypeOf<[AnySignlessInteger, RankedTensorOf<[AnySignlessInteger]>],
                             "integer or tensor of integers">;
def Tile_BoolLike : AnyTypeOf<[I1, RankedTensorOf<[I1]>], "i1 or tensor of i1">;
// What tl.multiple_of / tl.max_contiguous accept: integers, and pointers,
// whose divisibility is that of the address in bytes.
def Tile_IntOrPtrLike : AnyTypeOf<[Tile_IntLike, Tile_PtrLike],
    "integer or pointer (scalar or tensor)">;
def Tile_Scalar : AnyTypeOf<[AnySignlessInteger, AnyFloat, Tile_Ptr]>;
def Tile_Tensor : RankedTensorOf<[AnySignlessInteger, AnyFloat, Tile_Ptr]>;
def Tile_Value : AnyTypeOf<[Tile_Scalar, Tile_Tensor], "scalar or tensor">;
def Tile_NumericLike : AnyTypeOf<[AnySignlessInteger, AnyFloat,
    RankedTensorOf<[AnySignlessInteger, AnyFloat]>], "number or tensor of numbers">;

#endif // KILN_TILE_TYPES

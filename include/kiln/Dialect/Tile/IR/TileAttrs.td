#ifndef KILN_TILE_ATTRS
#define KILN_TILE_ATTRS

include "kiln/Dialect/Tile/IR/TileDialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"

class Tile_Attr<string name, string attrMnemonic> : AttrDef<Tile_Dialect, name> {
  let mnemonic = attrMnemonic;
}

def Tile_BlockedLayoutAttr : Tile_Attr<"BlockedLayout", "blocked"> {
  let summary = "distribution of a tensor over the threads of a CTA";
  let description = [{
    Element (i0, i1, ...) of a tensor is owned by the thread found by tiling
    the tensor with blocks of `sizePerThread` contiguous elements per thread,
    `threadsPerWarp` threads per warp and `warpsPerCTA` warps, wrapping around
    when the tensor is larger than one such tile. `order` lists dimensions from
    fastest- to slowest-varying. Example for a 1-D tensor of 1024 elements and
    4 warps: `#tile.blocked<sizePerThread = [8], threadsPerWarp = [32],
    warpsPerCTA = [4], order = [0]>`.
  }];
  let parameters = (ins ArrayRefParameter<"unsigned">:$sizePerThread,
                        ArrayRefParameter<"unsigned">:$threadsPerWarp,
                        ArrayRefParameter<"unsigned">:$warpsPerCTA,
                        ArrayRefParameter<"unsigned">:$order);
  let assemblyFormat = [{
    `<` `sizePerThread` `=` `[` $sizePerThread `]` `,`
        `threadsPerWarp` `=` `[` $threadsPerWarp `]` `,`
        `warpsPerCTA` `=` `[` $warpsPerCTA `]` `,`
        `order` `=` `[` $order `]` `>`
  }];
  let genVerifyDecl = 1;
}

def Tile_SliceLayoutAttr : Tile_Attr<"SliceLayout", "slice"> {
  let summary = "layout of a tensor obtained by removing one dimension of a parent";
  let description = [{
    The result of reducing a tensor with layout `parent` along `dim` (and the
    operand of `tile.expand_dims` inserting `dim`): element i of the sliced
    tensor is held by the threads that held parent elements whose coordinates
    agree with i on the other dimensions. The parent is a `#tile.blocked`
    layout or a `#tile.mma` accumulator layout: a row reduction of a
    `tl.dot` result (attention's running maximum and sum) stays in the
    threads that hold the rows, with no exchange through shared memory.
    Example: `#tile.slice<dim = 1, parent = #tile.blocked<...>>`.
  }];
  let parameters = (ins "unsigned":$dim, "Attribute":$parent);
  let assemblyFormat = "`<` `dim` `=` $dim `,` `parent` `=` $parent `>`";
  let genVerifyDecl = 1;
}

def Tile_RMWKind : I32EnumAttr<"RMWKind", "atomic read-modify-write operation", [
    I32EnumAttrCase<"xchg", 0>, I32EnumAttrCase<"add", 1>,
    I32EnumAttrCase<"max", 2>, I32EnumAttrCase<"min", 3>,
    I32EnumAttrCase<"and_", 4, "and">, I32EnumAttrCase<"or_", 5, "or">,
    I32EnumAttrCase<"xor_", 6, "xor">, I32EnumAttrCase<"umax", 7>,
    I32EnumAttrCase<"umin", 8>]> {
  let cppNamespace = "::kiln::tile";
  let genSpecializedAttr = 0;
}
def Tile_RMWKindAttr : EnumAttr<Tile_Dialect, Tile_RMWKind, "rmw_kind">;

//===----------------------------------------------------------------------===//
// Matrix products (tl.dot): accumulator and operand layouts of mma.sync
//===----------------------------------------------------------------------===//

def Tile_MmaLayoutAttr : Tile_Attr<"MmaLayout", "mma"> {
  let summary = "accumulator layout of warp-level mma.sync (m16n8) tiles";
  let description = [{
    The distribution of a 2-D `tile.dot` result as the `mma.sync.m16n8kK`
    instructions of Ampere and Hopper leave it in registers. Each warp owns
    16x8 tiles: lane `l` holds rows `l/4` and `l/4 + 8` and columns
    `2*(l%4)` and `2*(l%4)+1` of a tile. The `warpsPerCTA` warps tile the
    result with 16-row by 8-column steps (row-major warp ids), and each
    warp repeats its tile over the rest of the tensor (columns first).
    `version = 2` (mma.sync, and wgmma when all warps are along M) orders
    warp ids row-major, 8-column steps first. `version = 3` is sm_90's warp
    group arrangement for a wgmma whose warps also split N: warp ids step
    along M first (4 consecutive warps hold 64 consecutive rows, so
    `warpsPerCTA[0]` is a multiple of 4), then pick one of `warpsPerCTA[1]`
    contiguous column blocks, over which each warp repeats its tiles.
    Examples: `#tile.mma<version = 2, warpsPerCTA = [2, 2]>`,
    `#tile.mma<version = 3, warpsPerCTA = [4, 2]>` (8 warps on a 64-row
    accumulator: each warp group computes half of the columns).
  }];
  let parameters = (ins "unsigned":$version,
                        ArrayRefParameter<"unsigned">:$warpsPerCTA);
  let assemblyFormat = [{
    `<` `version` `=` $version `,` `warpsPerCTA` `=` `[` $warpsPerCTA `]` `>`
  }];
  let genVerifyDecl = 1;
}

def Tile_DotOperandLayoutAttr : Tile_Attr<"DotOperandLayout", "dot_op"> {
  let summary = "register layout of an mma.sync operand (A: opIdx 0, B: 1)";
  let description = [{
    The fragment of operand A (`opIdx = 0`, M x K) or B (`opIdx = 1`,
    K x N) that `mma.sync` reads for an accumulator in layout `parent`.
    `kWidth` is the number of consecutive K elements one 32-bit register
    packs: 1 for tf32, 2 for f16/bf16 and fp8 (fp8 is converted exactly to
    f16 in registers: PTX 8.1 has no fp8 mma.sync), 4 for i8. Every warp holds
    the rows (A) or columns (B) of its accumulator tiles over all of K, so
    warps that differ only along the other dimension hold copies.
    `kWidth = 0` is the operand of the FMA path (fp32 "ieee" and fp64):
    each thread holds, for every row (A) or column (B) of the accumulator
    elements it owns, the whole K extent.
    Example: `#tile.dot_op<opIdx = 0, parent = #tile.mma<version = 2,
    warpsPerCTA = [4, 1]>, kWidth = 2>`.
  }];
  let parameters = (ins "unsigned":$opIdx, "MmaLayoutAttr":$parent,
                        "unsigned":$kWidth);
  let assemblyFormat = [{
    `<` `opIdx` `=` $opIdx `,` `parent` `=` $parent `,` `kWidth` `=` $kWidth `>`
  }];
  let genVerifyDecl = 1;
}

def Tile_InputPrecision : I32EnumAttr<"InputPrecision",
    "how a tile.dot of f32 operands multiplies", [
    I32EnumAttrCase<"tf32", 0>, I32EnumAttrCase<"tf32x3", 1>,
    I32EnumAttrCase<"ieee", 2>]> {
  let cppNamespace = "::kiln::tile";
  let genSpecializedAttr = 0;
}
def Tile_InputPrecisionAttr : EnumAttr<Tile_Dialect, Tile_InputPrecision,
                                       "input_precision">;

#endif // KILN_TILE_ATTRS

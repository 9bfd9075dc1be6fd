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
    agree with i on the other dimensions. Example:
    `#tile.slice<dim = 1, parent = #tile.blocked<...>>`.
  }];
  let parameters = (ins "unsigned":$dim, "BlockedLayoutAttr":$parent);
  let assemblyFormat = "`<` `dim` `=` $dim `,` `parent` `=` $parent `>`";
}

def Tile_RMWKind : I32EnumAttr<"RMWKind", "atomic read-modify-write operation", [
    I32EnumAttrCase<"xchg", 0>, I32EnumAttrCase<"add", 1>,
    I32EnumAttrCase<"max", 2>, I32EnumAttrCase<"min", 3>,
    I32EnumAttrCase<"and_", 4, "and">, I32EnumAttrCase<"or_", 5, "or">,
    I32EnumAttrCase<"xor_", 6, "xor">]> {
  let cppNamespace = "::kiln::tile";
  let genSpecializedAttr = 0;
}
def Tile_RMWKindAttr : EnumAttr<Tile_Dialect, Tile_RMWKind, "rmw_kind">;

#endif // KILN_TILE_ATTRS

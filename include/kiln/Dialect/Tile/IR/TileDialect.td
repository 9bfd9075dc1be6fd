#ifndef KILN_TILE_DIALECT
#define KILN_TILE_DIALECT

include "mlir/IR/OpBase.td"

def Tile_Dialect : Dialect {
  let name = "tile";
  let summary = "Tensor-valued tile programs in the style of the Triton language";
  let description = [{
    The `tile` dialect models one program instance (a CTA) that computes on
    whole tensors ("tiles"). Values are scalars, `!tile.ptr<T>` global memory
    pointers, and ranked tensors of either. Elementwise arithmetic uses the
    upstream `arith` and `math` dialects on tensors; control flow uses `scf`.
    After layout assignment every tensor type carries a distributed layout
    (`#tile.blocked` or `#tile.slice`) as its encoding.
  }];
  let cppNamespace = "::kiln::tile";
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
  let hasConstantMaterializer = 1;
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

#endif // KILN_TILE_DIALECT

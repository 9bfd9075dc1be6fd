//===- TileMathOps.td - IEEE division and square root, library calls -*- tablegen -*-===//
//
// Math beyond arith / math: correctly rounded division and square root,
// libdevice calls, inline assembly and per-element functions. Included by
// TileOps.td (one generated op list for the dialect).
//
//===----------------------------------------------------------------------===//

//===----------------------------------------------------------------------===//
// Math: IEEE division / square root, library calls, inline assembly
//===----------------------------------------------------------------------===//

def Tile_PreciseDivFOp : Tile_Op<"precise_divf", [Pure, Elementwise,
    SameOperandsAndResultType]> {
  let summary = "division rounded to nearest even (tl.div_rn)";
  let description = [{
    IEEE division (`div.rn`), unlike `arith.divf`, which Kiln lowers to the
    faster `div.full.f32` as Triton does for `/`.

    ```mlir
    %q = tile.precise_divf %x, %y : tensor<128xf32>
    ```
  }];
  let arguments = (ins Tile_NumericLike:$x, Tile_NumericLike:$y);
  let results = (outs Tile_NumericLike:$result);
  let assemblyFormat = "$x `,` $y attr-dict `:` type($result)";
}

def Tile_PreciseSqrtOp : Tile_Op<"precise_sqrt", [Pure, Elementwise,
    SameOperandsAndResultType]> {
  let summary = "square root rounded to nearest even (tl.sqrt_rn)";
  let description = [{
    IEEE square root (`sqrt.rn`), unlike `math.sqrt` (tl.sqrt), which is
    `sqrt.approx.ftz.f32` as in Triton.

    ```mlir
    %r = tile.precise_sqrt %x : tensor<128xf32>
    ```
  }];
  let arguments = (ins Tile_NumericLike:$x);
  let results = (outs Tile_NumericLike:$result);
  let assemblyFormat = "$x attr-dict `:` type($result)";
}

def Tile_ExternElementwiseOp : Tile_Op<"extern_elementwise", [Pure,
    Elementwise, SameOperandsAndResultShape]> {
  let summary = "elementwise call of a device library function";
  let description = [{
    `tl.extra.cuda.libdevice.tanh(x)`: one call of `symbol` (a libdevice
    `__nv_*` function, linked from libdevice.10.bc) per element. The
    operands are scalars or tensors of one shape, already of the function's
    parameter types.

    ```mlir
    %t = tile.extern_elementwise "__nv_tanhf"(%x) : (tensor<128xf32>) -> tensor<128xf32>
    ```
  }];
  let arguments = (ins Variadic<Tile_NumericLike>:$srcs, StrAttr:$symbol);
  let results = (outs Tile_NumericLike:$result);
  let assemblyFormat = [{
    $symbol `(` $srcs `)` attr-dict `:` functional-type($srcs, $result)
  }];
}

def Tile_InlineAsmElementwiseOp : Tile_Op<"inline_asm_elementwise", [
    Elementwise, DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "PTX inline assembly applied elementwise (tl.inline_asm_elementwise)";
  let description = [{
    Runs `asm` once per `packed_element` elements the thread owns, with
    `constraints` in LLVM's inline-assembly syntax (outputs first). With
    more than one element per instance, operands narrower than 32 bits are
    packed into 32-bit registers and results unpacked, as in Triton. Not
    `pure`: the assembly may read or write memory and is never removed.
    Results may be pointers (64-bit registers); a 64-bit result may come
    from a 32-bit `=r` register, which LLVM zero-extends, as under Triton.

    ```mlir
    %y = tile.inline_asm_elementwise "shf.l.wrap.b32 $0, $1, $2, $3;",
           "=r,r,r,r" (%x, %x, %s) {packed_element = 1 : i32, pure = true}
           : (tensor<128xi32>, tensor<128xi32>, tensor<128xi32>) -> tensor<128xi32>
    ```
  }];
  let arguments = (ins Variadic<Tile_Value>:$args, StrAttr:$asm_string,
                       StrAttr:$constraints, BoolAttr:$pure,
                       I32Attr:$packed_element);
  let results = (outs Variadic<Tile_Value>:$results);
  let assemblyFormat = [{
    $asm_string `,` $constraints `(` $args `)` attr-dict `:` functional-type($args, $results)
  }];
  let hasVerifier = 1;
}

def Tile_MapElementwiseOp : Tile_Op<"map_elementwise", [RecursiveMemoryEffects,
    RecursivelySpeculatable]> {
  let summary = "a scalar function applied to every element (tl.map_elementwise)";
  let description = [{
    Runs the body once per `pack` elements of its operands, which have one
    shape: the block takes `pack` scalars of each operand in turn (operand 0's
    `pack` elements first) and yields `pack` scalars of each result in turn.
    Unlike elementwise arithmetic, the body may branch and loop per element
    (scf ops on scalars), so only the taken side of a branch runs. The
    lowering inlines the body for each group of `pack` elements a thread
    owns; results take the operands' layout.

    ```mlir
    %y = tile.map_elementwise(%x) pack = 1 : (tensor<128xf32>) -> tensor<128xf32> {
    ^bb0(%v: f32):
      %c0 = arith.constant 0.0 : f32
      %pos = arith.cmpf ogt, %v, %c0 : f32
      %r = scf.if %pos -> (f32) {
        scf.yield %v : f32
      } else {
        %e = math.exp %v : f32
        scf.yield %e : f32
      }
      tile.yield %r : f32
    }
    ```
  }];
  let arguments = (ins Variadic<RankedTensorOf<[AnySignlessInteger, AnyFloat]>>:$srcs,
                       I32Attr:$pack);
  let results = (outs Variadic<RankedTensorOf<[AnySignlessInteger, AnyFloat]>>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    `(` $srcs `)` `pack` `=` $pack attr-dict `:` functional-type($srcs, results) $body
  }];
  let hasRegionVerifier = 1;
}

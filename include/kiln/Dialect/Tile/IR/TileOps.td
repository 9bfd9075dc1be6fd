#ifndef KILN_TILE_OPS
#define KILN_TILE_OPS

include "kiln/Dialect/Tile/IR/TileDialect.td"
include "kiln/Dialect/Tile/IR/TileTypes.td"
include "kiln/Dialect/Tile/IR/TileAttrs.td"
include "mlir/IR/OpBase.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"

class Tile_Op<string mnemonic, list<Trait> traits = []>
    : Op<Tile_Dialect, mnemonic, traits>;

// Type transforms used by the type-inference constraints below; they keep the
// shape and the layout encoding of tensors.
defvar PointeeOf = "::kiln::tile::getPointeeType($_self)";
defvar MaskOf = "::kiln::tile::getI1TypeLike($_self)";

//===----------------------------------------------------------------------===//
// Program identity
//===----------------------------------------------------------------------===//

def Tile_ProgramIdOp : Tile_Op<"program_id", [Pure]> {
  let summary = "index of this program along a launch-grid axis";
  let description = [{
    Returns the index of the running program (CTA) along grid axis 0, 1 or 2.

    ```mlir
    %row = tile.program_id 0
    ```
  }];
  let arguments = (ins I32Attr:$axis);
  let results = (outs I32:$result);
  let assemblyFormat = "$axis attr-dict";
  let hasVerifier = 1;
}

def Tile_NumProgramsOp : Tile_Op<"num_programs", [Pure]> {
  let summary = "number of programs along a launch-grid axis";
  let description = [{
    ```mlir
    %n = tile.num_programs 0
    ```
  }];
  let arguments = (ins I32Attr:$axis);
  let results = (outs I32:$result);
  let assemblyFormat = "$axis attr-dict";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Tensor construction and shape
//===----------------------------------------------------------------------===//

def Tile_ArangeOp : Tile_Op<"arange", [Pure]> {
  let summary = "1-D tensor of consecutive i32 values [start, end)";
  let description = [{
    The length `end - start` must be a positive power of two, as in Triton.

    ```mlir
    %cols = tile.arange 0 to 1024 : tensor<1024xi32>
    ```
  }];
  let arguments = (ins I32Attr:$start, I32Attr:$end);
  let results = (outs RankedTensorOf<[I32]>:$result);
  let assemblyFormat = "$start `to` $end attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def Tile_SplatOp : Tile_Op<"splat", [Pure]> {
  let summary = "tensor with every element equal to a scalar";
  let description = [{
    ```mlir
    %t = tile.splat %x : f32 -> tensor<1024xf32>
    ```
    A splat of a constant folds to a dense constant.
  }];
  let arguments = (ins Tile_Scalar:$src);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Tile_BroadcastOp : Tile_Op<"broadcast", [Pure]> {
  let summary = "broadcast size-1 dimensions of a tensor";
  let description = [{
    Every dimension of the operand is either equal to the result's or 1.

    ```mlir
    %b = tile.broadcast %a : tensor<1x128xf32> -> tensor<32x128xf32>
    ```
    A broadcast to the operand's own type folds away.
  }];
  let arguments = (ins Tile_Tensor:$src);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Tile_ExpandDimsOp : Tile_Op<"expand_dims", [Pure]> {
  let summary = "insert a size-1 dimension";
  let description = [{
    `x[:, None]` in the Triton language.

    ```mlir
    %c = tile.expand_dims %rows, 1 : tensor<32xi32> -> tensor<32x1xi32>
    ```
  }];
  let arguments = (ins Tile_Tensor:$src, I32Attr:$axis);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = "$src `,` $axis attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

def Tile_ConvertLayoutOp : Tile_Op<"convert_layout", [Pure]> {
  let summary = "redistribute a tensor to another layout";
  let description = [{
    Same shape and element type, another layout encoding. Lowered through
    shared memory; conversions between equal layouts fold away.

    ```mlir
    %b = tile.convert_layout %a : tensor<128xf32, #l0> -> tensor<128xf32, #l1>
    ```
  }];
  let arguments = (ins Tile_Tensor:$src);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Shape ops (tl.trans/permute, reshape/view, join, split, cat). Each result
// element is a source element at coordinates that are a fixed permutation of
// the index bits (shapes are powers of two), so the lowering either renames
// registers (when the layouts line up) or exchanges through shared memory.
//===----------------------------------------------------------------------===//

def Tile_TransOp : Tile_Op<"trans", [Pure]> {
  let summary = "permute the dimensions of a tensor";
  let description = [{
    `tl.trans(x, *dims)` / `tl.permute(x, *dims)`: result dimension `i` is
    source dimension `order[i]`; `order` is a permutation of `0..rank-1`.

    ```mlir
    %t = tile.trans %x, [1, 0] : tensor<32x64xf16> -> tensor<64x32xf16>
    ```
  }];
  let arguments = (ins Tile_Tensor:$src, DenseI32ArrayAttr:$order);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = "$src `,` $order attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

def Tile_ReshapeOp : Tile_Op<"reshape", [Pure]> {
  let summary = "same elements in row-major order, another shape";
  let description = [{
    `tl.reshape(x, shape, can_reorder=False)`, `tl.view`, `tl.ravel`: the
    number of elements is kept and every dimension is a power of two. With
    `can_reorder` the order of the elements may change (`tl.view`); Kiln
    still keeps the row-major order, which is one valid choice.

    ```mlir
    %r = tile.reshape %x : tensor<32x64xf32> -> tensor<2048xf32>
    %v = tile.reshape %x can_reorder : tensor<32x64xf32> -> tensor<64x32xf32>
    ```
  }];
  let arguments = (ins Tile_Tensor:$src, UnitAttr:$can_reorder);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = [{
    $src (`can_reorder` $can_reorder^)? attr-dict `:` type($src) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Tile_JoinOp : Tile_Op<"join", [Pure, AllTypesMatch<["lhs", "rhs"]>]> {
  let summary = "stack two tensors along a new minor dimension of size 2";
  let description = [{
    `tl.join(a, b)`: `result[..., 0] = lhs`, `result[..., 1] = rhs`.

    ```mlir
    %j = tile.join %a, %b : tensor<4x8xi32> -> tensor<4x8x2xi32>
    ```
  }];
  let arguments = (ins Tile_Tensor:$lhs, Tile_Tensor:$rhs);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` type($lhs) `->` type($result)";
  let hasVerifier = 1;
}

def Tile_SplitOp : Tile_Op<"split", [Pure, AllTypesMatch<["lhs", "rhs"]>]> {
  let summary = "split a tensor along its last dimension, of size 2";
  let description = [{
    `tl.split(x)`, the inverse of `tile.join`: `lhs = x[..., 0]`,
    `rhs = x[..., 1]`. The operand has rank 2 or more.

    ```mlir
    %a, %b = tile.split %j : tensor<4x8x2xi32> -> tensor<4x8xi32>
    ```
  }];
  let arguments = (ins Tile_Tensor:$src);
  let results = (outs Tile_Tensor:$lhs, Tile_Tensor:$rhs);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($lhs)";
  let hasVerifier = 1;
}

def Tile_CatOp : Tile_Op<"cat", [Pure, AllTypesMatch<["lhs", "rhs"]>]> {
  let summary = "concatenate two tensors along dimension 0";
  let description = [{
    `tl.cat(a, b, can_reorder=True)`: `lhs` then `rhs` along dimension 0 (of
    equal shapes, so that the result stays a power of two). Triton may
    reorder the elements; Kiln keeps them in order.

    ```mlir
    %c = tile.cat %a, %b : tensor<64xf32> -> tensor<128xf32>
    ```
  }];
  let arguments = (ins Tile_Tensor:$lhs, Tile_Tensor:$rhs);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` type($lhs) `->` type($result)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Pointers and memory
//===----------------------------------------------------------------------===//

def Tile_AddPtrOp : Tile_Op<"addptr", [Pure, AllTypesMatch<["ptr", "result"]>]> {
  let summary = "advance pointers by an element offset";
  let description = [{
    Offsets count elements of the pointee type. Pointer and offset are both
    scalars or tensors of the same shape.

    ```mlir
    %p = tile.addptr %base, %offs : tensor<1024x!tile.ptr<f16>>, tensor<1024xi32>
    ```
    Adding zero folds away.
  }];
  let arguments = (ins Tile_PtrLike:$ptr, Tile_IntLike:$offset);
  let results = (outs Tile_PtrLike:$result);
  let assemblyFormat = "$ptr `,` $offset attr-dict `:` type($ptr) `,` type($offset)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Tile_PtrCastOp : Tile_Op<"ptr_cast", [Pure, Elementwise,
    SameOperandsAndResultShape]> {
  let summary = "cast between pointers and 64-bit integers, or pointer types";
  let description = [{
    Triton's casts that involve a pointer type: an int64 address made a
    pointer (`tl.load(a_ptrs + g).to(tl.pointer_type(tl.float16))`, the
    grouped GEMM tutorial's array of matrices), a pointer made its address
    (`p.to(tl.int64)`), and a pointer seen as another element type
    (`p.to(tl.pointer_type(tl.int8))`). One side is a pointer; an integer
    side is i64. Scalars or tensors of one shape.

    ```mlir
    %p = tile.ptr_cast %addr : tensor<64xi64> -> tensor<64x!tile.ptr<f16>>
    %q = tile.ptr_cast %p : tensor<64x!tile.ptr<f16>> -> tensor<64x!tile.ptr<i8>>
    ```
  }];
  let arguments = (ins Tile_IntOrPtrLike:$src);
  let results = (outs Tile_IntOrPtrLike:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

def Tile_LoadOp : Tile_Op<"load", [
    AttrSizedOperandSegments, DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
    TypesMatchWith<"result type is the pointee type", "ptr", "result", PointeeOf>,
    OptionalTypesMatchWith<"mask is i1 with the pointer's shape", "ptr", "mask", MaskOf>,
    OptionalTypesMatchWith<"other has the result type", "ptr", "other", PointeeOf>]> {
  let summary = "load from global memory, optionally masked";
  let description = [{
    Lanes whose mask is false are not read; they take `other` when given and
    are undefined otherwise. `other` is only allowed together with `mask`.

    Cache hints (Triton's `cache_modifier`, `eviction_policy`, `volatile`):
    `cache` is empty or one of `.ca`, `.cg`, `.cv` (PTX `ld.global.cg` etc.);
    `evict` is empty, `evict_first` or `evict_last`: the lines' priority in
    L2 (`.L2::cache_hint` with a `createpolicy` of that priority) and, without
    `cache`, in L1 (`.L1::evict_last`); `isVolatile` reads memory every time
    (`ld.volatile.global`, for spin loops) and drops the other hints. A
    volatile load also counts as a write, so that a loop polling memory is
    never removed as dead or merged with another read.

    A load of a 2-D host tensor descriptor's block (`desc.load(offsets)`)
    also records where it came from: `descArg`, the kernel argument that is
    the descriptor's base (its shapes and strides follow it), and `coords`,
    the block's offsets as i32. The pointers, mask and `other` say the same
    (and are what the load does); the pipeliner may instead copy the block
    with TMA from those (`tile.tma_copy`). A host descriptor of rank 3 to 5
    whose block the load squeezes to 2-D (`[1, BM, BK]` as BM x BK) keeps a
    coordinate per dimension of the descriptor: more `coords` than result
    dimensions.

    A load of a 2-D descriptor made in the kernel (`tl.make_tensor_descriptor`)
    records `coords` and, instead of `descArg`, the descriptor itself in
    `desc`: its base (a scalar pointer), its two shapes (i32) and its row
    stride (i64, elements); `descNan` when its padding is NaN. The pipeliner
    may then copy the block with TMA through a tensor map the kernel builds
    (`tile.tensormap_create`).

    ```mlir
    %x = tile.load %p, mask %m, other %zero : tensor<1024x!tile.ptr<f16>>
    %k = tile.load %q {evict = "evict_last"} : tensor<1024x!tile.ptr<f16>>
    %b = tile.load %bp, mask %bm, other %z coords[%row, %c0] {descArg = 2 : i64}
        : tensor<64x64x!tile.ptr<f16>>
    %d = tile.load %dp, mask %dm, other %z coords[%row, %c0]
        desc(%base, %rows, %cols, %stride : !tile.ptr<f16>, i32, i32, i64)
        : tensor<64x64x!tile.ptr<f16>>
    ```
  }];
  let arguments = (ins Tile_PtrLike:$ptr, Optional<Tile_BoolLike>:$mask,
                       Optional<Tile_Value>:$other, Variadic<I32>:$coords,
                       Variadic<AnyType>:$desc,
                       DefaultValuedStrAttr<StrAttr, "">:$cache,
                       DefaultValuedStrAttr<StrAttr, "">:$evict,
                       UnitAttr:$isVolatile, OptionalAttr<I64Attr>:$descArg,
                       UnitAttr:$descNan);
  let results = (outs Tile_Value:$result);
  let builders = [
    // A load of no descriptor block.
    OpBuilder<(ins "::mlir::Type":$result, "::mlir::Value":$ptr, "::mlir::Value":$mask,
                   "::mlir::Value":$other), [{
      build($_builder, $_state, result, ptr, mask, other, ::mlir::ValueRange(),
            ::mlir::ValueRange(), $_builder.getStringAttr(""), $_builder.getStringAttr(""),
            nullptr, nullptr, nullptr);
    }]>
  ];
  let assemblyFormat = [{
    $ptr (`,` `mask` $mask^)? (`,` `other` $other^)? (`coords` `[` $coords^ `]`)?
    (`desc` `(` $desc^ `:` type($desc) `)`)? attr-dict `:` type($ptr)
  }];
  let hasVerifier = 1;
}

def Tile_StoreOp : Tile_Op<"store", [
    AttrSizedOperandSegments, MemoryEffects<[MemWrite]>,
    TypesMatchWith<"value type is the pointee type", "ptr", "value", PointeeOf>,
    OptionalTypesMatchWith<"mask is i1 with the pointer's shape", "ptr", "mask", MaskOf>]> {
  let summary = "store to global memory, optionally masked";
  let description = [{
    Cache hints as on `tile.load`: `cache` is empty or one of `.wb`, `.cg`,
    `.cs`, `.wt`; `evict` is empty, `evict_first` or `evict_last`.

    A store of a 2-D tensor descriptor's block (`desc.store(offsets, v)`)
    records the block as `tile.load` does: `coords`, and `descArg` (a host
    descriptor) or `desc` (one made in the kernel). The pointers and mask
    say the same; on sm_90 `--tile-tma-stores` may instead write the block
    with a TMA store (`tile.tma_store`).

    ```mlir
    tile.store %p, %y, mask %m : tensor<1024x!tile.ptr<f16>>
    tile.store %p, %y {evict = "evict_first"} : tensor<1024x!tile.ptr<f16>>
    tile.store %cp, %c, mask %cm coords[%row, %col] {descArg = 2 : i64}
        : tensor<128x128x!tile.ptr<f16>>
    ```
  }];
  let arguments = (ins Tile_PtrLike:$ptr, Tile_Value:$value,
                       Optional<Tile_BoolLike>:$mask, Variadic<I32>:$coords,
                       Variadic<AnyType>:$desc,
                       DefaultValuedStrAttr<StrAttr, "">:$cache,
                       DefaultValuedStrAttr<StrAttr, "">:$evict,
                       OptionalAttr<I64Attr>:$descArg);
  let builders = [
    // A store of no descriptor block.
    OpBuilder<(ins "::mlir::Value":$ptr, "::mlir::Value":$value, "::mlir::Value":$mask), [{
      build($_builder, $_state, ptr, value, mask, ::mlir::ValueRange(), ::mlir::ValueRange(),
            $_builder.getStringAttr(""), $_builder.getStringAttr(""), nullptr);
    }]>
  ];
  let assemblyFormat = [{
    $ptr `,` $value (`,` `mask` $mask^)? (`coords` `[` $coords^ `]`)?
    (`desc` `(` $desc^ `:` type($desc) `)`)? attr-dict `:` type($ptr)
  }];
  let hasVerifier = 1;
}

def Tile_AtomicCASOp : Tile_Op<"atomic_cas", [
    MemoryEffects<[MemRead, MemWrite]>,
    TypesMatchWith<"cmp has the pointee type", "ptr", "cmp", PointeeOf>,
    TypesMatchWith<"val has the pointee type", "ptr", "val", PointeeOf>,
    TypesMatchWith<"result has the pointee type", "ptr", "result", PointeeOf>]> {
  let summary = "atomic compare-and-swap";
  let description = [{
    Stores `val` where memory equals `cmp`; returns the old value. On scalars
    one thread of the program performs it and every thread sees the result,
    so spin loops stay uniform. `sem` (`relaxed`, `acquire`, `release`,
    `acq_rel`: the default) and `scope` (`cta`, `gpu`: the default, `sys`)
    are Triton's and PTX's memory ordering and scope of the `atom`.
    Elements are 16, 32 or 64 bits wide (`atom.cas.b16/b32/b64`).

    ```mlir
    %old = tile.atomic_cas %lock, %c0, %c1 : !tile.ptr<i32>
    %o = tile.atomic_cas %p, %c0, %c1 {sem = "acquire", scope = "sys"} : !tile.ptr<i32>
    ```
  }];
  let arguments = (ins Tile_PtrLike:$ptr, Tile_Value:$cmp, Tile_Value:$val,
                       DefaultValuedStrAttr<StrAttr, "acq_rel">:$sem,
                       DefaultValuedStrAttr<StrAttr, "gpu">:$scope);
  let results = (outs Tile_Value:$result);
  let assemblyFormat = "$ptr `,` $cmp `,` $val attr-dict `:` type($ptr)";
  let hasVerifier = 1;
}

def Tile_AtomicRMWOp : Tile_Op<"atomic_rmw", [
    MemoryEffects<[MemRead, MemWrite]>,
    TypesMatchWith<"val has the pointee type", "ptr", "val", PointeeOf>,
    TypesMatchWith<"result has the pointee type", "ptr", "result", PointeeOf>,
    OptionalTypesMatchWith<"mask is i1 with the pointer's shape", "ptr", "mask", MaskOf>]> {
  let summary = "atomic read-modify-write";
  let description = [{
    Kinds: `xchg`, `add` (integers and floats), `max`, `min` (signed
    integers, f32, f64), `umax`, `umin` (unsigned integers), `and`, `or`,
    `xor` (integers). Returns the old value. A float `max` / `min` is
    Triton's: a signed integer max (min) of the bits where the value is
    non-negative, an unsigned min (max) where it is negative. `sem` (`relaxed`,
    `acquire`, `release`, `acq_rel`: the default) and `scope` (`cta`, `gpu`:
    the default, `sys`) as in `tile.atomic_cas`.

    ```mlir
    %old = tile.atomic_rmw xchg %lock, %c0 : !tile.ptr<i32>
    %o = tile.atomic_rmw add %p, %v, mask %m : tensor<128x!tile.ptr<f32>>
    %r = tile.atomic_rmw add %p, %v {sem = "relaxed"} : tensor<128x!tile.ptr<f32>>
    ```

    On sm_90 a floating-point `add` of consecutive elements may run as one
    vector `atom` (PTX ISA 8.1: up to 4 f32 or 8 f16/bf16 per instruction).
  }];
  let arguments = (ins Tile_RMWKindAttr:$kind, Tile_PtrLike:$ptr, Tile_Value:$val,
                       Optional<Tile_BoolLike>:$mask,
                       DefaultValuedStrAttr<StrAttr, "acq_rel">:$sem,
                       DefaultValuedStrAttr<StrAttr, "gpu">:$scope);
  let results = (outs Tile_Value:$result);
  let assemblyFormat = "$kind $ptr `,` $val (`,` `mask` $mask^)? attr-dict `:` type($ptr)";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// Most consecutive elements one PTX `atom` may update on a GPU of this
    /// compute capability (1: element by element).
    unsigned getMaxVectorElements(unsigned computeCapability);
  }];
}

//===----------------------------------------------------------------------===//
// Reductions and selection
//===----------------------------------------------------------------------===//

class Tile_NamedReduceOp<string mnemonic, string what> : Tile_Op<mnemonic, [Pure]> {
  let summary = what # " of a tensor along one axis";
  let description = [{
    The result drops dimension `axis`; reducing a 1-D tensor gives a scalar.
    Floating-point maximum and minimum ignore NaN operands (like `maxnum`).

    ```mlir
    %s = tile.}] # mnemonic # [{ %x, 0 : tensor<1024xf32> -> f32
    %c = tile.}] # mnemonic # [{ %t, 0 : tensor<32x128xf32> -> tensor<128xf32>
    ```
  }];
  let arguments = (ins RankedTensorOf<[AnySignlessInteger, AnyFloat]>:$src, I32Attr:$axis);
  let results = (outs Tile_NumericLike:$result);
  let assemblyFormat = "$src `,` $axis attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

def Tile_SumOp : Tile_NamedReduceOp<"sum", "sum">;
def Tile_MaxOp : Tile_NamedReduceOp<"max", "maximum">;
def Tile_MinOp : Tile_NamedReduceOp<"min", "minimum">;

def Tile_ReduceOp : Tile_Op<"reduce", [RecursiveMemoryEffects, RecursivelySpeculatable]> {
  let summary = "reduction along one axis with a combiner region";
  let description = [{
    `tl.reduce(x, axis, combine_fn)`: reduces N tensors of one shape together
    along `axis`. The combiner block takes 2N scalars, the accumulated values
    of the N operands followed by the N values to fold in, and yields N
    scalars; it must be associative (the order of combination is the
    lowering's choice) and free of side effects. Each result drops dimension
    `axis`; reducing 1-D tensors gives scalars.

    ```mlir
    %m, %i = tile.reduce(%x, %idx) axis = 0 : (tensor<128xf32>, tensor<128xi32>) -> (f32, i32) {
    ^bb0(%a: f32, %ai: i32, %b: f32, %bi: i32):
      %gt = arith.cmpf ogt, %a, %b : f32
      %v = arith.select %gt, %a, %b : f32
      %vi = arith.select %gt, %ai, %bi : i32
      tile.yield %v, %vi : f32, i32
    }
    ```
  }];
  let arguments = (ins Variadic<RankedTensorOf<[AnySignlessInteger, AnyFloat]>>:$srcs,
                       I32Attr:$axis);
  let results = (outs Variadic<Tile_NumericLike>:$results);
  let regions = (region SizedRegion<1>:$combiner);
  let assemblyFormat = [{
    `(` $srcs `)` `axis` `=` $axis attr-dict `:` functional-type($srcs, results) $combiner
  }];
  let hasRegionVerifier = 1;
}

def Tile_ScanOp : Tile_Op<"scan", [RecursiveMemoryEffects, RecursivelySpeculatable]> {
  let summary = "inclusive prefix scan along one axis with a combiner region";
  let description = [{
    `tl.associative_scan(x, axis, combine_fn, reverse)`: element `k` of each
    result combines elements `0..k` of the operands along `axis` (elements
    `k..n-1` with `reverse`, folded from the end). The combiner block is the
    same as `tile.reduce`'s: 2N scalars in (accumulated values first), N out.
    Results have the operands' types.

    ```mlir
    %c = tile.scan(%x) axis = 1 reverse : (tensor<32x64xi32>) -> tensor<32x64xi32> {
    ^bb0(%a: i32, %b: i32):
      %s = arith.addi %a, %b : i32
      tile.yield %s : i32
    }
    ```
  }];
  let arguments = (ins Variadic<RankedTensorOf<[AnySignlessInteger, AnyFloat]>>:$srcs,
                       I32Attr:$axis, UnitAttr:$reverse);
  let results = (outs Variadic<RankedTensorOf<[AnySignlessInteger, AnyFloat]>>:$results);
  let regions = (region SizedRegion<1>:$combiner);
  let assemblyFormat = [{
    `(` $srcs `)` `axis` `=` $axis (`reverse` $reverse^)? attr-dict `:`
    functional-type($srcs, results) $combiner
  }];
  let hasRegionVerifier = 1;
}

def Tile_YieldOp : Tile_Op<"yield", [Pure, Terminator, ReturnLike,
    ParentOneOf<["ReduceOp", "ScanOp", "MapElementwiseOp"]>]> {
  let summary = "values a combiner or a map_elementwise body produces";
  let description = [{
    ```mlir
    tile.yield %s : f32
    ```
  }];
  let arguments = (ins Variadic<AnyTypeOf<[AnySignlessInteger, AnyFloat]>>:$values);
  let assemblyFormat = "($values^ `:` type($values))? attr-dict";
}

def Tile_WhereOp : Tile_Op<"where", [Pure,
    AllTypesMatch<["trueValue", "falseValue", "result"]>]> {
  let summary = "elementwise select";
  let description = [{
    The condition is an i1 scalar (selecting whole values) or an i1 tensor of
    the result's shape.

    ```mlir
    %d = tile.where %m, %x, %zero : tensor<1024xi1>, tensor<1024xf32>
    ```
  }];
  let arguments = (ins Tile_BoolLike:$condition, Tile_Value:$trueValue,
                       Tile_Value:$falseValue);
  let results = (outs Tile_Value:$result);
  let assemblyFormat = [{
    $condition `,` $trueValue `,` $falseValue attr-dict `:` type($condition) `,` type($result)
  }];
  let hasVerifier = 1;
  // A constant (or splat) condition picks one operand.
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Sorting, gathering and histograms (tl.sort, tl.gather, tl.histogram)
//===----------------------------------------------------------------------===//

def Tile_SortOp : Tile_Op<"sort", [Pure, AllTypesMatch<["src", "result"]>]> {
  let summary = "bitonic sort (or merge) along the last dimension";
  let description = [{
    `tl.sort(x, descending=...)`: sorts every row along the last dimension,
    whose size must be a power of two, with Triton's bitonic network. Each
    compare-exchange step sets every element `x` with partner `y` (the element
    whose position differs in one bit `j`) to `(x > y) != (flip ^ right) ? y :
    x`, where `right` is bit `j` of its position and `flip` is bit `s` of the
    position in stage `s` (the descending flag in the last stage). With
    ordered, distinct-as-bits values that is a sort; like Triton, NaN and
    +0.0/-0.0 pairs compare unordered / equal and may be duplicated. Integers
    compare signed unless `unsigned` is set (unsigned and i1 values).

    With `merge` only the last stage runs (`tl.bitonic_merge`): a row that is
    bitonic (ascending then descending, or the reverse) comes out sorted; any
    other row comes out as Triton's merge network leaves it.

    ```mlir
    %s = tile.sort %x descending : tensor<4x128xf32>
    %u = tile.sort %y unsigned : tensor<256xi32>
    %m = tile.sort %z merge : tensor<2x64xf32>
    ```
  }];
  let arguments = (ins RankedTensorOf<[AnySignlessInteger, AnyFloat]>:$src,
                       UnitAttr:$descending, UnitAttr:$isUnsigned,
                       UnitAttr:$mergeOnly);
  let results = (outs RankedTensorOf<[AnySignlessInteger, AnyFloat]>:$result);
  let assemblyFormat = [{
    $src (`merge` $mergeOnly^)? (`descending` $descending^)? (`unsigned` $isUnsigned^)?
    attr-dict `:` type($src)
  }];
  let hasVerifier = 1;
}

def Tile_GatherOp : Tile_Op<"gather", [Pure]> {
  let summary = "gather elements of a tensor along one axis";
  let description = [{
    `tl.gather(src, index, axis)`: `result[i0, .., ik, ..] = src[i0, ..,
    index[i0, .., ik, ..], ..]` with `ik` the coordinate along `axis`. `src`
    and `index` have one rank and equal sizes off `axis`; the result has the
    index's shape and the source's element type. An index outside `[0,
    size)` is undefined in Triton; Kiln wraps it modulo the (power-of-two)
    size of `src` along `axis`.

    ```mlir
    %g = tile.gather %x, %idx, 1 : tensor<16x64xf32>, tensor<16x32xi32> -> tensor<16x32xf32>
    ```
  }];
  let arguments = (ins RankedTensorOf<[AnySignlessInteger, AnyFloat]>:$src,
                       RankedTensorOf<[AnySignlessInteger]>:$index, I32Attr:$axis);
  let results = (outs RankedTensorOf<[AnySignlessInteger, AnyFloat]>:$result);
  let assemblyFormat = [{
    $src `,` $index `,` $axis attr-dict `:` type($src) `,` type($index) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Tile_HistogramOp : Tile_Op<"histogram", [Pure]> {
  let summary = "histogram of a 1-D integer tensor into unit-width bins";
  let description = [{
    `tl.histogram(x, num_bins, mask)`: bin `b` of the i32 result counts the
    elements equal to `b` (where `mask` holds, when given). The number of
    bins is the result's size, a power of two. Out-of-range values follow
    Triton's NVIDIA lowering: a value lands in bin `v & (P - 1)` with `P =
    max(num_bins, 32)` (its low bits, two's complement), and is counted only
    if that bin is below `num_bins`.

    ```mlir
    %h = tile.histogram %x : tensor<1024xi32> -> tensor<64xi32>
    %m = tile.histogram %x mask %ok : tensor<1024xi1> : tensor<1024xi32> -> tensor<64xi32>
    ```
  }];
  let arguments = (ins RankedTensorOf<[AnySignlessInteger]>:$src,
                       Optional<RankedTensorOf<[I1]>>:$mask);
  let results = (outs RankedTensorOf<[I32]>:$result);
  let assemblyFormat = [{
    $src (`mask` $mask^ `:` type($mask))? attr-dict `:` type($src) `->` type($result)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Matrix products (tl.dot)
//===----------------------------------------------------------------------===//

def Tile_DotOp : Tile_Op<"dot", [Pure, AllTypesMatch<["c", "d"]>]> {
  let summary = "matrix product with accumulation: d = a x b + c";
  let description = [{
    `tl.dot(a, b, acc)`: `a` is M x K, `b` is K x N, `c` and the result are
    M x N; or, batched, B x M x K times B x K x N into B x M x N (before
    layout assignment only: `--tile-decompose-batched-dot` turns it into B
    2-D products). Operand and accumulator element types: f16 or bf16 with an f32
    accumulator (f16 also with an f16 one), f32 (`inputPrecision` tf32,
    tf32x3 or ieee) with f32, f64 with f64, i8 with i32, and 8-bit floats
    (f8E4M3FN, f8E5M2, mixed) with f32. M, N and K are powers of two,
    K at least 16 (32 for 8-bit operands); M and N below 16 only before
    layout assignment (`--tile-pad-small-dot` pads them). After layout
    assignment `c` and the result carry a `#tile.mma` layout and `a`, `b`
    the matching `#tile.dot_op` layouts, except f16/bf16 operands, which
    may keep any distributed layouts (both alike): the lowering then stages
    them through shared memory and ldmatrix itself; and f32 (tf32), fp8 or
    i8 operands that both come from `tile.local_load` of pipelined slots
    (B possibly through a `tile.trans` of one: an N x K block read as K x
    N), which keep the layouts they were copied in (sm_90 wgmma reads the
    slots).
    `maxNumImpreciseAcc` is Triton's hint for fp8 accumulation on Hopper
    (kept, not used: wgmma accumulates fp8 products as under Triton's sm_90
    default, 2^30; a smaller explicit value is not honoured).

    ```mlir
    %d = tile.dot %a, %b, %c : tensor<128x32xf16>, tensor<32x64xf16> -> tensor<128x64xf32>
    %e = tile.dot %x, %y, %z {inputPrecision = #tile<input_precision ieee>}
        : tensor<32x16xf32>, tensor<16x32xf32> -> tensor<32x32xf32>
    ```
  }];
  let arguments = (ins RankedTensorOf<[AnyFloat, AnySignlessInteger]>:$a,
                       RankedTensorOf<[AnyFloat, AnySignlessInteger]>:$b,
                       RankedTensorOf<[AnyFloat, AnySignlessInteger]>:$c,
                       DefaultValuedAttr<Tile_InputPrecisionAttr,
                           "::kiln::tile::InputPrecision::tf32">:$inputPrecision,
                       DefaultValuedAttr<I32Attr, "0">:$maxNumImpreciseAcc);
  let results = (outs RankedTensorOf<[AnyFloat, AnySignlessInteger]>:$d);
  let assemblyFormat = [{
    $a `,` $b `,` $c attr-dict `:` type($a) `,` type($b) `->` type($d)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Synchronization, hints and debugging
//===----------------------------------------------------------------------===//

def Tile_BarrierOp : Tile_Op<"barrier", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "synchronize the threads of the program (bar.sync)";
  let description = [{
    `tl.debug_barrier()`.

    ```mlir
    tile.barrier
    ```
  }];
  let assemblyFormat = "attr-dict";
}

class Tile_HintOp<string mnemonic, string what> : Tile_Op<mnemonic,
    [Pure, AllTypesMatch<["src", "result"]>]> {
  let summary = what;
  let arguments = (ins Tile_IntOrPtrLike:$src, DenseI32ArrayAttr:$values);
  let results = (outs Tile_IntOrPtrLike:$result);
  let assemblyFormat = "$src `,` $values attr-dict `:` type($src)";
  let hasVerifier = 1;
}

def Tile_MultipleOfOp : Tile_HintOp<"multiple_of",
    "assert that values are multiples of the given divisors"> {
  let description = [{
    `tl.multiple_of(x, 16)`: one divisor per dimension (one for a scalar).
    On pointers the divisor is the address's, in bytes (as the axis
    analysis tracks pointers). Seeds the axis analysis; erased during
    lowering.

    ```mlir
    %o = tile.multiple_of %x, [16] : tensor<1024xi32>
    ```
  }];
}

def Tile_MaxContiguousOp : Tile_HintOp<"max_contiguous",
    "assert runs of consecutive values"> {
  let description = [{
    `tl.max_contiguous(x, 1024)`: one run length per dimension.

    ```mlir
    %o = tile.max_contiguous %x, [1024] : tensor<1024xi32>
    ```
  }];
}

def Tile_MaxConstancyOp : Tile_HintOp<"max_constancy",
    "assert runs of equal values"> {
  let description = [{
    `tl.max_constancy(x, 16)`: one run length per dimension: along each,
    aligned runs of that many elements hold one value (e.g. `offs // 16`).

    ```mlir
    %o = tile.max_constancy %x, [16, 1] : tensor<64x32xi32>
    ```
  }];
}

def Tile_PrintOp : Tile_Op<"print", [MemoryEffects<[MemWrite]>]> {
  let summary = "device-side print (tl.device_print)";
  let description = [{
    Prints the prefix and the values from every thread that owns them;
    with `hex`, each value's bits in hexadecimal, zero-padded to its width
    (`0x%08x` for 32 bits, `0x%016llx` for 64).

    ```mlir
    tile.print "x = " %x : tensor<128xf32>
    ```
  }];
  let arguments = (ins StrAttr:$prefix, UnitAttr:$hex, Variadic<Tile_Value>:$args);
  let assemblyFormat = "$prefix (`hex` $hex^)? ($args^ `:` type($args))? attr-dict";
}

def Tile_AssertOp : Tile_Op<"assert", [MemoryEffects<[MemWrite]>]> {
  let summary = "device-side assertion (tl.device_assert)";
  let description = [{
    Every thread whose elements of `condition` include a false one calls
    CUDA's `__assertfail` with `message` and the op's source location
    (file, line, enclosing function): the kernel stops with an error the
    host sees at the next synchronization. The frontend emits it only when
    debugging is enabled.

    ```mlir
    tile.assert %c, "x must be positive" : tensor<128xi1>
    ```
  }];
  let arguments = (ins Tile_BoolLike:$condition, StrAttr:$message);
  let assemblyFormat = "$condition `,` $message attr-dict `:` type($condition)";
}

include "kiln/Dialect/Tile/IR/TileMathOps.td"
include "kiln/Dialect/Tile/IR/TileAsyncOps.td"

#endif // KILN_TILE_OPS

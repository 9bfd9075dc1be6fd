#ifndef KILN_TILE_TRANSFORMS_PASSES
#define KILN_TILE_TRANSFORMS_PASSES

include "mlir/Pass/PassBase.td"

def TileAssignLayouts : Pass<"tile-assign-layouts", "mlir::ModuleOp"> {
  let summary = "give every tensor a distributed (#tile.blocked / #tile.slice) layout";
  let description = [{
    Chooses, for every tensor value of each function, how its elements are
    spread over the threads of a program, from the module's `tile.num_warps`
    attribute, the tensor shapes, the element widths of the memory accesses
    (aiming at 128 bits per thread) and the axis analysis (the most
    contiguous dimension of pointer tensors varies fastest).

    Layouts are solved as constraints: elementwise operands and results,
    loop-carried values and branch results share a layout; a reduction's
    result is `#tile.slice<dim = axis, parent = operand layout>`, and an
    `expand_dims` operand is the slice of its result's layout. Values whose
    constraints conflict get a `tile.convert_layout`.
  }];
  let dependentDialects = ["::kiln::tile::TileDialect"];
  let options = [
    Option<"numWarps", "num-warps", "unsigned", /*default=*/"0",
           "warps per program (0: the module's tile.num_warps, else 4)">
  ];
}

def TileUnrollLoops : Pass<"tile-unroll-loops", "mlir::ModuleOp"> {
  let summary = "unroll the loops `tl.range(..., loop_unroll_factor=N)` marks";
  let description = [{
    A `scf.for` the frontend marked `tile.loop_unroll_factor = N` (Triton's
    `loop_unroll_factor` of `tl.range`) steps N iterations at a time over the
    largest multiple of N iterations its bounds give at run time, its body
    repeated N times; a copy of the original loop runs the remaining
    iterations. The attribute is removed either way. Runs first in the
    backend, as Triton unrolls before software pipelining: the repeated
    bodies let the scheduler overlap one iteration's loads with another's
    arithmetic where nothing is pipelined (vLLM's prefix-prefill K-cache
    loop, `loop_unroll_factor=4` at `num_stages=1`).

    ```mlir
    scf.for %i = %c0 to %n step %c32 { ... } {tile.loop_unroll_factor = 4 : i32}
    // becomes
    scf.for %i = %c0 to %n4 step %c128 { ...; ...; ...; ... }
    scf.for %i = %n4 to %n step %c32 { ... }
    ```
  }];
  let dependentDialects = ["::mlir::scf::SCFDialect", "::mlir::arith::ArithDialect"];
}

def TileFoldDotAdd : Pass<"tile-fold-dot-add", "mlir::ModuleOp"> {
  let summary = "fold `c + tl.dot(a, b)` into `tl.dot(a, b, c)`";
  let description = [{
    An `arith.addf` of a `tile.dot` result whose accumulator is zero (and
    which nothing else uses) becomes that dot with the addend as
    accumulator: the tensor cores add it for free (no separate zero
    accumulator, no second tensor of registers), as in attention's
    `acc = acc * alpha[:, None] + tl.dot(p, v)`. An `arith.addi` of an int8
    dot's int32 result folds the same way (`acc += tl.dot(a, b)` of a
    quantized GEMM), exactly: the int32 sums wrap.
  }];
  let dependentDialects = ["::kiln::tile::TileDialect"];
}

def TileSinkTransIntoLoad : Pass<"tile-sink-trans-into-load", "mlir::ModuleOp"> {
  let summary = "load a transposed tensor through transposed pointers: `trans(load(p)) -> load(trans(p))`";
  let description = [{
    A `tile.trans` whose operand is a `tile.load` of a tensor of pointers
    (used only by the transpose) becomes a load of the transposed pointer,
    mask and `other` tensors. The loaded values are the same; what changes is
    that the load itself now has the consumer's shape, so that the layout
    pass picks its access order from the pointers' contiguity and a dot
    operand read as `desc.load([...]).T` or `tl.load(p).T` (the
    fused-attention tutorial's K) is pipelined into a transposed shared-memory
    slot that the tensor cores read directly, instead of being loaded, moved
    through registers and staged again every iteration. Loads of block
    pointers and volatile loads are left alone.

    ```mlir
    %k = tile.load %p, mask %m : tensor<64x128x!tile.ptr<f16>>
    %kt = tile.trans %k, [1, 0] : tensor<64x128xf16> -> tensor<128x64xf16>
    // becomes
    %pt = tile.trans %p, [1, 0] : tensor<64x128x!tile.ptr<f16>> -> tensor<128x64x!tile.ptr<f16>>
    %mt = tile.trans %m, [1, 0] : tensor<64x128xi1> -> tensor<128x64xi1>
    %kt = tile.load %pt, mask %mt : tensor<128x64x!tile.ptr<f16>>
    ```
  }];
  let dependentDialects = ["::kiln::tile::TileDialect"];
}

def TileDecomposeBatchedDot
    : Pass<"tile-decompose-batched-dot", "mlir::ModuleOp"> {
  let summary = "split 3-D (batched) tile.dot ops into one 2-D product per batch entry";
  let description = [{
    `tl.dot` on `B x M x K` and `B x K x N` operands (Triton's batched
    product) becomes `B` two-dimensional `tile.dot`s, which layout
    assignment and the tensor-core lowering handle as any other. The batch
    dimension is moved last (`tile.trans`) and halved until single entries
    remain (`tile.reshape` to `... x B/2 x 2`, `tile.split`); the products
    are joined back the same way (`tile.join`, `tile.reshape`) and the
    batch dimension moved first again. Runs before layout assignment: a
    3-D `tile.dot` has no layouts.

    ```mlir
    %d = tile.dot %a, %b, %c : tensor<2x16x32xf16>, tensor<2x32x16xf16> -> tensor<2x16x16xf32>
    ```
    becomes two `tensor<16x32xf16>, tensor<32x16xf16> -> tensor<16x16xf32>`
    products of the split operands.
  }];
  let dependentDialects = ["::kiln::tile::TileDialect"];
}

def TileNarrowBeforeShapeOps
    : Pass<"tile-narrow-before-shape-ops", "mlir::ModuleOp"> {
  let summary = "convert to a narrower type before `tile.reshape`, `tile.trans` and `tile.split`";
  let description = [{
    An `arith.truncf` / `arith.trunci` that is the only user of a
    `tile.reshape` or `tile.trans` result, or of both `tile.split` results
    alike, moves before the shape op, which then moves the narrow values.
    The conversions are the same in number; what a shape op costs (a layout
    change through shared memory when registers cannot be relabelled) falls
    with the element width: tutorial 09's `EPILOGUE_SUBTILE` epilogue
    (`reshape`, `permute`, `split` of the fp32 accumulator, then `.to(fp8)`)
    moved 128 KB of fp32 through shared memory per 128 x 256 tile and left
    no room to start the next tile's copies or store by TMA; in fp8 it moves
    32 KB. Runs before layout assignment.

    ```mlir
    %r = tile.reshape %acc : tensor<128x256xf32> -> tensor<128x2x128xf32>
    %t = tile.trans %r, [0, 2, 1] : tensor<128x2x128xf32> -> tensor<128x128x2xf32>
    %lhs, %rhs = tile.split %t : tensor<128x128x2xf32> -> tensor<128x128xf32>
    %c0 = arith.truncf %lhs : tensor<128x128xf32> to tensor<128x128xf8E4M3FN>
    %c1 = arith.truncf %rhs : tensor<128x128xf32> to tensor<128x128xf8E4M3FN>
    // becomes
    %n = arith.truncf %acc : tensor<128x256xf32> to tensor<128x256xf8E4M3FN>
    %r = tile.reshape %n : tensor<128x256xf8E4M3FN> -> tensor<128x2x128xf8E4M3FN>
    %t = tile.trans %r, [0, 2, 1] : tensor<128x2x128xf8E4M3FN> -> tensor<128x128x2xf8E4M3FN>
    %c0, %c1 = tile.split %t : tensor<128x128x2xf8E4M3FN> -> tensor<128x128xf8E4M3FN>
    ```
  }];
  let dependentDialects = ["::kiln::tile::TileDialect"];
}

def TilePadSmallDot : Pass<"tile-pad-small-dot", "mlir::ModuleOp"> {
  let summary = "pad 2-D tile.dot ops with M or N below 16 to the mma tile";
  let description = [{
    Triton 3.6 accepts `tl.dot` with M and N down to 1 (K at least 16, 32
    for 8-bit operands) and pads to the tensor-core tile. Here A's rows are
    repeated up to 16 (row r is row r % M), B's columns likewise up to 16,
    and the accumulator both ways (`tile.reshape` + `tile.broadcast`); the
    padded product's first M rows and N columns are the result (taken with
    `tile.trans`, `tile.reshape` and `tile.split`). Runs after
    `--tile-decompose-batched-dot`, before layout assignment.

    ```mlir
    %d = tile.dot %a, %b, %c : tensor<4x32xf16>, tensor<32x8xf16> -> tensor<4x8xf32>
    ```
    becomes a `tensor<16x32xf16>, tensor<32x16xf16> -> tensor<16x16xf32>`
    product of the repeated operands, sliced back to `tensor<4x8xf32>`.
  }];
  let dependentDialects = ["::kiln::tile::TileDialect"];
}

def TileRemoveLayoutConversions
    : Pass<"tile-remove-layout-conversions", "mlir::ModuleOp"> {
  let summary = "remove tile.convert_layout ops that are not needed";
  let description = [{
    Folds conversions to the same layout and chains of conversions, and
    rematerializes cheap producers (constants, splats, aranges and
    elementwise ops of them) directly in the layout a conversion asks for,
    so the data never goes through shared memory. The conversions left are
    made smaller and rarer: one of a broadcast or an expand_dims converts the
    smaller operand; one of an elementwise op read by nothing else converts
    its operands when those conversions shrink or vanish; one of a value from
    outside its loops moves before them; and a loop-carried tensor read
    only through one conversion and advanced by a cheap `tile.addptr` is
    carried in the converted layout (converted once before the loop).
  }];
  let dependentDialects = ["::kiln::tile::TileDialect"];
}

def TilePipelineLoops : Pass<"tile-pipeline-loops", "mlir::ModuleOp"> {
  let summary = "software-pipeline the loads that feed tl.dot in scf.for loops";
  let description = [{
    A loop whose f16/bf16 `tile.load`s feed only `tile.dot` operands (the
    matmul K loop) gets `num_stages` shared-memory slots per operand: the
    loads of the first `num_stages - 1` iterations are started before the
    loop (`tile.async_copy`, one `tile.async_commit` group per iteration),
    and each iteration waits for its own group, starts the loads of the
    iteration `num_stages - 1` ahead into the slot the previous iteration
    has just read, and computes on its slot (`tile.local_load`), so the
    global-memory latency overlaps `num_stages - 1` iterations of products.

    `num_stages` is the loop's `tile.num_stages` attribute (`tl.range(...,
    num_stages=)`), else the module's (the launch's `num_stages`), else 3;
    fewer when the slots would not fit the target's shared memory; 1 leaves
    the loop alone. A loop is left alone too when the pointers or masks of
    those loads depend on anything but the induction variable, values from
    outside the loop and loop-carried values updated only from those (as
    `ptrs += BLOCK_K * stride`), when such a loop-carried value is used by
    anything else, or when a load's `other` is not zero.
  }];
  let dependentDialects = ["::kiln::tile::TileDialect", "::mlir::scf::SCFDialect",
                           "::mlir::arith::ArithDialect", "::mlir::LLVM::LLVMDialect"];
  let options = [
    Option<"numStages", "num-stages", "unsigned", /*default=*/"0",
           "buffers per pipelined load (0: the loop's or module's tile.num_stages, else 3)">,
    Option<"useTma", "tma", "bool", /*default=*/"true",
           "copy 2-D host descriptor blocks with TMA on sm_90 (else cp.async)">,
    Option<"acrossTiles", "across-tiles", "bool", /*default=*/"true",
           "start the prologue of a K loop's next run in an outer loop (a "
           "persistent kernel's next tile) before the current run's epilogue">
  ];
}

def TileShareDotOperands : Pass<"tile-share-dot-operands", "mlir::ModuleOp"> {
  let summary = "store a tile that several mma.sync dots read once, in a slot they all read";
  let description = [{
    A `tile.dot` on mma.sync stages each f16/bf16 operand in its own layout
    through the scratch (two barriers and a store per dot). A 2-D tile that
    two such staged operands or more read (as A, or through a `tile.trans`
    as B: fla's kkt solve multiplies each key block with the others'
    transposes), or that a dot reads in a loop the tile is made outside of,
    is stored once into a one-slot buffer of its own (`tile.local_alloc`,
    `tile.local_store`) right before the first op that holds such a dot, and
    its dots read it there with ldmatrix (`tile.local_load`, through a
    transpose that keeps every element in its thread). Tiles made by then
    share the store point: one `tile.barrier` after their stores, and one
    before unless the barrier of an earlier such group of the same loop
    iteration already orders them after every earlier read of the slots. A
    tile read twice is chosen only when some dot then stages nothing; none
    when the slots would cost the kernel a program per SM. Runs after
    `--tile-pipeline-loops` (dots reading its slots stage nothing); dots of
    warp-group layouts (wgmma) are left alone.

    ```mlir
    %k = tile.load %p : tensor<16x32x!tile.ptr<bf16>, #blocked> -> ...
    // becomes, before the first dot reading %k:
    tile.barrier
    tile.local_store %k into %buf[%c0] : ... -> !tile.smem<1x16x32xbf16>
    tile.barrier
    %ks = tile.local_load %buf[%c0] : !tile.smem<1x16x32xbf16> -> tensor<16x32xbf16, #blocked>
    %kt = tile.trans %ks {order = array<i32: 1, 0>} : ...
    %a = tile.dot %ks, %kt, %acc : ...
    ```
  }];
  let dependentDialects = ["::kiln::tile::TileDialect", "::mlir::arith::ArithDialect"];
}

def TileTmaStores : Pass<"tile-tma-stores", "mlir::ModuleOp"> {
  let summary = "store 2-D descriptor blocks in loops with TMA on sm_90";
  let description = [{
    A `tile.store` of a 2-D descriptor block (`desc.store`) inside a loop,
    whose block a slot can hold (f16, bf16, f32 or fp8; the TMA box limits)
    and whose rows are proven to end on a 16-byte chunk (the TMA unit
    writes whole chunks), writes its value into a shared-memory slot
    (`tile.local_store`, in the value's own layout: a layout conversion
    made only for the store is skipped) and stores the slot with
    `tile.tma_store`. The stores under one op of the kernel's body (a
    persistent kernel's loop over tiles) get a slot each, allocated before
    that op, and stay in flight until the slot is written again
    (`tile.tma_store_wait`); after the op the program waits for them all.
    Made only when the slots fit the target's shared memory beside what is
    live with them and cost no program per SM; runs after
    `--tile-pipeline-loops`, whose slots it counts. Nothing happens below
    sm_90 or when the module has `tile.no_tma`.
  }];
  let dependentDialects = ["::kiln::tile::TileDialect", "::mlir::arith::ArithDialect",
                           "::mlir::LLVM::LLVMDialect"];
}

def TileRebaseCopyPointers : Pass<"tile-rebase-copy-pointers", "mlir::ModuleOp"> {
  let summary = "carry a pipelined loop's copy pointers as invariant bases plus one offset";
  let description = [{
    In a loop with `tile.async_copy` ops (a pipelined loop), every
    loop-carried pointer tensor advanced by a loop-invariant splat step
    (`p = phi(p0, p + splat(s))`) becomes its initial value plus a splat of
    one loop-carried i64 offset (`o = phi(0, o + s)`, `p = p0 + splat(o)`),
    the form Triton's LLVM loop strength reduction gives: no per-element
    pointer is carried, so none is rotated through a second register while
    its copy reads the old value. Runs after `--tile-pipeline-loops`.

    ```mlir
    // before
    %r = scf.for %i = %lb to %ub step %c1 iter_args(%p = %p0) -> (tensor<64x64x!tile.ptr<f16>>) {
      tile.async_copy %p, mask %m into %slots[%s] : ...
      %next = tile.addptr %p, %cst_64 : tensor<64x64x!tile.ptr<f16>>, tensor<64x64xi32>
      scf.yield %next : tensor<64x64x!tile.ptr<f16>>
    }
    // after
    %r = scf.for %i = %lb to %ub step %c1 iter_args(%o = %c0_i64) -> (i64) {
      %off = tile.splat %o : i64 -> tensor<64x64xi64>
      %p = tile.addptr %p0, %off : tensor<64x64x!tile.ptr<f16>>, tensor<64x64xi64>
      tile.async_copy %p, mask %m into %slots[%s] : ...
      %o1 = arith.addi %o, %c64_i64 : i64
      scf.yield %o1 : i64
    }
    ```
  }];
  let dependentDialects = ["::kiln::tile::TileDialect", "::mlir::scf::SCFDialect",
                           "::mlir::arith::ArithDialect"];
}

def TileTestAxisInfo : Pass<"tile-test-axis-info", "mlir::ModuleOp"> {
  let summary = "print the axis analysis of every integer / pointer value as remarks";
  let description = [{
    Test pass for lit: each operation result of integer, pointer or i1
    (tensor) type gets a remark `contiguity = [..], divisibility = [..],
    constancy = [..]`; loads and stores get one with their vector width.
  }];
}

#endif

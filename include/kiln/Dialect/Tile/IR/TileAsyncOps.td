//===- TileAsyncOps.td - Shared-memory buffers and async copies -*- tablegen -*-===//
//
// The ops --tile-pipeline-loops writes when it software-pipelines the loads
// that feed tl.dot in a loop: the frontend never makes them. Included by
// TileOps.td (one generated op list for the dialect).
//
//===----------------------------------------------------------------------===//

//===----------------------------------------------------------------------===//
// Shared-memory buffers and asynchronous copies (software pipelining)
//===----------------------------------------------------------------------===//

def Tile_LocalAllocOp : Tile_Op<"local_alloc", [MemoryEffects<[MemAlloc]>]> {
  let summary = "allocate a multi-buffered shared-memory tile";
  let description = [{
    Shared memory for `numSlots` copies of one tile, live for the whole
    kernel (the lowering gives each allocation its own bytes after the
    scratch area that other ops reuse). See `!tile.smem` for the swizzled
    layout of a slot.

    ```mlir
    %buf = tile.local_alloc : !tile.smem<3x128x32xf16>
    ```
  }];
  let results = (outs Tile_SharedMemory:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
}

def Tile_AsyncCopyOp : Tile_Op<"async_copy", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "start copying a tile from global memory into a shared-memory slot";
  let description = [{
    Every element `p[i, j]` of the pointer tensor is copied to element
    `(i, j)` of slot `slot` of `buffer` without going through registers
    (`cp.async`, in runs of 4, 8 or 16 bytes as the axis analysis proves
    them contiguous and aligned; a synchronous load and store when it proves
    nothing). Elements whose mask is false become zero. The copy is only
    started: it belongs to the thread's current group (`tile.async_commit`)
    and is visible to the program after a `tile.async_wait` that covers
    its group.

    ```mlir
    tile.async_copy %ptrs, mask %m into %buf[%slot]
        : tensor<128x32x!tile.ptr<f16>, #blocked> -> !tile.smem<3x128x32xf16>
    ```
  }];
  let arguments = (ins Tile_PtrTensor:$ptr, Optional<RankedTensorOf<[I1]>>:$mask,
                       Tile_SharedMemory:$buffer, I32:$slot);
  let assemblyFormat = [{
    $ptr (`,` `mask` $mask^)? `into` $buffer `[` $slot `]` attr-dict `:` type($ptr)
    (`,` type($mask)^)? `->` type($buffer)
  }];
  let hasVerifier = 1;
}

def Tile_LocalStoreOp : Tile_Op<"local_store", [MemoryEffects<[MemWrite]>]> {
  let summary = "write a tile held in registers into a shared-memory slot";
  let description = [{
    Element `(i, j)` of `value` goes to element `(i, j)` of slot `slot` of
    `buffer`, in the slot's swizzled layout (`st.shared`, one store per run
    of registers contiguous along the stored row). The write is synchronous;
    like the copies, it is visible to the other threads of the program after
    the next `tile.async_wait` (or barrier). The pipeliner uses it for dot
    operands whose rows cannot be copied with `cp.async` (not proven 4-byte
    aligned): their `tile.load`s stay where the program issues them, before
    the barrier that frees the slot, so that their latency overlaps it.

    ```mlir
    tile.local_store %a into %buf[%slot]
        : tensor<128x64xf16, #blocked> -> !tile.smem<1x128x64xf16>
    ```
  }];
  let arguments = (ins RankedTensorOf<[AnyFloat, AnySignlessInteger]>:$value, Tile_SharedMemory:$buffer,
                       I32:$slot);
  let assemblyFormat = [{
    $value `into` $buffer `[` $slot `]` attr-dict `:` type($value) `->` type($buffer)
  }];
  let hasVerifier = 1;
}

def Tile_AsyncCommitOp : Tile_Op<"async_commit", [MemoryEffects<[MemWrite]>]> {
  let summary = "close the thread's current group of asynchronous copies";
  let description = [{
    `cp.async.commit_group`: the copies started since the last commit form
    one group that `tile.async_wait` counts. An empty group is allowed (the
    pipelined loop commits one per iteration, so that the counts stay
    uniform at its tail).

    ```mlir
    tile.async_commit
    ```
  }];
  let assemblyFormat = "attr-dict";
}

def Tile_AsyncWaitOp : Tile_Op<"async_wait", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "wait for asynchronous copies, then synchronize the program";
  let description = [{
    Waits until at most `pending` of the thread's most recent copy groups
    are still in flight (`cp.async.wait_group`), then synchronizes the
    threads of the program (`bar.sync`), so that every thread's completed
    copies are visible to all, and every read of a slot before the wait is
    done before any copy started after it overwrites the slot.

    ```mlir
    tile.async_wait {pending = 1 : i32}
    ```
  }];
  let arguments = (ins ConfinedAttr<I32Attr, [IntNonNegative]>:$pending);
  let assemblyFormat = "attr-dict";
}

def Tile_LocalLoadOp : Tile_Op<"local_load", [MemoryEffects<[MemRead]>]> {
  let summary = "read a tile from a shared-memory slot";
  let description = [{
    The tile in slot `slot` of `buffer`, in the result's layout. A
    `tile.dot` whose operand is a `tile.local_load` reads its fragments
    from the slot with `ldmatrix` right before the products that use them,
    instead of through the result's registers.

    ```mlir
    %a = tile.local_load %buf[%slot] : !tile.smem<3x128x32xf16> -> tensor<128x32xf16, #blocked>
    ```
  }];
  let arguments = (ins Tile_SharedMemory:$buffer, I32:$slot);
  let results = (outs RankedTensorOf<[AnyFloat, AnySignlessInteger]>:$result);
  let assemblyFormat = "$buffer `[` $slot `]` attr-dict `:` type($buffer) `->` type($result)";
  let hasVerifier = 1;
}

def Tile_DotWaitOp : Tile_Op<"dot_wait", [MemoryEffects<[MemRead, MemWrite]>,
                                          AllTypesMatch<["inputs", "outputs"]>]> {
  let summary = "wait for the asynchronous tile.dot products still in flight";
  let description = [{
    A pipelined loop leaves the products of its last iteration in flight
    (a `tile.dot` with `tile.wgmma_pending = 1` waits only for the groups
    before its own): the accumulators the loop yields pass through this op
    before anything reads them (`wgmma.wait_group 0` on sm_90; nothing
    where the dots ran synchronously).

    ```mlir
    %acc = tile.dot_wait %loop#0 : tensor<128x128xf32, #mma>
    ```
  }];
  let arguments = (ins Variadic<RankedTensorOf<[AnyFloat, AnySignlessInteger]>>:$inputs);
  let results = (outs Variadic<RankedTensorOf<[AnyFloat, AnySignlessInteger]>>:$outputs);
  let assemblyFormat = "$inputs attr-dict `:` type($inputs)";
}

//===----------------------------------------------------------------------===//
// TMA copies (sm_90): host tensor descriptors into slots with mbarriers
//===----------------------------------------------------------------------===//

def Tile_TmaCopyOp : Tile_Op<"tma_copy", [AttrSizedOperandSegments,
                                           MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "start a TMA copy of a descriptor block into a shared-memory slot";
  let description = [{
    When `pred` holds, one thread of the program announces the slot's bytes
    on the slot's mbarrier (`mbarrier.arrive.expect_tx`) and starts the copy
    of the block at `coords` (one per dimension of the descriptor, 2 to 5,
    outermost first, as the kernel's `desc.load` gave them; the unit
    dimensions of a squeezed block add no bytes) of the tensor that `tensorMap` (the
    address of a `CUtensorMap` kernel parameter, an `!llvm.ptr`) describes:
    `cp.async.bulk.tensor`, one per panel of at most 128 bytes of a row,
    with the slot's swizzle. Elements outside the tensor read as the
    descriptor's padding. The copy is visible to the program after a
    `tile.tma_wait` on the slot.

    With `arrive %owner`, the copy announces its bytes on the mbarrier of
    the same slot of `owner` instead (a buffer without mbarriers of its own):
    the blocks a pipelined loop copies in one iteration land on one barrier,
    whose `tile.tma_init` counts their arrivals, and the loop waits once.

    ```mlir
    tile.tma_copy %map[%row, %col] into %buf[%slot] if %inRange
        : !llvm.ptr -> !tile.smem<3x64x64xf16, barriers>
    tile.tma_copy %mapB[%k, %col] into %bufB[%slot] arrive %buf if %inRange
        : !llvm.ptr -> !tile.smem<3x64x128xf16>, !tile.smem<3x64x64xf16, barriers>
    ```
  }];
  let arguments = (ins AnyType:$tensorMap, Variadic<I32>:$coords, Tile_SharedMemory:$buffer,
                       I32:$slot, Optional<Tile_SharedMemory>:$owner, I1:$pred);
  let assemblyFormat = [{
    $tensorMap `[` $coords `]` `into` $buffer `[` $slot `]` (`arrive` $owner^)? `if` $pred
    attr-dict `:` type($tensorMap) `->` type($buffer) (`,` type($owner)^)?
  }];
  let hasVerifier = 1;
}

def Tile_TensormapCreateOp : Tile_Op<"tensormap_create", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "build a TMA tensor map in global scratch for a descriptor made in the kernel";
  let description = [{
    Builds the 128-byte tensor map of the 2-D tensor at `base` (`rows` x
    `cols` elements, `stride` elements from one row to the next) in bytes
    [`offset`, `offset` + 128) of the program's part of the kernel's global
    scratch (`scratch`, the `tile.global_scratch` argument: the part of
    program `p`, linearized x-fastest, starts at `p` times the bytes per
    program that the argument's attribute gives). `box` is one copy's rows
    and columns, `swizzle` its bytes (0, 32, 64 or 128) and `nanFill` fills
    elements outside the tensor with NaN instead of zero, as the runtime
    encodes a host descriptor's map. The map is staged in the shared
    scratch (the op is a scratch user) and copied to global memory by warp
    0, which then acquires it for thread 0's TMA copies (the tensormap
    proxy fences); the result is its generic address, for `tile.tma_copy`.

    ```mlir
    %map = tile.tensormap_create %scratch, %base, %rows, %cols, %stride
        {offset = 0 : i64, box = array<i64: 128, 64>, swizzle = 128 : i64}
        : !llvm.ptr, !tile.ptr<f16> -> !llvm.ptr
    ```
  }];
  let arguments = (ins AnyType:$scratch, Tile_Ptr:$base, I32:$rows, I32:$cols, I64:$stride,
                       I64Attr:$offset, DenseI64ArrayAttr:$box, I64Attr:$swizzle,
                       UnitAttr:$nanFill);
  let results = (outs AnyType:$result);
  let assemblyFormat = [{
    $scratch `,` $base `,` $rows `,` $cols `,` $stride attr-dict `:` type($scratch) `,`
    type($base) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Tile_TmaWaitOp : Tile_Op<"tma_wait", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "wait until a slot's TMA copy has landed";
  let description = [{
    Every thread waits until the mbarrier of slot `slot` has completed the
    phase of parity `phase` (`mbarrier.try_wait.parity`): the slot's `k`-th
    fill (from 0) completes the phase of parity `k % 2`.

    ```mlir
    tile.tma_wait %buf[%slot], phase %parity : !tile.smem<3x64x64xf16, barriers>
    ```
  }];
  let arguments = (ins Tile_SharedMemory:$buffer, I32:$slot, I32:$phase);
  let assemblyFormat = "$buffer `[` $slot `]` `,` `phase` $phase attr-dict `:` type($buffer)";
  let hasVerifier = 1;
}

def Tile_TmaInitOp : Tile_Op<"tma_init", [MemoryEffects<[MemWrite]>]> {
  let summary = "initialize the mbarriers of a TMA-filled buffer";
  let description = [{
    One thread initializes each slot's mbarrier for `arrivals` arrivals (the
    copies that fill the slot in one phase: the buffer's own and those of
    the buffers whose copies `arrive` on it; each copy arrives once, from
    the thread that starts it), then the program synchronizes
    (`fence.mbarrier_init` and `bar.sync`), so that no copy or wait sees a
    barrier before its initialization. Placed before the first copy into the
    buffer; `tile.tma_inval` ends the barriers' life.

    ```mlir
    tile.tma_init %buf : !tile.smem<3x64x64xf16, barriers>
    tile.tma_init %buf {arrivals = 2 : i64} : !tile.smem<3x64x64xf16, barriers>
    ```
  }];
  let arguments = (ins Tile_SharedMemory:$buffer,
                       DefaultValuedAttr<I64Attr, "1">:$arrivals);
  let assemblyFormat = "$buffer attr-dict `:` type($buffer)";
  let hasVerifier = 1;
}

def Tile_TmaInvalOp : Tile_Op<"tma_inval", [MemoryEffects<[MemWrite]>]> {
  let summary = "invalidate the mbarriers of a TMA-filled buffer";
  let description = [{
    After every copy into the buffer has been waited for: the program
    synchronizes (no thread still polls a barrier), then one thread
    invalidates each mbarrier (`mbarrier.inval`), so that the bytes may be
    reused (by other scratch, or by `tile.tma_init` when the loop runs
    again).

    ```mlir
    tile.tma_inval %buf : !tile.smem<3x64x64xf16, barriers>
    ```
  }];
  let arguments = (ins Tile_SharedMemory:$buffer);
  let assemblyFormat = "$buffer attr-dict `:` type($buffer)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// TMA stores (sm_90): descriptor blocks written from a shared-memory slot
//===----------------------------------------------------------------------===//

def Tile_TmaStoreOp : Tile_Op<"tma_store", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "start a TMA store of a shared-memory slot to a descriptor block";
  let description = [{
    Every thread orders its writes of the slot before the async proxy's
    reads (`fence.proxy.async.shared::cta`), the program synchronizes, and
    one thread starts the store of slot `slot` of `buffer` to the block at
    `coords` (outermost first, one per dimension of the descriptor, 2 to 5:
    a block of rank 3 to 5 whose unit dimensions the slot drops) of the
    tensor that `tensorMap` describes:
    `cp.async.bulk.tensor` per panel of at most 128 bytes of a row, with the
    slot's swizzle, committed as one bulk group. Elements outside the tensor
    are not written. The slot may be written again only after a
    `tile.tma_store_wait` that covers the group.

    ```mlir
    tile.tma_store %buf[%c0] to %map[%row, %col]
        : !tile.smem<1x128x256xf16> -> !llvm.ptr
    ```
  }];
  let arguments = (ins Tile_SharedMemory:$buffer, I32:$slot, AnyType:$tensorMap,
                       Variadic<I32>:$coords);
  let assemblyFormat = [{
    $buffer `[` $slot `]` `to` $tensorMap `[` $coords `]` attr-dict `:` type($buffer) `->`
    type($tensorMap)
  }];
  let hasVerifier = 1;
}

def Tile_TmaStoreWaitOp : Tile_Op<"tma_store_wait", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "wait until the TMA stores have read their slots";
  let description = [{
    Waits until at most `pending` of the bulk groups that the program's
    `tile.tma_store`s committed have not yet read their slots
    (`cp.async.bulk.wait_group.read`); no barrier. `buffers` are the slots'
    buffers, which stay allocated through the wait. The stores' writes to
    global memory may still be in flight.

    ```mlir
    tile.tma_store_wait 0, %buf : !tile.smem<1x128x256xf16>
    ```
  }];
  let arguments = (ins I64Attr:$pending, Variadic<Tile_SharedMemory>:$buffers);
  let assemblyFormat = "$pending (`,` $buffers^ `:` type($buffers))? attr-dict";
  let hasVerifier = 1;
}

// RUN: kiln-opt %s --split-input-file --tile-to-llvm | FileCheck %s

// The spin lock: `while atomic_cas(lock, 0, 1) == 1`. Each attempt waits at
// a barrier, thread 0 alone runs the CAS, stores the old value to shared
// memory, and after a second barrier every thread reads it, so all threads
// leave the loop together.
// CHECK: tile.shared_bytes = 16 : i32
// CHECK-LABEL: llvm.func @spin_lock
// CHECK: llvm.br ^[[LOOP:bb[0-9]+]]
// CHECK: ^[[LOOP]]:
// CHECK: nvvm.barrier0
// CHECK: %[[T0:.*]] = llvm.icmp "eq" %{{.*}}, %{{.*}} : i32
// CHECK: %[[OLD:.*]] = llvm.inline_asm has_side_effects asm_dialect = att "@$4 atom.global.acq_rel.gpu.cas.b32 $0, [ $1 + 0 ], $2, $3;", "=r,l,r,r,b" %{{.*}}, %{{.*}}, %{{.*}}, %[[T0]] : (!llvm.ptr<1>, i32, i32, i1) -> i32
// CHECK: llvm.cond_br %{{.*}}, ^[[WRITE:bb[0-9]+]], ^[[READ:bb[0-9]+]]
// CHECK: ^[[WRITE]]:
// CHECK: llvm.store %[[OLD]], %{{.*}} : i32, !llvm.ptr<3>
// CHECK: ^[[READ]]:
// CHECK-NEXT: nvvm.barrier0
// CHECK: %[[SEEN:.*]] = llvm.load %{{.*}} : !llvm.ptr<3> -> i32
// CHECK: %[[BUSY:.*]] = llvm.icmp "eq" %[[SEEN]], %{{.*}} : i32
// CHECK: llvm.cond_br %[[BUSY]], ^[[LOOP]], ^[[DONE:bb[0-9]+]]
// The release: a barrier (debug_barrier), then the atomic's own, then the
// exchange by thread 0; its result is unused, so no shared memory.
// CHECK: ^[[DONE]]:
// CHECK: nvvm.barrier0
// CHECK: nvvm.barrier0
// CHECK: "@$3 atom.global.gpu.acq_rel.exch.b32 $0, [ $1 + 0 ], $2;", "=r,l,r,b"
// CHECK-NOT: nvvm.barrier0
// CHECK: llvm.return
module attributes {tile.num_warps = 4 : i32} {
  func.func @spin_lock(%lock: !tile.ptr<i32>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    scf.while : () -> () {
      %old = tile.atomic_cas %lock, %c0, %c1 : !tile.ptr<i32>
      %busy = arith.cmpi eq, %old, %c1 : i32
      scf.condition(%busy)
    } do {
      scf.yield
    }
    tile.barrier
    %r = tile.atomic_rmw xchg %lock, %c0 : !tile.ptr<i32>
    return
  }
}

// -----

// Tensor atomics: one per element, under its mask and only in the first
// copy of replicated elements (here warps 2 and 3 copy warps 0 and 1). The
// results reach the copies through shared memory.
#b = #tile.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
// CHECK: tile.shared_bytes = 256 : i32
// CHECK-LABEL: llvm.func @tensor_add
// CHECK: %[[OWNER:.*]] = llvm.icmp "eq"
// CHECK: %[[PRED:.*]] = llvm.and %{{.*}}, %[[OWNER]] : i1
// CHECK: "@$3 atom.global.gpu.acq_rel.add.f32 $0, [ $1 + 0 ], $2;", "=r,l,r,b" %{{.*}}, %{{.*}}, %[[PRED]]
// CHECK: nvvm.barrier0
// CHECK: llvm.store {{.*}} : i32, !llvm.ptr<3>
// CHECK: nvvm.barrier0
// CHECK: llvm.load {{.*}} : !llvm.ptr<3> -> i32
module attributes {tile.num_warps = 4 : i32} {
  func.func @tensor_add(%p: !tile.ptr<f32>, %n: i32, %v: f32) {
    %cols = tile.arange 0 to 64 : tensor<64xi32, #b>
    %ns = tile.splat %n : i32 -> tensor<64xi32, #b>
    %m = arith.cmpi slt, %cols, %ns : tensor<64xi32, #b>
    %p0 = tile.splat %p : !tile.ptr<f32> -> tensor<64x!tile.ptr<f32>, #b>
    %ps = tile.addptr %p0, %cols : tensor<64x!tile.ptr<f32>, #b>, tensor<64xi32, #b>
    %vs = tile.splat %v : f32 -> tensor<64xf32, #b>
    %old = tile.atomic_rmw add %ps, %vs, mask %m : tensor<64x!tile.ptr<f32>, #b>
    tile.store %ps, %old : tensor<64x!tile.ptr<f32>, #b>
    return
  }
}

// -----

// Integer kinds map to PTX's signed max/min and bitwise ops.
// CHECK-LABEL: llvm.func @kinds
// CHECK: atom.global.gpu.acq_rel.max.s32
// CHECK: atom.global.gpu.acq_rel.min.s32
// CHECK: atom.global.gpu.acq_rel.and.b32
// CHECK: atom.global.gpu.acq_rel.or.b32
// CHECK: atom.global.gpu.acq_rel.xor.b32
// CHECK: atom.global.gpu.acq_rel.add.u64
module attributes {tile.num_warps = 1 : i32} {
  func.func @kinds(%p: !tile.ptr<i32>, %q: !tile.ptr<i64>, %v: i32, %w: i64) {
    %a = tile.atomic_rmw max %p, %v : !tile.ptr<i32>
    %b = tile.atomic_rmw min %p, %v : !tile.ptr<i32>
    %c = tile.atomic_rmw and %p, %v : !tile.ptr<i32>
    %d = tile.atomic_rmw or %p, %v : !tile.ptr<i32>
    %e = tile.atomic_rmw xor %p, %v : !tile.ptr<i32>
    %f = tile.atomic_rmw add %q, %w : !tile.ptr<i64>
    return
  }
}

// -----

// sm_90: a floating-point add of proven-contiguous, aligned, equally masked
// elements is one vector atom per 4 f32 (8 f16); the mask of the first
// element guards the group. sm_80 has no vector atom: one per element.
#b4 = #tile.blocked<sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]>
// CHECK-LABEL: llvm.func @vector_add
// CHECK-COUNT-2: "@$9 atom.global.gpu.acq_rel.add.v4.f32 { $0, $1, $2, $3 }, [ $4 + 0 ], { $5, $6, $7, $8 };", "=r,=r,=r,=r,l,r,r,r,r,b"
// CHECK: "@$17 atom.global.gpu.acq_rel.add.noftz.v8.f16 { $0, $1, $2, $3, $4, $5, $6, $7 }, [ $8 + 0 ], { $9, $10, $11, $12, $13, $14, $15, $16 };"
// CHECK-NOT: atom.global
// CHECK: llvm.return
module attributes {tile.num_warps = 1 : i32, tile.arch = "sm_90"} {
  func.func @vector_add(%p: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                        %q: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %n: i32 {tile.divisibility = 16 : i32}) {
    %cols = tile.arange 0 to 256 : tensor<256xi32, #b4>
    %ns = tile.splat %n : i32 -> tensor<256xi32, #b4>
    %m = arith.cmpi slt, %cols, %ns : tensor<256xi32, #b4>
    %p0 = tile.splat %p : !tile.ptr<f32> -> tensor<256x!tile.ptr<f32>, #b4>
    %ps = tile.addptr %p0, %cols : tensor<256x!tile.ptr<f32>, #b4>, tensor<256xi32, #b4>
    %one = arith.constant dense<1.0> : tensor<256xf32, #b4>
    %old = tile.atomic_rmw add %ps, %one, mask %m : tensor<256x!tile.ptr<f32>, #b4>
    %q0 = tile.splat %q : !tile.ptr<f16> -> tensor<256x!tile.ptr<f16>, #b4>
    %qs = tile.addptr %q0, %cols : tensor<256x!tile.ptr<f16>, #b4>, tensor<256xi32, #b4>
    %h = arith.constant dense<1.0> : tensor<256xf16, #b4>
    %oldh = tile.atomic_rmw add %qs, %h, mask %m : tensor<256x!tile.ptr<f16>, #b4>
    return
  }
}

// -----

// CHECK-LABEL: llvm.func @no_vector_add_sm80
// CHECK-COUNT-8: atom.global.gpu.acq_rel.add.f32 $0,
// CHECK-NOT: atom.global
module attributes {tile.num_warps = 1 : i32, tile.arch = "sm_80"} {
  func.func @no_vector_add_sm80(%p: !tile.ptr<f32> {tile.divisibility = 16 : i32}) {
    %cols = tile.arange 0 to 256 : tensor<256xi32, #tile.blocked<sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]>>
    %p0 = tile.splat %p : !tile.ptr<f32> -> tensor<256x!tile.ptr<f32>, #tile.blocked<sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]>>
    %ps = tile.addptr %p0, %cols : tensor<256x!tile.ptr<f32>, #tile.blocked<sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]>>, tensor<256xi32, #tile.blocked<sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]>>
    %one = arith.constant dense<1.0> : tensor<256xf32, #tile.blocked<sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]>>
    %old = tile.atomic_rmw add %ps, %one : tensor<256x!tile.ptr<f32>, #tile.blocked<sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]>>
    return
  }
}

// -----

// Triton's sem / scope become the atom's ordering and scope; float max,
// unsigned min.
// CHECK-LABEL: llvm.func @ordering
// CHECK: atom.global.gpu.relaxed.add.f32
// CHECK: atom.global.acquire.sys.cas.b32
// CHECK: atom.global.cta.release.exch.b32
// A float max is a signed max of the bits where the value is >= 0 and an
// unsigned min where it is < 0; umin is PTX's unsigned min.
// CHECK: setp.num.f32 num, $2, $2; setp.ge.s32 pos, $2, 0; setp.lt.s32 neg, $2, 0; and.pred pos, pos, num; and.pred neg, neg, num; and.pred pos, pos, $3; and.pred neg, neg, $3; @pos atom.global.gpu.acq_rel.max.s32 $0, [ $1 + 0 ], $2; @neg atom.global.gpu.acq_rel.min.u32 $0, [ $1 + 0 ], $2; }
// CHECK: atom.global.gpu.acq_rel.min.u32
module attributes {tile.num_warps = 1 : i32} {
  func.func @ordering(%p: !tile.ptr<f32>, %q: !tile.ptr<i32>, %v: f32, %w: i32) {
    %a = tile.atomic_rmw add %p, %v {sem = "relaxed"} : !tile.ptr<f32>
    %b = tile.atomic_cas %q, %w, %w {sem = "acquire", scope = "sys"} : !tile.ptr<i32>
    %c = tile.atomic_rmw xchg %q, %w {sem = "release", scope = "cta"} : !tile.ptr<i32>
    %d = tile.atomic_rmw max %p, %v : !tile.ptr<f32>
    %e = tile.atomic_rmw umin %q, %w : !tile.ptr<i32>
    return
  }
}


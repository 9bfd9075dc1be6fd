// RUN: kiln-opt %s --split-input-file --tile-to-llvm | FileCheck %s

// 16-byte aligned fp16 rows, masked at multiples of 16: each thread's 8
// elements are one predicated 128-bit access; masked-off lanes read `other`
// (0.0), moved into the registers first.
#b = #tile.blocked<sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
// CHECK-LABEL: llvm.func @vector
// CHECK: llvm.inline_asm has_side_effects asm_dialect = att "mov.b32 $0, 0x0;\0A\09mov.b32 $1, 0x0;\0A\09mov.b32 $2, 0x0;\0A\09mov.b32 $3, 0x0;\0A\09@$5 ld.global.v4.b32 { $0, $1, $2, $3 }, [ $4 + 0 ];", "=r,=r,=r,=r,l,b" %{{.*}}, %{{.*}} : (!llvm.ptr<1>, i1) -> !llvm.struct<(i32, i32, i32, i32)>
// CHECK: llvm.bitcast %{{.*}} : i32 to vector<2xf16>
// CHECK: llvm.inline_asm has_side_effects asm_dialect = att "@$5 st.global.v4.b32 [ $0 + 0 ], { $1, $2, $3, $4 };", "l,r,r,r,r,b"
// CHECK-NOT: ld.global
// CHECK-NOT: st.global
module attributes {tile.num_warps = 4 : i32} {
  func.func @vector(%X: !tile.ptr<f16> {tile.divisibility = 16 : i32},
                    %Y: !tile.ptr<f16> {tile.divisibility = 16 : i32},
                    %N: i32 {tile.divisibility = 16 : i32}) {
    %zero = arith.constant dense<0.0> : tensor<1024xf16, #b>
    %cols = tile.arange 0 to 1024 : tensor<1024xi32, #b>
    %Ns = tile.splat %N : i32 -> tensor<1024xi32, #b>
    %m = arith.cmpi slt, %cols, %Ns : tensor<1024xi32, #b>
    %x0 = tile.splat %X : !tile.ptr<f16> -> tensor<1024x!tile.ptr<f16>, #b>
    %xp = tile.addptr %x0, %cols : tensor<1024x!tile.ptr<f16>, #b>, tensor<1024xi32, #b>
    %x = tile.load %xp, mask %m, other %zero : tensor<1024x!tile.ptr<f16>, #b>
    %y0 = tile.splat %Y : !tile.ptr<f16> -> tensor<1024x!tile.ptr<f16>, #b>
    %yp = tile.addptr %y0, %cols : tensor<1024x!tile.ptr<f16>, #b>, tensor<1024xi32, #b>
    tile.store %yp, %x, mask %m : tensor<1024x!tile.ptr<f16>, #b>
    return
  }
}

// -----

// Nothing known about alignment or N: one 16-bit access per element, each
// with its own predicate.
#b = #tile.blocked<sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
// CHECK-LABEL: llvm.func @scalar
// CHECK-COUNT-8: "mov.b16 $0, 0x0;\0A\09@$2 ld.global.b16 $0, [ $1 + 0 ];", "=h,l,b"
// CHECK-COUNT-8: "@$2 st.global.b16 [ $0 + 0 ], $1;", "l,h,b"
module attributes {tile.num_warps = 4 : i32} {
  func.func @scalar(%X: !tile.ptr<f16>, %Y: !tile.ptr<f16>, %N: i32) {
    %cols = tile.arange 0 to 1024 : tensor<1024xi32, #b>
    %Ns = tile.splat %N : i32 -> tensor<1024xi32, #b>
    %m = arith.cmpi slt, %cols, %Ns : tensor<1024xi32, #b>
    %x0 = tile.splat %X : !tile.ptr<f16> -> tensor<1024x!tile.ptr<f16>, #b>
    %xp = tile.addptr %x0, %cols : tensor<1024x!tile.ptr<f16>, #b>, tensor<1024xi32, #b>
    %x = tile.load %xp, mask %m : tensor<1024x!tile.ptr<f16>, #b>
    %y0 = tile.splat %Y : !tile.ptr<f16> -> tensor<1024x!tile.ptr<f16>, #b>
    %yp = tile.addptr %y0, %cols : tensor<1024x!tile.ptr<f16>, #b>, tensor<1024xi32, #b>
    tile.store %yp, %x, mask %m : tensor<1024x!tile.ptr<f16>, #b>
    return
  }
}

// -----

// fp32, 4 per thread, unmasked: one v4 access with no predicate. A constant
// `other` of 1.0 is moved in as its bits; a non-constant one is selected.
#b = #tile.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]>
// CHECK-LABEL: llvm.func @fp32
// CHECK: "ld.global.v4.b32 { $0, $1, $2, $3 }, [ $4 + 0 ];", "=r,=r,=r,=r,l"
// CHECK: "mov.b32 $0, 0x3F800000;\0A\09mov.b32 $1, 0x3F800000;\0A\09mov.b32 $2, 0x3F800000;\0A\09mov.b32 $3, 0x3F800000;\0A\09@$5 ld.global.v4.b32
// CHECK: "mov.b32 $0, 0x0;{{.*}}@$5 ld.global.v4.b32
// CHECK-COUNT-4: llvm.select
module attributes {tile.num_warps = 1 : i32} {
  func.func @fp32(%X: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %N: i32 {tile.divisibility = 16 : i32}) {
    %one = arith.constant dense<1.0> : tensor<128xf32, #b>
    %cols = tile.arange 0 to 128 : tensor<128xi32, #b>
    %x0 = tile.splat %X : !tile.ptr<f32> -> tensor<128x!tile.ptr<f32>, #b>
    %xp = tile.addptr %x0, %cols : tensor<128x!tile.ptr<f32>, #b>, tensor<128xi32, #b>
    %a = tile.load %xp : tensor<128x!tile.ptr<f32>, #b>
    %Ns = tile.splat %N : i32 -> tensor<128xi32, #b>
    %m = arith.cmpi slt, %cols, %Ns : tensor<128xi32, #b>
    %b = tile.load %xp, mask %m, other %one : tensor<128x!tile.ptr<f32>, #b>
    %c = tile.load %xp, mask %m, other %a : tensor<128x!tile.ptr<f32>, #b>
    %s = arith.addf %b, %c : tensor<128xf32, #b>
    tile.store %xp, %s : tensor<128x!tile.ptr<f32>, #b>
    return
  }
}

// -----

// 64 elements on 128 threads: warps 2 and 3 hold copies of warps 0 and 1 and
// must not store (warp bit 1 is clear in the writer). Scalar stores run on
// thread 0; scalar loads run everywhere, unpredicated.
#b = #tile.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
// CHECK-LABEL: llvm.func @replicated
// CHECK: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x : i32
// CHECK: %[[WARP:.*]] = llvm.lshr %[[TID]], %{{.*}} : i32
// CHECK: llvm.getelementptr
// CHECK: %[[TWO:.*]] = llvm.mlir.constant(2 : i32) : i32
// CHECK: %[[BIT:.*]] = llvm.and %[[WARP]], %[[TWO]] : i32
// CHECK: %[[OWNER:.*]] = llvm.icmp "eq" %[[BIT]], %{{.*}} : i32
// CHECK: "@$2 st.global.b32 [ $0 + 0 ], $1;", "l,r,b" %{{.*}}, %{{.*}}, %[[OWNER]]
// CHECK: "ld.global.b32 $0, [ $1 + 0 ];", "=r,l"
// CHECK: %[[T0:.*]] = llvm.icmp "eq" %[[TID]], %{{.*}} : i32
// CHECK: "@$2 st.global.b32 [ $0 + 0 ], $1;", "l,r,b" %{{.*}}, %{{.*}}, %[[T0]]
module attributes {tile.num_warps = 4 : i32} {
  func.func @replicated(%X: !tile.ptr<i32>, %s: !tile.ptr<i32>) {
    %cols = tile.arange 0 to 64 : tensor<64xi32, #b>
    %x0 = tile.splat %X : !tile.ptr<i32> -> tensor<64x!tile.ptr<i32>, #b>
    %xp = tile.addptr %x0, %cols : tensor<64x!tile.ptr<i32>, #b>, tensor<64xi32, #b>
    tile.store %xp, %cols : tensor<64x!tile.ptr<i32>, #b>
    %v = tile.load %s : !tile.ptr<i32>
    tile.store %s, %v : !tile.ptr<i32>
    return
  }
}

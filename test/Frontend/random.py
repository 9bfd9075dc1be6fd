# Random numbers as Triton 3.6 generates them: Philox4x32 keyed by the seed
# as uint64 (low half k0, high half k1), counters (offset, offset >> 32 for
# 64-bit offsets, 0, 0), umulhi by 0xCD9E8D57 / 0xD2511F53, key bumps by the
# Weyl constants 0x9E3779B9 / 0xBB67AE85; uniform floats from the bits read
# as int32 (negatives -> -x - 1) times 4.6566127342e-10; Box-Muller normals.
# RUN: ln-compile %s --kernel randint1 --signature '*i32,i32,i32' -D N_ROUNDS=1 \
# RUN:   --emit=tile | FileCheck %s --check-prefix=INT
# RUN: ln-compile %s --kernel offsets64 --signature '*i32,u64,i64' \
# RUN:   --emit=tile | FileCheck %s --check-prefix=OFF64
# RUN: ln-compile %s --kernel uniform --signature '*fp32,i32,i32' \
# RUN:   --emit=tile | FileCheck %s --check-prefix=UNI
# RUN: ln-compile %s --kernel normal --signature '*fp32,i32,i32' \
# RUN:   --emit=tile | FileCheck %s --check-prefix=NORM
# RUN: ln-compile %s --kernel philox64 --signature '*i64,i64,i64' \
# RUN:   --emit=tile | FileCheck %s --check-prefix=P64
# RUN: ln-compile %s --kernel rounds --signature '*i32,i32,i32' \
# RUN:   --emit=tile | FileCheck %s --check-prefix=ROUNDS
# RUN: ln-compile %s --kernel mathfns --signature '*fp32,fp32' \
# RUN:   --emit=tile | FileCheck %s --check-prefix=MATH
# Without libdevice (KILN_LIBDEVICE empty), sin/cos/log use the hardware
# approximations; test/Target/libdevice.test covers the libdevice path.
# RUN: env KILN_LIBDEVICE= ln-compile %s --kernel mathfns --signature '*fp32,fp32' \
# RUN:   --emit=ptx | FileCheck %s --check-prefix=MATHPTX
import triton
import triton.language as tl


@triton.jit
def randint1(O, seed, off, N_ROUNDS: tl.constexpr):
    tl.store(O, tl.randint(seed, off, N_ROUNDS))

# INT-LABEL: func.func @randint1(
# INT-SAME: %[[SEED:[^:]+]]: i32 {tile.name = "seed"}, %[[OFF:[^:]+]]: i32 {tile.name = "off"})
# INT: %[[ZERO:[^ ]+]] = arith.muli %[[OFF]], %{{.*}} : i32
# INT: %[[S64:[^ ]+]] = arith.extsi %[[SEED]] : i32 to i64
# INT: %[[SH:[^ ]+]] = arith.shrui %[[S64]], %{{.*}} : i64
# INT: %[[HI64:[^ ]+]] = arith.andi %[[SH]], %{{.*}} : i64
# INT: %[[LO64:[^ ]+]] = arith.andi %[[S64]], %{{.*}} : i64
# INT: %[[K1:[^ ]+]] = arith.trunci %[[HI64]] : i64 to i32
# INT: %[[K0:[^ ]+]] = arith.trunci %[[LO64]] : i64 to i32
# INT: %[[A:[^ ]+]] = arith.constant -766435501 : i32
# INT: %[[B:[^ ]+]] = arith.constant -845247145 : i32
# INT: %{{.*}}, %[[HB:[^ ]+]] = arith.mului_extended %[[B]], %[[ZERO]] : i32
# INT: arith.mului_extended %[[A]], %[[OFF]] : i32
# INT: %[[X:[^ ]+]] = arith.xori %[[HB]], %[[ZERO]] : i32
# INT: %[[C0:[^ ]+]] = arith.xori %[[X]], %[[K0]] : i32
# INT: arith.constant -1640531527 : i32
# INT: arith.constant -1150833019 : i32
# INT: tile.store %{{.*}}, %[[C0]] : !tile.ptr<i32>


@triton.jit
def offsets64(O, seed, base):
    offs = base + tl.arange(0, 16)
    tl.store(O + tl.arange(0, 16), tl.randint(seed, offs))

# OFF64-LABEL: func.func @offsets64(
# OFF64-SAME: %[[SEED:[^:]+]]: i64 {tile.name = "seed"}
# OFF64: %[[OFFS:[^ ]+]] = arith.addi %{{.*}} : tensor<16xi64>
# OFF64: %[[LO:[^ ]+]] = arith.trunci %[[OFFS]] : tensor<16xi64> to tensor<16xi32>
# OFF64: %[[SH:[^ ]+]] = arith.shrsi %[[OFFS]], %{{.*}} : tensor<16xi64>
# OFF64: %[[HI:[^ ]+]] = arith.trunci %[[SH]] : tensor<16xi64> to tensor<16xi32>
# a uint64 seed is used as is
# OFF64-NOT: arith.extsi %[[SEED]]
# OFF64: arith.shrui %[[SEED]], %{{.*}} : i64
# OFF64-COUNT-20: arith.mului_extended
# OFF64-NOT: arith.mului_extended


@triton.jit
def uniform(O, seed, off):
    tl.store(O, tl.rand(seed, off, n_rounds=7))

# UNI-LABEL: func.func @uniform(
# UNI-COUNT-14: arith.mului_extended
# UNI-NOT: arith.mului_extended
# UNI: %[[ZERO:[^ ]+]] = arith.constant 0 : i32
# UNI: %[[NEG:[^ ]+]] = arith.cmpi slt, %[[X:[^ ]+]], %[[ZERO]] : i32
# UNI: %[[MX:[^ ]+]] = arith.subi %{{.*}}, %[[X]] : i32
# UNI: %[[M1:[^ ]+]] = arith.subi %[[MX]], %{{.*}} : i32
# UNI: %[[SEL:[^ ]+]] = tile.where %[[NEG]], %[[M1]], %[[X]]
# UNI: %[[F:[^ ]+]] = arith.sitofp %[[SEL]] : i32 to f32
# UNI: %[[SCALE:[^ ]+]] = arith.constant 4.6566126E-10 : f32
# UNI: arith.mulf %[[F]], %[[SCALE]] : f32


@triton.jit
def normal(O, seed, off):
    a, b, c, d = tl.randn4x(seed, off)
    tl.store(O, tl.randn(seed, off) + a + b + c + d)

# NORM-LABEL: func.func @normal(
# NORM: %[[TINY:[^ ]+]] = arith.constant 1.000000e-07 : f32
# NORM: %[[U1:[^ ]+]] = arith.maxnumf %[[TINY]], %{{.*}} : f32
# NORM: %[[TWOPI:[^ ]+]] = arith.constant 6.28318548 : f32
# NORM: %[[TH:[^ ]+]] = arith.mulf %[[TWOPI]], %{{.*}} : f32
# NORM: %[[LOG:[^ ]+]] = math.log %[[U1]] : f32
# NORM: %[[M2:[^ ]+]] = arith.constant -2.000000e+00 : f32
# NORM: %[[P:[^ ]+]] = arith.mulf %[[M2]], %[[LOG]] : f32
# NORM: %[[R:[^ ]+]] = math.sqrt %[[P]] : f32
# NORM: %[[COS:[^ ]+]] = math.cos %[[TH]] : f32
# NORM: %[[SIN:[^ ]+]] = math.sin %[[TH]] : f32
# NORM: arith.mulf %[[R]], %[[COS]] : f32
# NORM: arith.mulf %[[R]], %[[SIN]] : f32


@triton.jit
def philox64(O, seed, c):
    r0, r1, r2, r3 = tl.philox(seed, c, c, c, c, n_rounds=1)
    tl.store(O + tl.arange(0, 1), r0 ^ r1 ^ r2 ^ r3)

# Philox4x64: the seed is k0, k1 a zero tensor of shape [1]; 64-bit constants
# P64-LABEL: func.func @philox64(
# P64: arith.constant dense<0> : tensor<1xi64>
# P64: %[[A:[^ ]+]] = arith.constant -3249550476889527149 : i64
# P64: %[[B:[^ ]+]] = arith.constant -3865633965929787049 : i64
# P64: arith.mului_extended %[[B]], %{{.*}} : i64
# P64: arith.mului_extended %[[A]], %{{.*}} : i64
# P64: arith.constant -7046029254386353131 : i64
# P64: arith.constant dense<-4942790177534073029> : tensor<1xi64>


@triton.jit
def rounds(O, seed, off):
    x = tl.uint_to_uniform_float(tl.randint(seed, off, 0))
    n1, n2 = tl.pair_uniform_to_normal(x, x)
    tl.store(O, tl.umulhi(off, seed) + tl.math.umulhi(seed, 5) + n1.to(tl.int32))

# Zero rounds leave the counters: the uniform float of the offset itself
# ROUNDS-LABEL: func.func @rounds(
# ROUNDS-SAME: %[[SEED:[^:]+]]: i32 {tile.name = "seed"}, %[[OFF:[^:]+]]: i32 {tile.name = "off"})
# ROUNDS-NOT: arith.mului_extended
# ROUNDS: arith.cmpi slt, %[[OFF]], %{{.*}} : i32
# ROUNDS: %{{.*}}, %{{.*}} = arith.mului_extended %[[OFF]], %[[SEED]] : i32
# ROUNDS: %[[FIVE:[^ ]+]] = arith.constant 5 : i32
# ROUNDS: %{{.*}}, %{{.*}} = arith.mului_extended %[[SEED]], %[[FIVE]] : i32


@triton.jit
def mathfns(O, x):
    y = tl.full([32], 1.5, tl.float32) * x
    tl.store(O + tl.arange(0, 32), y.sin() + tl.math.cos(y) + tl.log2(y) + y.floor() + tl.ceil(y))

# The math functions random numbers need, as tl.*, tl.math.* and methods
# MATH-LABEL: func.func @mathfns(
# MATH: math.sin %{{.*}} : tensor<32xf32>
# MATH: math.cos %{{.*}} : tensor<32xf32>
# MATH: math.log2 %{{.*}} : tensor<32xf32>
# MATH: math.floor %{{.*}} : tensor<32xf32>
# MATH: math.ceil %{{.*}} : tensor<32xf32>
# MATHPTX-DAG: sin.approx.f32
# MATHPTX-DAG: cos.approx.f32
# MATHPTX-DAG: lg2.approx.f32
# MATHPTX-DAG: cvt.rmi.f32.f32
# MATHPTX-DAG: cvt.rpi.f32.f32

# uint8 / uint16 / uint64 end to end: loads and stores through *u8/*u16/*u64,
# Triton's promotion (unsigned wins at equal or greater width, the wider
# signed type otherwise), zero extension and truncation, unsigned division,
# remainder, logical shifts and comparisons, uitofp/fptoui, the tl.uintN
# names, same-width bitcasts and tl.umulhi.
# RUN: ln-compile %s --kernel uns \
# RUN:   --signature '*u8,*u16,*u64,*i32,*fp32,*i64,u64,u16' \
# RUN:   --emit=tile | FileCheck %s
import triton
import triton.language as tl


@triton.jit
def uns(A, B, C, I, F, O, s, t):
    a = tl.load(A)
    b = tl.load(B)
    c = tl.load(C)
    i = tl.load(I)
    f = tl.load(F)
    tl.store(O + 0, a + b)
    tl.store(O + 1, b + i)
    tl.store(O + 2, c // s)
    tl.store(O + 3, c % s)
    tl.store(O + 4, c >> 3)
    tl.store(O + 5, a < b)
    tl.store(O + 6, c.to(tl.float32).to(tl.int64))
    tl.store(O + 7, f.to(tl.uint16))
    tl.store(O + 8, c.to(tl.uint8))
    tl.store(O + 9, f.to(tl.int32, bitcast=True))
    tl.store(O + 10, i.to(tl.uint32, bitcast=True).to(tl.uint64))
    tl.store(O + 11, tl.umulhi(c, s))
    tl.store(O + 12, tl.umulhi(i, 3))
    tl.store(O + 13, tl.zeros([2], dtype=tl.uint8).dtype.is_int_unsigned())
    tl.store(O + 14, t + a)
    tl.store(C, c + 255)
    tl.store(A, 255)

# CHECK-LABEL: func.func @uns(
# CHECK-SAME: %[[S:[^:]+]]: i64 {tile.name = "s"}, %[[T:[^:]+]]: i16 {tile.name = "t"})
# CHECK: %[[A:[^ ]+]] = tile.load %{{.*}} : !tile.ptr<i8>
# CHECK: %[[B:[^ ]+]] = tile.load %{{.*}} : !tile.ptr<i16>
# CHECK: %[[C:[^ ]+]] = tile.load %{{.*}} : !tile.ptr<i64>
# CHECK: %[[I:[^ ]+]] = tile.load %{{.*}} : !tile.ptr<i32>
# CHECK: %[[F:[^ ]+]] = tile.load %{{.*}} : !tile.ptr<f32>
# a + b: uint16, a zero-extended
# CHECK: %[[A16:[^ ]+]] = arith.extui %[[A]] : i8 to i16
# CHECK: arith.addi %[[A16]], %[[B]] : i16
# b + i: the wider signed int32 wins, b zero-extended
# CHECK: %[[B32:[^ ]+]] = arith.extui %[[B]] : i16 to i32
# CHECK: arith.addi %[[B32]], %[[I]] : i32
# CHECK: arith.divui %[[C]], %[[S]] : i64

# CHECK: arith.remui %[[C]], %[[S]] : i64
# CHECK: arith.shrui %[[C]], %{{.*}} : i64
# CHECK: %[[A16B:[^ ]+]] = arith.extui %[[A]] : i8 to i16
# CHECK: arith.cmpi ult, %[[A16B]], %[[B]] : i16
# CHECK: %[[CF:[^ ]+]] = arith.uitofp %[[C]] : i64 to f32
# CHECK: arith.fptosi %[[CF]] : f32 to i64
# CHECK: arith.fptoui %[[F]] : f32 to i16
# CHECK: arith.trunci %[[C]] : i64 to i8
# CHECK: arith.bitcast %[[F]] : f32 to i32
# int32 -> uint32 bitcast keeps the value, then zero extension
# CHECK: arith.extui %[[I]] : i32 to i64
# CHECK: %{{.*}}, %[[HI:[^ ]+]] = arith.mului_extended %[[C]], %[[S]] : i64
# CHECK: %{{.*}}, %{{.*}} = arith.mului_extended %[[I]], %{{.*}} : i32
# uint8 is unsigned: True
# CHECK: arith.constant 1 : i64
# t + a: uint16
# CHECK: %[[A16C:[^ ]+]] = arith.extui %[[A]] : i8 to i16
# CHECK: arith.addi %[[T]], %[[A16C]] : i16
# CHECK: %[[K:[^ ]+]] = arith.constant 255 : i64
# CHECK: arith.addi %[[C]], %[[K]] : i64
# CHECK: arith.constant -1 : i8


# Pointer offsets: a uint64 offset (FlagGems' `pid.to(tl.uint64) * BLOCK`) is
# already 64 bits wide and is used as it is; narrower unsigned ones are
# zero-extended to i64.
# RUN: ln-compile %s --kernel uns_offsets --signature '*fp32,i32' \
# RUN:   -D BLOCK=128 --emit=tile | FileCheck %s --check-prefix=OFFS
@triton.jit
def uns_offsets(out_ptr, N, BLOCK: tl.constexpr):
    start = tl.program_id(0).to(tl.uint64) * BLOCK
    off = start + tl.arange(0, BLOCK)
    tl.store(out_ptr + off, off.to(tl.float32), mask=off < N)
    tl.store(out_ptr + tl.program_id(0).to(tl.uint32), 1.0)

# OFFS-LABEL: func.func @uns_offsets(
# OFFS-NOT: arith.extui %{{.*}} : tensor<128xi64>
# OFFS: tile.addptr %{{.*}}, %{{.*}} : tensor<128x!tile.ptr<f32>>, tensor<128xi64>
# OFFS: arith.extui %{{.*}} : i32 to i64

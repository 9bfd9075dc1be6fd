# List comprehensions and generator expressions in kernels (Triton 3.6's
# test_tuple: `tl.tuple([v + 1 for v in values])`): unrolled at compile time
# over a tuple or a range of constexprs, `if` clauses compile-time, the
# result a tuple; the loop variable does not leak. tl.tuple(...) builds a
# tuple; tuples compare and concatenate as constexprs.
# RUN: ln-compile %s --kernel k --signature '*fp32,(i32,fp32)' -D N=4 \
# RUN:   --emit=tile | FileCheck %s
# RUN: ln-compile %S/Inputs/comprehension-errors.py --kernel k \
# RUN:   --signature '*fp32,i32' --emit=tile --verify-diagnostics \
# RUN:   --split-input-file
import triton
import triton.language as tl


@triton.jit
def _tuple_increment(values):
    return tl.tuple([v + 1 for v in values])


@triton.jit
def k(P, values, N: tl.constexpr):
    values = _tuple_increment(values)
    sq = [i * i for i in range(N) if i % 2 == 0]
    tl.static_assert(len(sq) == 2)
    tl.static_assert(sq[1] == 4)
    pairs = tl.tuple(a * b for a, b in ((1, 2), (3, 4)))
    tl.static_assert(pairs[1] == 12)
    for i in tl.static_range(len(values)):
        tl.store(P + i, values[i])
    i = 7
    s = [i for i in (1, 2)]
    tl.static_assert(i == 7)
    tl.static_assert(tl.tuple((1, 2)) == (1, 2))
    tl.static_assert(tl.tuple((4, 5)) + (6, 7) == (4, 5, 6, 7))

# CHECK-LABEL: func.func @k
# CHECK-SAME: %[[V0:[a-z0-9]+]]: i32 {tile.name = "values.0"}, %[[V1:[a-z0-9]+]]: f32 {tile.name = "values.1"}
# CHECK: arith.addi %[[V0]], %c1_i32
# CHECK: arith.addf %[[V1]], %cst
# CHECK-COUNT-2: tile.store


# Tuple repetition (Triton's test_tensor_descriptor: `[0] * ndim`).
# RUN: ln-compile %s --kernel rep --signature '*i32' -D NDIM=3 --emit=tile \
# RUN:   | FileCheck %s --check-prefix=REP
@triton.jit
def rep(P, NDIM: tl.constexpr):
    offs = [0] * NDIM
    tl.static_assert(len(offs) == 3)
    twice = 2 * (1, 2)
    tl.static_assert(twice == (1, 2, 1, 2))
    tl.store(P + offs[2], len(offs + [1]))

# REP-LABEL: func.func @rep
# REP: %[[C4:.*]] = arith.constant 4 : i32
# REP: tile.store %{{.*}}, %[[C4]]

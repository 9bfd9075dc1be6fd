# `tl.const` parameters: pointers to constant data, as in Triton's
# test_core.py::test_const. Constness is part of the pointer's type: loads
# and pointer arithmetic keep it, a store or an atomic through it is an
# error, and an `if`, a conditional expression or a helper's returns cannot
# merge it with a plain pointer. Triton's signature spells such a pointer
# `*kfp32`, which means the same here.
# RUN: ln-compile %s --kernel copy --signature '*fp32,*fp32,*fp32,i32,i32' -D BLOCK_SIZE=128 --emit=tile | FileCheck %s
# RUN: ln-compile %s --kernel copy --signature '*kfp32,*fp32,*kfp32,i32,i32' -D BLOCK_SIZE=128 --emit=tile | FileCheck %s
# RUN: ln-compile %s --kernel select_out --signature '*fp32,*fp32,*fp32,i32' -D choose_const=0 -D BLOCK_SIZE=128 --emit=tile | FileCheck %s --check-prefix=CHOSEN
# RUN: not ln-compile %s --kernel select_out --signature '*fp32,*fp32,*fp32,i32' -D choose_const=1 -D BLOCK_SIZE=128 2>&1 | FileCheck %s --check-prefix=DIRECT
# RUN: not ln-compile %s --kernel store_const --signature '*fp32,*fp32' -D BLOCK_SIZE=128 2>&1 | FileCheck %s --check-prefix=STORE
# RUN: not ln-compile %s --kernel merged_if --signature '*fp32,*fp32,*fp32,i32,i32' -D BLOCK_SIZE=128 2>&1 | FileCheck %s --check-prefix=IF
# RUN: not ln-compile %s --kernel merged_ternary --signature '*fp32,*fp32,*fp32,i32,i32' -D BLOCK_SIZE=128 2>&1 | FileCheck %s --check-prefix=TERNARY
# RUN: not ln-compile %s --kernel merged_call --signature '*fp32,*fp32,*fp32,i32,i32' -D BLOCK_SIZE=128 2>&1 | FileCheck %s --check-prefix=CALL
# RUN: not ln-compile %s --kernel atomic_const --signature '*fp32' 2>&1 | FileCheck %s --check-prefix=ATOMIC
# RUN: not ln-compile %s --kernel block_store_const --signature '*fp32' 2>&1 | FileCheck %s --check-prefix=BLOCKPTR
# RUN: ln-compile %s --kernel cast_away --signature '*fp32' --emit=tile | FileCheck %s --check-prefix=CAST
# RUN: not ln-compile %s --kernel store_const --signature '*kfp32,*fp32' -D BLOCK_SIZE=128 2>&1 | FileCheck %s --check-prefix=KSIG
import triton
import triton.language as tl


# CHECK-LABEL: func.func @copy
# CHECK: tile.load
# CHECK: tile.store
@triton.jit
def copy(in_ptr: tl.const, out, c_out: tl.const, n_elems, unused,
         BLOCK_SIZE: tl.constexpr):
    offsets = tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elems
    val = tl.load(in_ptr + offsets, mask=mask)
    tl.store(out + offsets, val, mask=mask)


# A constexpr choice picks one pointer, whose constness decides.
# CHOSEN-LABEL: func.func @select_out
# CHOSEN: tile.store
@triton.jit
def select_out(in_ptr: tl.const, out, c_out: tl.const,
               choose_const: tl.constexpr, n_elems,
               BLOCK_SIZE: tl.constexpr):
    offsets = tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elems
    val = tl.load(in_ptr + offsets, mask=mask)
    final_out = c_out if choose_const else out
    # DIRECT: const-pointers.py:[[@LINE+1]]:14: error: Cannot store to a constant pointer: `tl.store` writes through const tensor<128x!tile.ptr<f32>> (from a `tl.const` parameter)
    tl.store(final_out + offsets, val, mask=mask)


@triton.jit
def store_const(in_ptr: tl.const, out, BLOCK_SIZE: tl.constexpr):
    offsets = tl.arange(0, BLOCK_SIZE)
    # STORE: const-pointers.py:[[@LINE+2]]:14: error: Cannot store to a constant pointer: `tl.store` writes through const tensor<128x!tile.ptr<f32>> (from a `tl.const` parameter)
    # KSIG: const-pointers.py:[[@LINE+1]]:14: error: Cannot store to a constant pointer
    tl.store(in_ptr + offsets, tl.load(out + offsets))


@triton.jit
def merged_if(in_ptr: tl.const, out, c_out: tl.const, choose_const, n_elems,
              BLOCK_SIZE: tl.constexpr):
    if choose_const:
        final_out = c_out
    else:
        final_out = out
    # IF: const-pointers.py:[[@LINE-4]]:5: error: `final_out` is const !tile.ptr<f32> after the `if` branch but !tile.ptr<f32> after the `else` branch
    tl.store(final_out, 1.0)


@triton.jit
def merged_ternary(in_ptr: tl.const, out, c_out: tl.const, choose_const,
                   n_elems, BLOCK_SIZE: tl.constexpr):
    # TERNARY: const-pointers.py:[[@LINE+1]]:17: error: the arms of the conditional expression have different types: const !tile.ptr<f32> and !tile.ptr<f32>
    final_out = c_out if choose_const else out
    tl.store(final_out, 1.0)


@triton.jit
def pass_const(a, b, choose_b):
    if choose_b:
        return b
    else:
        return a


@triton.jit
def merged_call(in_ptr: tl.const, out, c_out: tl.const, choose_const,
                n_elems, BLOCK_SIZE: tl.constexpr):
    # CALL: const-pointers.py:{{[0-9]+}}:9: error: `pass_const` returns const !tile.ptr<f32> on one path and !tile.ptr<f32> on another
    final_out = pass_const(out, c_out, choose_const)
    tl.store(final_out, 1.0)


@triton.jit
def atomic_const(p: tl.const):
    # ATOMIC: const-pointers.py:[[@LINE+1]]:19: error: Cannot store to a constant pointer: `tl.atomic_add` writes through const !tile.ptr<f32> (from a `tl.const` parameter)
    tl.atomic_add(p, 1.0)


@triton.jit
def block_store_const(p: tl.const):
    bp = tl.make_block_ptr(p, (16, 16), (16, 1), (0, 0), (16, 16), (1, 0))
    # BLOCKPTR: const-pointers.py:[[@LINE+1]]:14: error: Cannot store to a constant pointer: `tl.store` writes through a block pointer over const !tile.ptr<f32> (from a `tl.const` parameter)
    tl.store(bp, tl.zeros((16, 16), tl.float32))


# A cast makes another pointer type, as in Triton: not const.
# CAST-LABEL: func.func @cast_away
# CAST: tile.store
@triton.jit
def cast_away(p: tl.const):
    q = p.to(tl.pointer_type(tl.float32))
    tl.store(q, 1.0)

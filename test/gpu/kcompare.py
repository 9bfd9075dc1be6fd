"""Shared helpers for the Kiln-vs-Triton kernel comparisons (test/gpu/compare_kernels.py).

A family of cases lives in test/gpu/cases_<family>.py and defines `cases(results)`; each case
calls run_case(), which compiles the same file under Triton 3.6 and Kiln, poisons the outputs,
launches both and checks the outputs with exact()/close() or a custom check.
"""
import importlib.util
import os
import sys
import traceback

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "python"))
import kiln  # noqa: E402

DEV = "cuda"
_modules = {}


def triton_module(path):
    if path not in _modules:
        spec = importlib.util.spec_from_file_location(os.path.basename(path)[:-3], path)
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        _modules[path] = (mod, kiln.jit(path))
    return _modules[path]


def poison(t):
    if t.dtype.is_floating_point:
        t.fill_(float("nan"))
    else:
        t.view(torch.uint8).fill_(0xA5)


def run_case(results, name, path, kernel, grid, make, outputs, meta, check):
    """make(): fresh argument list (same values every call); outputs: indices of output args."""
    try:
        tmod, kmod = triton_module(path)
        got = {}
        for who, k in (("triton", getattr(tmod, kernel)), ("kiln", getattr(kmod, kernel))):
            args = make()
            for i in outputs:
                poison(args[i])
            k[grid](*args, **meta)
            torch.cuda.synchronize()
            got[who] = [args[i].clone() for i in outputs]
        ok, detail = check(got["kiln"], got["triton"])
    except Exception as e:  # a compile or launch error is a failed case, not a stop
        traceback.print_exc()
        ok, detail = False, f"{type(e).__name__}: {str(e)[:300]}"
    results.append((name, ok, detail))


def bits(t):
    return t.view(torch.int64 if t.element_size() == 8 else
                  torch.int32 if t.element_size() == 4 else
                  torch.int16 if t.element_size() == 2 else torch.uint8)


def first_diffs(k, t, diff, limit=4):
    """' (index: kiln 0x.. triton 0x..; ...)' for the first differing elements, bits in hex."""
    kb, tb = bits(k).flatten(), bits(t).flatten()
    mask = (1 << (8 * k.element_size())) - 1
    shown = [f"{j}: kiln {int(kb[j]) & mask:#x} triton {int(tb[j]) & mask:#x}"
             for j in diff[:limit].tolist()]
    return " (" + "; ".join(shown) + ")"


def exact(ks, ts):
    for i, (k, t) in enumerate(zip(ks, ts)):
        if not torch.equal(bits(k), bits(t)):
            diff = (bits(k) != bits(t)).flatten().nonzero().flatten()
            return False, f"output {i}: {diff.numel()} of {t.numel()} differ" + first_diffs(k, t, diff)
    return True, "bitwise equal"


def close(rtol, atol=0.0):
    def check(ks, ts):
        worst = 0.0
        for i, (k, t) in enumerate(zip(ks, ts)):
            if k.dtype.is_floating_point:
                kf, tf = k.double(), t.double()
                if torch.isnan(kf).any() != torch.isnan(tf).any():
                    return False, f"output {i}: NaN pattern differs"
                err = ((kf - tf).abs() / (tf.abs() + 1e-30)).nan_to_num(0).max().item()
                if not torch.allclose(kf, tf, rtol=rtol, atol=atol, equal_nan=True):
                    return False, f"output {i}: max rel err {err:.3g} > {rtol}"
                worst = max(worst, err)
            elif not torch.equal(bits(k), bits(t)):
                return False, f"output {i}: integer output differs"
        return True, f"max rel err {worst:.3g} (rtol {rtol})"
    return check


def gen(seed):
    return torch.Generator(device=DEV).manual_seed(seed)



"""The corpus's inputs and references under torch, on the CPU (skipped without torch).

For the small and odd shapes of every instance: builds the inputs and the
reference as bench/corpus_run.py does, and checks that they agree with the
description (every pointer parameter has a tensor of the declared dtype, 16-byte
aligned where the signature says `:16`; every reference has its output's
shape), that the harness's check accepts the reference written into the
outputs and rejects poisoned outputs.

    cd bench && python3 -m unittest -v test_corpus_torch
"""
import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "corpus"))

import cases  # noqa: E402
import corpus_run  # noqa: E402
from corpus_model import TORCH_DTYPE  # noqa: E402

try:
    import torch
except ImportError:
    torch = None

SIG_NAME = {v: k for k, v in TORCH_DTYPE.items()}
# Stride parameters whose name does not end in the tensor's name.
STRIDE_OF = {"stride_t": "table", "stride_o": "out", "stride_src": "src", "stride_out": "out"}


def sig_dtype(t):
    return SIG_NAME[str(t.dtype).split(".")[-1]]


@unittest.skipIf(torch is None, "torch is not installed")
class InputsAndReferences(unittest.TestCase):
    def setUp(self):
        self.runner = corpus_run.Runner(torch, ("triton", "kiln"), 0, 0, device="cpu")

    def test_every_instance(self):
        insts = [i for i in cases.instances() if i.shape.label != "large"]
        for inst in insts:
            with self.subTest(inst.id):
                self.check_instance(inst)

    def check_instance(self, inst):
        t, ref = self.runner.reference(inst)
        for p in inst.case.params:
            if p.kind != "ptr":
                continue
            self.assertIn(p.name, t)
            self.assertEqual(sig_dtype(t[p.name]), inst.case.pointer_dtype(p, inst.dtype), p.name)
            if p.aligned:
                self.assertEqual(t[p.name].data_ptr() % 16, 0, p.name)
        # Row strides passed as scalars are the tensors' real strides.
        checked = 0
        for p in inst.case.params:
            if p.kind != "int" or not p.name.startswith("stride"):
                continue
            if p.name == "stride":  # shared by every 2-D tensor of the case
                names = [q.name for q in inst.case.params
                         if q.kind == "ptr" and t[q.name].dim() == 2]
            else:
                names = [STRIDE_OF.get(p.name, p.name[len("stride_"):])]
            for name in names:
                if name in t and t[name].dim() == 2:
                    self.assertEqual(t[name].stride(0), p.value(inst.shape), f"{p.name}: {name}")
                    checked += 1
        if any(p.name.startswith("stride") for p in inst.case.params) and \
                inst.case.kernel not in ("batched_transpose_kernel", "rope_kernel"):
            self.assertGreater(checked, 0, "no stride checked")
        self.assertEqual(set(ref), set(inst.case.outputs))
        for name, exp in ref.items():
            out = t[name]
            self.assertEqual(tuple(out.shape), tuple(exp.shape), name)
            self.assertFalse(bool(torch.isnan(exp.double()).any()), name)
        # The reference written into the outputs passes the check...
        for name, exp in ref.items():
            t[name].copy_(exp.to(t[name].dtype))
        ok, report = self.runner.check(inst, t, ref)
        self.assertTrue(ok, report)
        # ... and poisoned float outputs fail it.
        self.runner.prepare_outputs(inst, t)
        poisoned = [n for n, how in inst.case.outputs.items()
                    if how == "poison" and t[n].dtype.is_floating_point]
        if poisoned:
            ok, report = self.runner.check(inst, t, ref)
            self.assertFalse(ok)
            for n in poisoned:
                self.assertEqual(report[n]["mismatches"], report[n]["numel"], n)



class FakeKernel:
    """Stands in for a Triton / Kiln kernel: `kernel[grid](*args, **meta)`
    writes what `behaviour` says into the output tensors."""

    def __init__(self, inst, ref, behaviour):
        self.inst, self.ref, self.behaviour = inst, ref, behaviour
        self.launches = []

    def __getitem__(self, grid):
        def launch(*args, num_warps, **consts):
            self.launches.append((grid, num_warps, consts))
            if self.behaviour == "raise":
                raise RuntimeError("kernel `x`: no such luck")
            ptrs = [p.name for p in self.inst.case.params if p.kind != "const"]
            tensors = dict(zip(ptrs, args))
            if self.behaviour == "correct":
                for name, exp in self.ref.items():
                    tensors[name].copy_(exp.to(tensors[name].dtype))
        return launch


@unittest.skipIf(torch is None, "torch is not installed")
class HarnessWithFakeKernels(unittest.TestCase):
    def run_with(self, inst_id, behaviours):
        runner = corpus_run.Runner(torch, tuple(behaviours), 0, 0, device="cpu")
        (inst,) = cases.instances(inst_id)
        _, ref = runner.reference(inst)
        fakes = {impl: FakeKernel(inst, ref, b) for impl, b in behaviours.items()}
        runner.kernel = lambda impl, i: fakes[impl]
        return runner.run(inst, timing=False), fakes

    def test_correct_wrong_and_failing_implementations(self):
        rec, fakes = self.run_with("rmsnorm_bwd_kernel/odd/bf16",
                                   {"triton": "correct", "kiln": "nothing"})
        self.assertTrue(rec["triton"]["correct"])
        # dx was poisoned and left alone; dw was zeroed (the kernel accumulates).
        self.assertFalse(rec["kiln"]["correct"])
        self.assertEqual(rec["kiln"]["check"]["dx"]["mismatches"], 1000 * 1000)
        self.assertEqual(corpus_run.verdict(rec, ("triton", "kiln")), "WRONG kiln")
        grid, nw, consts = fakes["kiln"].launches[0]
        self.assertEqual((grid, nw, consts), ((264,), 2, {"BLOCK": 1024}))
        self.assertEqual(rec["signature"], "*bf16:16,*bf16:16,*bf16:16,*fp32:16,*bf16:16,"
                                           "*fp32:16,i32,i32,i32")
        rec2, _ = self.run_with("histogram_kernel/small/fp16", {"triton": "raise", "kiln": "correct"})
        self.assertIn("RuntimeError: kernel `x`: no such luck", rec2["triton"]["error"])
        self.assertTrue(rec2["kiln"]["correct"])
        self.assertEqual(corpus_run.verdict(rec2, ("triton", "kiln")), "ERROR triton")
        # The records are plain JSON and render.
        doc = corpus_run.make_document([rec, rec2], ("triton", "kiln"), {"date": "today"})
        back = corpus_run.json.loads(corpus_run.json.dumps(doc))
        self.assertEqual(back["summary"]["wrong"], ["rmsnorm_bwd_kernel/odd/bf16",
                                                    "histogram_kernel/small/fp16"])
        table = corpus_run.format_table(back["results"], ("triton", "kiln"))
        self.assertIn("WRONG kiln", table)
        self.assertIn("no such luck", corpus_run.progress_line(rec2, ("triton", "kiln")))


if __name__ == "__main__":
    unittest.main()

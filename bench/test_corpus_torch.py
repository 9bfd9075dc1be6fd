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
        for p in inst.case.params:
            if p.kind == "int" and p.name.startswith("stride_") and len(p.name) == 8:
                tensor = t.get(p.name[-1]) if p.name[-1] in t else None
                if tensor is not None and tensor.dim() == 2:
                    self.assertEqual(tensor.stride(0), p.value(inst.shape), p.name)
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


if __name__ == "__main__":
    unittest.main()

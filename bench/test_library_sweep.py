"""library_sweep.py's guesses of which kernel parameters are pointers (no GPU)."""
import unittest

import library_sweep

BODY = """
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(Input + offs * stride_qm, mask=offs < N_CTX)
    s = tl.load(Q_scale + pid)
    y = x * tl.load(Scale) * sm_scale
    tl.store(Output + offs, y, mask=offs < M + 1)
    q = x_ptr + Seq_len
    h = HEAD_DIM + 1
"""


class PointerGuessTest(unittest.TestCase):
    def test_capitalized_tensors_offset_or_loaded_are_pointers(self):
        for name in ("Input", "Output", "Scale", "Q_scale", "x_ptr"):
            self.assertTrue(library_sweep.is_pointer(name, BODY), name)

    def test_sizes_strides_and_all_caps_names_are_not(self):
        for name in ("N_CTX", "M", "sm_scale", "Seq_len", "stride_qm", "HEAD_DIM"):
            self.assertFalse(library_sweep.is_pointer(name, BODY), name)

    def test_guess_turns_pointers_and_floats_into_specs(self):
        params = [("Input", "", None), ("N_CTX", "", None), ("sm_scale", "", None),
                  ("BLOCK", "tl.constexpr", None)]
        args, constexprs = library_sweep.guess(params, BODY)
        self.assertEqual(args[0][0], "ptr")
        self.assertEqual(args[1], ["int", 64])
        self.assertEqual(args[2][0], "float")
        self.assertEqual(constexprs, {"BLOCK": 32})


if __name__ == "__main__":
    unittest.main()

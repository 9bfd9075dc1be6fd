"""A stand-in of the part of torch that looks for Triton (CI has no torch):
torch/utils/_triton.py decides whether Triton is installed, and
torch/_inductor/hints.py imports Triton's compiler internals when it is, as
torch 2.11's torch/_inductor/runtime/hints.py does on `import torch._dynamo`."""

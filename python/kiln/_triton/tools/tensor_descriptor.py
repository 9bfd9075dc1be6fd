"""`triton.tools.tensor_descriptor.TensorDescriptor`: the host object that
describes a tensor for TMA loads. Passed to a kernel it specializes the
parameter as `tensordesc<T[block]>`; the kernel receives the base, shapes and
strides, and on sm_90 a CUtensorMap the launch encodes for each descriptor
whose blocks a pipelined loop copies with TMA (docs/backend.md)."""
from dataclasses import dataclass
from typing import Any, List

__kiln__ = True


@dataclass
class TensorDescriptor:
    base: Any
    shape: List[int]
    strides: List[int]
    block_shape: List[int]
    padding: str = "zero"

    def __post_init__(self):
        rank = len(self.shape)
        if len(self.strides) != rank or len(self.block_shape) != rank:
            raise ValueError(
                "TensorDescriptor: shape, strides and block_shape must have "
                "the same rank (got %d, %d, %d)" %
                (rank, len(self.strides), len(self.block_shape)))
        if rank and self.strides[-1] != 1:
            raise ValueError("Last dimension must be contiguous")
        if self.padding not in ("zero", "nan"):
            raise ValueError("Illegal value for padding: %r" %
                             (self.padding,))

    @property
    def dtype(self):
        """What the launch key reads of an argument (a tensor's dtype): the
        element type, block shape, padding and which shape entries are
        divisible by 16, which select the compiled variant. (Triton's class
        has no such attribute.)"""
        return ("tensordesc", self.base.dtype, tuple(self.block_shape),
                self.padding, tuple(s % 16 == 0 for s in self.shape))

    @staticmethod
    def from_tensor(tensor, block_shape, padding="zero"):
        return TensorDescriptor(tensor, list(tensor.shape),
                                list(tensor.stride()), list(block_shape),
                                padding)

"""`triton.tools.tensor_descriptor.TensorDescriptor`: the host object that
describes a tensor for TMA loads. Kiln's compiler does not take descriptor
arguments yet: launching with one raises LaunchError naming the parameter."""
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

    @staticmethod
    def from_tensor(tensor, block_shape, padding="zero"):
        return TensorDescriptor(tensor, list(tensor.shape),
                                list(tensor.stride()), list(block_shape),
                                padding)

"""`triton.runtime._allocation`: the allocator protocol host code (and
Triton's own test fixtures) name. Kiln's kernels need no global scratch
memory (device-side tensor descriptors live in kernel-owned storage), so the
allocator `triton.set_allocator` records is never called."""

__kiln__ = True


class Allocator:
    """Triton's protocol: allocator(size, alignment, stream) -> buffer."""

    def __call__(self, size, alignment, stream):
        raise NotImplementedError


class NullAllocator(Allocator):
    """The default: no allocator set."""

    def __call__(self, size, alignment, stream):
        raise RuntimeError("Kernel requires a runtime memory allocation, but "
                           "no allocator was set. Use triton.set_allocator to "
                           "specify an allocator.")

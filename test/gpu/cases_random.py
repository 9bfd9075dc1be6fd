"""Every random builtin (test/gpu/random_kernels.py): bitwise against Triton."""
import os

import torch

from kcompare import DEV, HERE, exact, gen, run_case


def cases(results):
    path = os.path.join(HERE, "random_kernels.py")
    N, BLOCK = 1000, 128
    grid = ((N + BLOCK - 1) // BLOCK,)
    i32 = lambda n=N: torch.empty(n, dtype=torch.int32, device=DEV)
    f32 = lambda n=N: torch.empty(n, dtype=torch.float32, device=DEV)
    i64 = lambda n=N: torch.empty(n, dtype=torch.int64, device=DEV)
    for rounds in (7, 10):
        m = dict(N_ROUNDS=rounds, BLOCK=BLOCK)
        for seed in (12345, -7, 2**40 + 5):
            run_case(results, f"randint seed={seed} rounds={rounds}", path, "randint_kernel", grid,
                     lambda s=seed: [i32(), s, N], [0], m, exact)
            run_case(results, f"rand seed={seed} rounds={rounds}", path, "rand_kernel", grid,
                     lambda s=seed: [f32(), s, N], [0], m, exact)
        run_case(results, f"randint4x rounds={rounds}", path, "randint4x_kernel", grid,
                 lambda: [i32(), i32(), i32(), i32(), 99, N], [0, 1, 2, 3], m, exact)
        run_case(results, f"rand4x rounds={rounds}", path, "rand4x_kernel", grid,
                 lambda: [f32(), f32(), f32(), f32(), 99, N], [0, 1, 2, 3], m, exact)
        # Bitwise too: log/sin/cos come from libdevice, as in Triton.
        run_case(results, f"randn rounds={rounds}", path, "randn_kernel", grid,
                 lambda: [f32(), 4242, N], [0], m, exact)
        run_case(results, f"randn4x rounds={rounds}", path, "randn4x_kernel", grid,
                 lambda: [f32(), f32(), f32(), f32(), 4242, N], [0, 1, 2, 3], m, exact)
    m = dict(N_ROUNDS=10, BLOCK=BLOCK)
    run_case(results, "rand/randint int64 offsets near 2**32", path, "rand_i64_offsets_kernel", grid,
             lambda: [f32(), i32(), 77, 2**32 - 500, N], [0, 1], m, exact)
    run_case(results, "rand/randint scalar offsets", path, "rand_scalar_kernel", (64,),
             lambda: [f32(64), i32(64), 31337, 1000], [0, 1], dict(N_ROUNDS=10), exact)
    run_case(results, "randint uint64 seed", path, "randint_u64_seed_kernel", grid,
             lambda: [i32(), 123456789, 77, N], [0], m, exact)
    run_case(results, "randint uint32 offsets", path, "randint_u32_offsets_kernel", grid,
             lambda: [i32(), 5, 2**31 - 100, N], [0], m, exact)
    run_case(results, "randint 2-D offsets", path, "randint_2d_kernel", ((N + 15) // 16,),
             lambda: [i32(N * 16), 5, N], [0], dict(N_ROUNDS=10, BLOCK=16, BLOCK2=16), exact)
    run_case(results, "philox 4x32", path, "philox_kernel", grid,
             lambda: [i32(), i32(), i32(), i32(), 2**40 + 3, N], [0, 1, 2, 3], m, exact)
    run_case(results, "philox 4x64", path, "philox64_kernel", grid,
             lambda: [i64(), i64(), i64(), i64(), 2**40 + 3, N], [0, 1, 2, 3], m, exact)

    def uniform_normal_args():
        g = gen(5)
        x = torch.randint(-2**31, 2**31 - 1, (N,), dtype=torch.int32, device=DEV, generator=g)
        y = torch.randint(-2**62, 2**62, (N,), dtype=torch.int64, device=DEV, generator=g)
        return [f32(), f32(), f32(), f32(), x, y, N]

    run_case(results, "uint_to_uniform_float / pair_uniform_to_normal", path, "uniform_normal_kernel",
             grid, uniform_normal_args, [0, 1, 2, 3], dict(BLOCK=BLOCK), exact)

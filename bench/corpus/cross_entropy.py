"""Cross-entropy over long rows of logits: a two-pass forward (max, then
sum of exponentials, then the loss) and the backward (softmax - one-hot).

Corpus kernels for bench/corpus_run.py (cases in bench/corpus/cases.py).
"""
import triton
import triton.language as tl


@triton.jit
def cross_entropy_fwd_kernel(Logits, Target, Loss, Lse, V, stride, ignore_index,
                             BLOCK: tl.constexpr):
    # loss = logsumexp(row) - row[target]; rows whose target is ignore_index
    # get loss 0. Lse (fp32) is saved for the backward.
    row = tl.program_id(0)
    Logits += row * stride
    target = tl.load(Target + row)
    # Pass 1: the row maximum.
    m = tl.full([BLOCK], -float("inf"), tl.float32)
    for start in range(0, V, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        x = tl.load(Logits + cols, mask=cols < V, other=-float("inf")).to(tl.float32)
        m = tl.maximum(m, x)
    row_max = tl.max(m, axis=0)
    # Pass 2: the sum of exponentials relative to the maximum.
    s = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, V, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        x = tl.load(Logits + cols, mask=cols < V, other=-float("inf")).to(tl.float32)
        s += tl.exp(x - row_max)
    lse = row_max + tl.log(tl.sum(s, axis=0))
    picked = tl.load(Logits + target, mask=target != ignore_index, other=0.0).to(tl.float32)
    loss = tl.where(target == ignore_index, 0.0, lse - picked)
    tl.store(Loss + row, loss)
    tl.store(Lse + row, lse)


@triton.jit
def cross_entropy_bwd_kernel(Logits, Target, Lse, DLoss, DLogits, V, stride,
                             ignore_index, BLOCK: tl.constexpr):
    # dlogits = dloss * (softmax(row) - onehot(target)), zero on ignored rows.
    row = tl.program_id(0)
    Logits += row * stride
    DLogits += row * stride
    target = tl.load(Target + row)
    lse = tl.load(Lse + row)
    scale = tl.load(DLoss + row)
    scale = tl.where(target == ignore_index, 0.0, scale)
    for start in range(0, V, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = cols < V
        x = tl.load(Logits + cols, mask=mask, other=0.0).to(tl.float32)
        p = tl.exp(x - lse)
        g = tl.where(cols == target, p - 1.0, p) * scale
        tl.store(DLogits + cols, g, mask=mask)

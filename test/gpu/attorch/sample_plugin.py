# REQUIRES: python-stdlib
# RUN: %kiln_python %s | FileCheck %s
"""A pytest plugin that runs a fixed, documented sample of a huge
parametrized suite: every test function, and of its parametrizations every
STRIDE-th one in collection order (starting at OFFSET modulo the count, so a
function with fewer than STRIDE cases still runs one).

    python -m pytest -p sample_plugin --sample-stride 97 tests/

(the directory holding this file must be on PYTHONPATH). The selection is a
pure function of the collected node ids, so Triton and Kiln run exactly the
same tests. The thinning happens as pytest generates each function's
parametrizations, so the others are never made into items.
"""
import collections


def pytest_addoption(parser):
    group = parser.getgroup("sample", "fixed-stride sampling of parametrizations")
    group.addoption("--sample-stride", type=int, default=0,
                    help="keep every N-th parametrization of each test "
                         "function (0: keep all)")
    group.addoption("--sample-offset", type=int, default=0,
                    help="index of the first kept parametrization (mod the "
                         "function's count)")


def _function_key(item):
    # "tests/test_x.py::test_y[case]" -> "tests/test_x.py::test_y"
    return item.nodeid.split("[", 1)[0]


def sample(nodeids, stride, offset=0):
    """The kept node ids, in their order (also used by run_sample.py)."""
    if stride <= 0:
        return list(nodeids)
    groups = collections.OrderedDict()
    for nid in nodeids:
        groups.setdefault(nid.split("[", 1)[0], []).append(nid)
    keep = set()
    for ids in groups.values():
        keep.update(thin(ids, stride, offset))
    return [nid for nid in nodeids if nid in keep]


def thin(calls, stride, offset=0):
    """The kept parametrizations of one test function: every STRIDE-th of
    `calls` (in their order) from OFFSET modulo their count."""
    if stride <= 0 or not calls:
        return list(calls)
    return list(calls[offset % len(calls)::stride])


class ProductPruner:
    """thin() over a cartesian product, applied while it is built.

    pytest makes a function's parametrizations one parametrize() call at a
    time: each call replaces every callspec so far by one per value of its
    own (the old one outer), so the final index of a callspec is a
    mixed-radix number over the calls' sizes. Knowing all sizes up front,
    a partial callspec is kept after each call only when some kept final
    index descends from it: the product is never built in full, and what
    remains at the end is exactly thin(full product, stride, offset)."""

    def __init__(self, sizes, stride, offset=0):
        self.sizes = [max(1, s) for s in sizes]
        self.total = 1
        for s in self.sizes:
            self.total *= s
        self.stride = stride
        self.first = offset % self.total
        self.index = [0]        # final-order prefix index of each survivor
        self.below = self.total  # final indices under one prefix

    def _has_kept(self, lo, hi):
        """Whether a kept final index lies in [lo, hi)."""
        if hi <= self.first:
            return False
        k = self.first if lo <= self.first else \
            self.first + -(-(lo - self.first) // self.stride) * self.stride
        return k < hi

    def step(self, level):
        """After call `level` expanded every survivor by its size: which of
        the new callspecs (in their order) survive."""
        size = self.sizes[level]
        self.below //= size
        expanded = [p * size + v for p in self.index for v in range(size)]
        keep = [self._has_kept(q * self.below, (q + 1) * self.below)
                for q in expanded]
        self.index = [q for q, k in zip(expanded, keep) if k]
        return keep


try:
    import pytest
except ImportError:  # the lit test checks the rule without pytest
    pytest = None

if pytest is not None:
    def _values_of(args, kwargs):
        """parametrize()'s argvalues, made a list (it may be a generator)."""
        if len(args) > 1:
            values = list(args[1])
            return values, args[:1] + (values,) + args[2:], kwargs
        values = list(kwargs.get("argvalues", ()))
        return values, args, dict(kwargs, argvalues=values)

    @pytest.hookimpl(hookwrapper=True)
    def pytest_generate_tests(metafunc):
        # Thin the parametrizations before pytest makes a callspec of each:
        # building the 455 000 callspecs of attorch's suite costs seconds
        # per run, the same for both backends, which would hide what the
        # backends themselves cost. Every parametrize() call of this hook
        # (marks, parametrized fixtures, conftest hooks) is recorded, then
        # replayed in order with the product pruned as it grows; the result
        # equals sample() over the full collection.
        stride = metafunc.config.getoption("--sample-stride")
        recorded = []
        if stride > 0:
            metafunc.parametrize = lambda *a, **k: recorded.append((a, k))
        try:
            yield
        finally:
            if stride > 0:
                del metafunc.parametrize
        if not recorded:
            return
        calls = [_values_of(a, k) for a, k in recorded]
        pruner = ProductPruner([len(v) for v, _, _ in calls], stride,
                               metafunc.config.getoption("--sample-offset"))
        for level, (_, args, kwargs) in enumerate(calls):
            metafunc.parametrize(*args, **kwargs)
            keep = pruner.step(level)
            assert len(keep) == len(metafunc._calls), "pytest's product changed"
            metafunc._calls = [c for c, k in zip(metafunc._calls, keep) if k]


_START = []


def pytest_sessionstart(session):
    import time
    _START.append(time.perf_counter())


def pytest_runtest_logfinish(nodeid, location):
    # SAMPLE_TIMES=FILE: "<seconds since the session started> <outcome>
    # <node id>" per finished test, written as it ends, so that a run cut by
    # a time limit still shows how far it got, when, and what each test did
    # (pytest -v lines are split by live logging, and the junit XML is
    # written only at the end).
    import os
    import time
    path = os.environ.get("SAMPLE_TIMES")
    if path and _START:
        with open(path, "a") as f:
            f.write("%.2f %s %s\n" % (time.perf_counter() - _START[0],
                                      _OUTCOME.pop(nodeid, "passed"), nodeid))


_OUTCOME = {}


def pytest_runtest_logreport(report):
    # SAMPLE_FAILURES=FILE: each failure's node id and the last lines of its
    # traceback, written as it happens (pytest prints them only at the end,
    # which a run cut by a time limit never reaches).
    import os
    if report.failed:
        _OUTCOME[report.nodeid] = "failed" if report.when == "call" else "error"
    elif report.skipped and report.nodeid not in _OUTCOME:
        _OUTCOME[report.nodeid] = "skipped"
    path = os.environ.get("SAMPLE_FAILURES")
    if path and report.failed:
        tail = report.longreprtext.splitlines()[-25:]
        with open(path, "a") as f:
            f.write("=== %s (%s)\n%s\n" % (report.nodeid, report.when,
                                          "\n".join(tail)))


def pytest_report_header(config):
    stride = config.getoption("--sample-stride")
    if stride > 0:
        return ("sample: every %d-th parametrization of each test function "
                "(offset %d)" % (stride, config.getoption("--sample-offset")))


if __name__ == "__main__":
    # The selection rule (pytest is not needed for it).
    ids = ["t.py::a[%d]" % i for i in range(10)] + ["t.py::b[0]", "t.py::b[1]",
                                                   "t.py::c"]
    print(" ".join(sample(ids, 4)))
    print(" ".join(sample(ids, 4, 5)))
    print(len(sample(ids, 0)))
# CHECK: t.py::a[0] t.py::a[4] t.py::a[8] t.py::b[0] t.py::c
# CHECK-NEXT: t.py::a[5] t.py::a[9] t.py::b[1] t.py::c
    print(thin(list(range(10)), 4, 5), thin([], 3), thin([7], 97, 5))
# CHECK-NEXT: 13
# CHECK-NEXT: [5, 9] [] [7]
    # The pruned product equals thin() over the full one.
    import itertools
    bad = 0
    for sizes in ([3], [2, 5], [4, 1, 3], [7, 0, 2], [5, 3, 4, 2], [2] * 9):
        for stride in (1, 2, 5, 7, 97):
            for offset in (0, 3, 1000):
                pruner = ProductPruner(sizes, stride, offset)
                level_sizes = [max(1, n) for n in sizes]
                survivors = [()]
                for level, n in enumerate(level_sizes):
                    expanded = [p + (v,) for p in survivors for v in range(n)]
                    keep = pruner.step(level)
                    survivors = [c for c, k in zip(expanded, keep) if k]
                full = list(itertools.product(*[range(n) for n in level_sizes]))
                bad += survivors != thin(full, stride, offset)
    print("pruned products differing from thin():", bad)
# CHECK-NEXT: pruned products differing from thin(): 0

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


try:
    import pytest
except ImportError:  # the lit test checks the rule without pytest
    pytest = None

if pytest is not None:
    @pytest.hookimpl(hookwrapper=True)
    def pytest_generate_tests(metafunc):
        # Thin the parametrizations before pytest makes an item of each:
        # making the 540 000 items of attorch's suite and deselecting them
        # costs minutes per run, the same for both backends, which would
        # hide what the backends themselves cost. metafunc._calls (the
        # callspecs in collection order) is pytest's own list; the result
        # equals sample() over the full collection.
        yield
        stride = metafunc.config.getoption("--sample-stride")
        calls = getattr(metafunc, "_calls", None)
        if stride > 0 and calls:
            metafunc._calls[:] = thin(
                calls, stride, metafunc.config.getoption("--sample-offset"))


_START = []


def pytest_sessionstart(session):
    import time
    _START.append(time.perf_counter())


def pytest_runtest_logfinish(nodeid, location):
    # SAMPLE_TIMES=FILE: "<seconds since the session started> <node id>" per
    # finished test, written as it ends, so that a run cut by a time limit
    # still shows how far it got and when.
    import os
    import time
    path = os.environ.get("SAMPLE_TIMES")
    if path and _START:
        with open(path, "a") as f:
            f.write("%.2f %s\n" % (time.perf_counter() - _START[0], nodeid))


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

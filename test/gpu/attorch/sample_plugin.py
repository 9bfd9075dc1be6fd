# REQUIRES: python-stdlib
# RUN: %kiln_python %s | FileCheck %s
"""A pytest plugin that runs a fixed, documented sample of a huge
parametrized suite: every test function, and of its parametrizations every
STRIDE-th one in collection order (starting at OFFSET modulo the count, so a
function with fewer than STRIDE cases still runs one).

    python -m pytest -p sample_plugin --sample-stride 97 tests/

(the directory holding this file must be on PYTHONPATH). The selection is a
pure function of the collected node ids, so Triton and Kiln run exactly the
same tests. Deselected tests are reported as such by pytest.
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
        start = offset % len(ids)
        keep.update(ids[start::stride])
    return [nid for nid in nodeids if nid in keep]


def pytest_collection_modifyitems(session, config, items):
    stride = config.getoption("--sample-stride")
    if stride <= 0:
        return
    keep = set(sample([i.nodeid for i in items], stride,
                      config.getoption("--sample-offset")))
    selected = [i for i in items if i.nodeid in keep]
    deselected = [i for i in items if i.nodeid not in keep]
    if deselected:
        config.hook.pytest_deselected(items=deselected)
    items[:] = selected


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
# CHECK-NEXT: 13

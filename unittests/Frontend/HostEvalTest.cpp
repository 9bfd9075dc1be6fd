//===- HostEvalTest.cpp - Kiln's evaluator of host Python -----------------===//
#include "HostEval.h"
#include "kiln/Frontend/Syntax/Parser.h"

#include "gtest/gtest.h"

using namespace kiln;
using namespace kiln::host;

namespace {

/// Evaluates module-level name `name` of `file`: its repr, or
/// "LINE:COL: message" on error.
std::string evalName(const std::string &file, const char *name = "R") {
  fe::ParseResult pr = fe::parse(file);
  if (pr.error)
    return "parse error: " + pr.error->message;
  ModuleScope scope(*pr.module);
  Interp in(scope, file);
  std::optional<Value> v = in.global(name, nullptr);
  if (v)
    return repr(*v);
  auto [line, col] = ast::LineTable(file).lineCol(in.error().offset);
  return std::to_string(line) + ":" + std::to_string(col) + ": " +
         in.error().message;
}

TEST(HostEval, Arithmetic) {
  EXPECT_EQ(evalName("R = (7 // 2, -7 // 2, 7 % -3, -7 % 3, 2 ** 10, 2 ** -1, "
                     "7 / 2, 1 << 4, 0xff & 0x0f | 0x100, 5 ^ 1, -(3), +2, ~0)"),
            "(3, -4, -2, 2, 1024, 0.5, 3.5, 16, 271, 4, -3, 2, -1)");
  EXPECT_EQ(evalName("R = (7.5 // 2, -7.5 % 2, 1e-5 * 2, 3 * 0.5, 2.0 ** 3)"),
            "(3.0, 0.5, 2e-05, 1.5, 8.0)");
  // Floats print as Python's repr.
  EXPECT_EQ(evalName("R = (10.0, 0.1, 1e16, 1e15, 1.5e-5, 0.0001, -2.5, "
                     "123456789.125, 1e300 * 10, 2 ** 0.5)"),
            "(10.0, 0.1, 1e+16, 1000000000000000.0, 1.5e-05, 0.0001, -2.5, "
            "123456789.125, 1e+301, 1.4142135623730951)");
  EXPECT_EQ(evalName("R = ('ab' + 'c', [1] * 3, (1,) + (2,), True + True)"),
            "('abc', [1, 1, 1], (1, 2), 2)");
}

TEST(HostEval, Slices) {
  EXPECT_EQ(evalName("L = [0, 1, 2, 3, 4, 5]\n"
                     "R = (L[1:4], L[:2], L[3:], L[::-1], L[::2], L[-2:], L[:-4], "
                     "L[5:1:-2], L[10:], L[-10:2], (1, 2, 3)[1:], 'kiln'[1:3], "
                     "'kiln'[::-1], L[None:None:None])"),
            "([1, 2, 3], [0, 1], [3, 4, 5], [5, 4, 3, 2, 1, 0], [0, 2, 4], [4, 5], "
            "[0, 1], [5, 3], [], [0, 1], (2, 3), 'il', 'nlik', [0, 1, 2, 3, 4, 5])");
  EXPECT_EQ(evalName("R = (list(reversed([1, 2, 3])), [x for x in reversed((4, 5))])"),
            "([3, 2, 1], [5, 4])");
  EXPECT_EQ(evalName("import itertools\nfrom itertools import product\n"
                     "R = (list(itertools.product([1, 2], 'ab')), product((0, 1), repeat=2), "
                     "[m * w for m, w in product([64, 128], [4])], product())"),
            "([(1, 'a'), (1, 'b'), (2, 'a'), (2, 'b')], [(0, 0), (0, 1), (1, 0), (1, 1)], "
            "[256, 512], [()])");
  EXPECT_EQ(evalName("import itertools\nR = itertools.product([1], key=2)"),
            "2:5: `itertools.product()`: Kiln evaluates only `repeat=` (a non-negative int), "
            "got `key=2`");
  EXPECT_EQ(evalName("R = [1, 2][::0]"), "1:5: slice step cannot be zero");
  EXPECT_EQ(evalName("R = [1, 2][0.5:]"),
            "1:12: slice indices must be integers or None, got a float");
  EXPECT_EQ(evalName("R = {1: 2}[1:]"),
            "1:5: Kiln slices lists, tuples and strs in host code, not a dict");
}

TEST(HostEval, ComparisonsAndLogic) {
  EXPECT_EQ(evalName("R = (1 < 2 < 3, 1 < 3 < 2, 2 in [1, 2], 'a' not in "
                     "'bcd', None is None, 1 is not None, [1, 2] == [1, 2], "
                     "(1, 2) < (1, 3), 2 >= 2.0, 'b' > 'a', 3 != 3)"),
            "(True, False, True, True, True, True, True, True, True, True, "
            "False)");
  EXPECT_EQ(evalName("R = (0 or 'x', 1 and 2, not [], None or 0, [] and 1)"),
            "('x', 2, True, 0, [])");
  EXPECT_EQ(evalName("R = 'big' if 2 ** 20 > 1000 else 'small'"), "'big'");
  EXPECT_EQ(evalName("R = ('a' in {'a': 1}, 3 not in {1, 2}, True & False, "
                     "True | False, 6 & 3, 1 >> 70, -1 >> 70, 0 == 0.0, "
                     "None == 0, (1, 2) != [1, 2])"),
            "(True, True, False, True, 2, 0, -1, True, False, True)");
  EXPECT_EQ(evalName("R = [1] is [1]"),
            "1:5: Kiln cannot compare a list `is` a list");
  EXPECT_EQ(evalName("R = [1, 2][0] if None else (4, 5, 6)[-1]"), "6");
}

TEST(HostEval, Builtins) {
  EXPECT_EQ(evalName("R = (min(3, 1, 2), max([4, 9, 2]), len('abc'), "
                     "list(range(1, 10, 3)), int(3.9), int(-3.9), float(2), "
                     "bool(0), abs(-5), tuple([1, 2]), sum([1, 2, 3]), "
                     "any([0, 1]), all([]), sorted([3, 1, 2]))"),
            "(1, 9, 3, [1, 4, 7], 3, -3, 2.0, False, 5, (1, 2), 6, True, "
            "True, [1, 2, 3])");
  EXPECT_EQ(evalName("import triton\nR = (triton.cdiv(10, 4), triton.cdiv(8, "
                     "4), triton.next_power_of_2(100), "
                     "triton.next_power_of_2(128), triton.next_power_of_2(1))"),
            "(3, 2, 128, 128, 1)");
  EXPECT_EQ(evalName("import math\nimport triton.language as tl\n"
                     "B = tl.constexpr(64)\nR = (math.ceil(2.1), math.floor(-2.1), "
                     "math.log2(1024), math.sqrt(16), B)"),
            "(3, -3, 10.0, 4.0, 64)");
  EXPECT_EQ(evalName("import math\nR = math.log2(0)"),
            "2:5: `math.log2(0)`: math domain error");
  EXPECT_EQ(evalName("R = (getattr(3, 'real', 7), dict(a=1, b=2)['b'])"),
            "(7, 2)");
  // filter / map over a host def, a lambda, a builtin and None (the fused-
  // attention tutorial's `list(filter(keep, configs))`).
  EXPECT_EQ(evalName("def keep(c):\n    return c % 2 == 1\n"
                     "R = (list(filter(keep, range(6))), filter(None, [0, 3, '', 'a']), "
                     "map(lambda x: x * 10, (1, 2)), list(map(abs, [-1, 2])))"),
            "([1, 3, 5], [3, 'a'], [10, 20], [1, 2])");
  EXPECT_EQ(evalName("R = filter(len, 3)"), "1:5: Kiln cannot iterate over an int");
  EXPECT_EQ(evalName("R = map(abs)"), "1:5: `map()` takes 2 positional arguments, got 1");
}

TEST(HostEval, DisplaysLambdasComprehensions) {
  EXPECT_EQ(evalName("R = ({'a': 1, 'b': 2, 'a': 3}, {3, 1, 3}, {}, "
                     "{**{'x': 1}, 'y': 2})"),
            "({'a': 3, 'b': 2}, {3, 1}, {}, {'x': 1, 'y': 2})");
  EXPECT_EQ(evalName("R = [x * y for x in range(3) for y in (1, 10) if x]"),
            "[1, 10, 2, 20]");
  EXPECT_EQ(evalName("R = ({k: v for k, v in [('a', 1), ('b', 2)]}, "
                     "{x % 2 for x in range(5)}, sum(x for x in [1, 2, 3]))"),
            "({'a': 1, 'b': 2}, {0, 1}, 6)");
  // Closures over module scope and over enclosing locals; defaults; *args.
  EXPECT_EQ(evalName("SCALE = 3\nf = lambda x, y=2: x * y * SCALE\n"
                     "def adder(n):\n    return lambda x: x + n\n"
                     "def va(*xs, **kw):\n    return (len(xs), kw)\n"
                     "R = (f(1), f(1, y=5), adder(4)(1), va(1, 2, a=3), "
                     "(lambda: 7)(), max(*[3, 9]))"),
            "(6, 15, 5, (2, {'a': 3}), 7, 9)");
  EXPECT_EQ(evalName("n = 3\nR = f'{n} warps, {n!r}, {\"s\"!r}'"),
            "\"3 warps, 3, 's'\"");
  EXPECT_EQ(evalName("def first_even(xs):\n    for x in xs:\n"
                     "        if x % 2:\n            continue\n"
                     "        break\n    return x\n"
                     "def count():\n    n = 0\n    while True:\n"
                     "        n += 1\n        if n == 5:\n            break\n"
                     "    return n\nR = (first_even([1, 3, 4, 5]), count())"),
            "(4, 5)");
  EXPECT_EQ(evalName("R = {[1]: 2}"), "1:6: unhashable dict key: a list");
  EXPECT_EQ(evalName("R = [x for x in range(10 ** 5) for y in (1, 2)]"),
            "1:5: comprehension exceeds Kiln's limit of 100000 elements");
}

TEST(HostEval, ModuleNamesAreLazy) {
  // An unrelated bad binding is never touched; each binding sees the module
  // as Python has run it down to there: a rebinding sees the one before, a
  // name bound only further down is an error, a use after the last binding
  // sees that one.
  EXPECT_EQ(evalName("B = 21\nA = B * 2\nBAD = undefined_thing\nR = A"), "42");
  EXPECT_EQ(evalName("A = 1\nA = A + 1\nR = (A, C)\nC = 5\nC = 6"),
            "3:9: name `C` is bound only after this point of the module (Python runs it "
            "top to bottom)");
  EXPECT_EQ(evalName("A = 1\nA = A + 1\nR = A"), "2");
  EXPECT_EQ(evalName("A = B * 2\nB = 21\nR = A"),
            "1:5: name `B` is bound only after this point of the module (Python runs it "
            "top to bottom)");
  EXPECT_EQ(evalName("A = A + 1\nR = A"),
            "1:5: name `A` is bound only after this point of the module (Python runs it "
            "top to bottom)");
  EXPECT_EQ(evalName("R = foo + 1"),
            "1:5: name `foo` is not defined at the module level of this file");
  EXPECT_EQ(evalName("import triton.language as tl\nR = (tl.float16, "
                     "tl.float16 == tl.float32)"),
            "(tl.float16, False)");
}

TEST(HostEval, HostFunctions) {
  const char *file = R"(import torch
import triton

def warp_counts(limit, warp_size=32):
    """Powers of two whose threads fit in `limit`."""
    out = []
    for w in [1, 2, 4, 8, 16, 32]:
        if w * warp_size <= limit:
            out.append(w)
        elif w > 1000:
            return None
        else:
            pass
    return out

def device_warp_size():
    return getattr(torch.cuda.get_device_properties(torch.cuda.current_device()), "warp_size", 32)

def configs():
    result = []
    for w in warp_counts(1024 // 4, warp_size=device_warp_size()):
        result.append(triton.Config(dict(BLOCK=128 * w), num_warps=w))
    n, m = 2, 3
    n += m
    return (result[-1].num_warps, len(result), n)

R = warp_counts(256)
S = device_warp_size()
T = configs()
)";
  EXPECT_EQ(evalName(file, "R"), "[1, 2, 4, 8]");
  EXPECT_EQ(evalName(file, "S"), "32");
  EXPECT_EQ(evalName(file, "T"), "(8, 4, 5)");
}

TEST(HostEval, ConfigText) {
  EXPECT_EQ(evalName("import triton\nimport triton.language as tl\n"
                     "R = triton.Config(dict(BLOCK=64, DT=tl.float16, "
                     "NAME='x'), num_warps=8, num_stages=2, maxnreg=128)"),
            "BLOCK: 64, DT: fp16, NAME: x, num_warps: 8, num_ctas: 1, "
            "num_stages: 2, maxnreg: 128");
  EXPECT_EQ(evalName("import triton\nR = triton.Config(dict(), num_warps=3)"),
            "2:5: `triton.Config`: num_warps must be a power of two from 1 to "
            "32, got 3");
  EXPECT_EQ(evalName("import triton\nR = triton.Config(dict(), warps=4)"),
            "2:5: `triton.Config`: unknown keyword `warps` (Kiln knows "
            "kwargs, num_warps, num_stages, num_ctas, maxnreg and pre_hook)");
}

TEST(HostEval, LaunchValues) {
  const char *file = R"(import torch
import triton.language as tl

def h(args):
    x = args["X"]
    return (x.dtype == torch.float16, x.dtype == tl.float16, x.dtype == torch.float32,
            x.dtype.itemsize, x.element_size(), args["N"] % 16 == 0, args["Y"] is None,
            args["X"] is not None)

def missing(args):
    return args["M"] * 2
)";
  fe::ParseResult pr = fe::parse(file);
  ASSERT_FALSE(pr.error) << pr.error->message;
  ModuleScope scope(*pr.module);
  Interp in(scope, file);
  Value args;
  args.kind = Value::Kind::Dict;
  args.s = Interp::kLaunchArgs;
  for (auto [n, v] : {std::pair<const char *, LaunchValue>{
                          "X", LaunchValue::pointer(DType::F16, 0x1000)},
                      {"N", LaunchValue::integer(4096)},
                      {"Y", LaunchValue::none()}}) {
    args.elems.push_back(Value::str(n));
    args.vals.push_back(fromLaunchValue(v));
  }
  std::optional<Value> h = in.global("h", nullptr);
  ASSERT_TRUE(h);
  std::optional<Value> r = in.call(*h, {args}, {}, nullptr);
  ASSERT_TRUE(r) << in.error().message;
  EXPECT_EQ(repr(*r), "(True, True, False, 2, 2, True, True, True)");

  Interp in2(scope, file);
  std::optional<Value> m = in2.global("missing", nullptr);
  ASSERT_TRUE(m);
  EXPECT_FALSE(in2.call(*m, {args}, {}, nullptr));
  EXPECT_EQ(in2.error().message,
            "`args[\"M\"]`: no value for launch argument `M`");
  EXPECT_EQ(in2.missingArg, "M");
}

TEST(HostEval, ErrorsNameWhatKilnCannotEvaluate) {
  EXPECT_EQ(evalName("import torch\nR = torch.cuda.get_device_name(0)"),
            "2:5: `torch.cuda.get_device_name` is a host call Kiln cannot "
            "evaluate");
  EXPECT_EQ(evalName("import torch\nR = getattr(torch.cuda."
                     "get_device_properties(0), 'multi_processor_count', 1)"),
            "2:5: `getattr(torch.cuda.get_device_properties(0), "
            "'multi_processor_count', 1)`: Kiln cannot query device property "
            "`multi_processor_count` (it knows only `warp_size`, which is 32)");
  EXPECT_EQ(evalName("R = 1 // 0"), "1:5: division by zero in `1 // 0`");
  EXPECT_EQ(evalName("R = 2 ** 64"),
            "1:5: integer overflow in `2 ** 64` (Kiln evaluates host integers "
            "in 64 bits)");
  EXPECT_EQ(evalName("R = [1, 2][5]"),
            "1:5: list index 5 out of range (length 2)");
  EXPECT_EQ(evalName("R = 'a' + 1"),
            "1:5: unsupported operand types for `+`: str and int");
  EXPECT_EQ(evalName("R = (1).foo"),
            "1:9: `(1).foo`: Kiln cannot evaluate attribute `foo` of an int");
  EXPECT_EQ(evalName("R = [1] < 2"), "1:5: Kiln cannot compare a list `<` an int");
}

TEST(HostEval, EveryEvaluationIsBounded) {
  EXPECT_EQ(evalName("def f(n):\n    return f(n + 1)\nR = f(0)"),
            "2:14: expression nesting exceeds Kiln's limit of 200 levels");
  EXPECT_EQ(evalName("def g():\n    n = 0\n    while True:\n        n += 1\n"
                     "    return n\nR = g()"),
            "3:5: evaluation exceeds Kiln's limit of 1000000 steps");
  EXPECT_EQ(evalName("R = range(10 ** 9)"),
            "1:5: `range(10 ** 9)` has more than Kiln's limit of 100000 "
            "elements");
  EXPECT_EQ(evalName("R = [0] * 10 ** 9"),
            "1:5: result exceeds Kiln's limit of 100000 elements");
  // Copies count: a quadratic loop hits the step limit instead of hanging.
  EXPECT_EQ(evalName("def g():\n    xs = []\n    for i in range(50000):\n"
                     "        xs = xs + [i]\n    return len(xs)\nR = g()"),
            "4:14: evaluation exceeds Kiln's limit of 1000000 steps");
  // Deeply nested values would make printing and freeing them recurse.
  EXPECT_EQ(evalName("def g():\n    x = []\n    for i in range(1000):\n"
                     "        x = [x]\n    return x\nR = g()"),
            "4:13: value nests deeper than Kiln's limit of 100 levels");
  EXPECT_EQ(evalName("def g():\n    x = []\n    for i in range(1000):\n"
                     "        y = []\n        y.append(x)\n        x = y\n"
                     "    return x\nR = g()"),
            "5:9: value nests deeper than Kiln's limit of 100 levels");
  // Shallow recursion is fine; the parser bounds expression nesting.
  EXPECT_EQ(evalName("def f(n):\n    return 0 if n == 0 else 1 + f(n - 1)\n"
                     "R = f(25)"),
            "25");
}

} // namespace

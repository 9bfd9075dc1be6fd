//===- PythonMath.cpp - Python's `math` module in constant expressions ----===//
//
// Kernel files compute constants with Python's `math`
// (`_kAlpha = tl.constexpr(math.sqrt(2.0 / math.pi))`, `math.log2(BLOCK)`).
// Python evaluates those on the host before Triton sees them; Kiln folds
// them here, on numbers only: a tensor argument is an error that points at
// the `tl` function to use instead. Results follow CPython's: ints where
// `math` returns ints (floor, ceil, trunc, gcd, ...), "math domain error"
// where it raises.
//
//===----------------------------------------------------------------------===//
#include "Registry.h"

#include "llvm/ADT/StringSwitch.h"
#include <cmath>
#include <limits>
#include <numeric>

using namespace kiln;
using namespace kiln::fe;
using namespace kiln::ast;

namespace {
enum class Shape { FloatToFloat, FloatToInt, FloatToBool, TwoFloats, TwoInts };

struct MathFn {
  const char *name;
  Shape shape;
  const char *tlName; ///< What a kernel uses on tensors ("" if nothing).
};

const MathFn kMathFns[] = {
    {"sqrt", Shape::FloatToFloat, "tl.sqrt"},
    {"exp", Shape::FloatToFloat, "tl.exp"},
    {"exp2", Shape::FloatToFloat, "tl.exp2"},
    {"expm1", Shape::FloatToFloat, "libdevice.expm1"},
    {"log", Shape::FloatToFloat, "tl.log"},
    {"log2", Shape::FloatToFloat, "tl.log2"},
    {"log10", Shape::FloatToFloat, "libdevice.log10"},
    {"log1p", Shape::FloatToFloat, "libdevice.log1p"},
    {"sin", Shape::FloatToFloat, "tl.sin"},
    {"cos", Shape::FloatToFloat, "tl.cos"},
    {"tan", Shape::FloatToFloat, "libdevice.tan"},
    {"asin", Shape::FloatToFloat, "libdevice.asin"},
    {"acos", Shape::FloatToFloat, "libdevice.acos"},
    {"atan", Shape::FloatToFloat, "libdevice.atan"},
    {"sinh", Shape::FloatToFloat, "libdevice.sinh"},
    {"cosh", Shape::FloatToFloat, "libdevice.cosh"},
    {"tanh", Shape::FloatToFloat, "libdevice.tanh"},
    {"asinh", Shape::FloatToFloat, "libdevice.asinh"},
    {"acosh", Shape::FloatToFloat, "libdevice.acosh"},
    {"atanh", Shape::FloatToFloat, "libdevice.atanh"},
    {"erf", Shape::FloatToFloat, "tl.erf"},
    {"erfc", Shape::FloatToFloat, "libdevice.erfc"},
    {"gamma", Shape::FloatToFloat, "libdevice.tgamma"},
    {"lgamma", Shape::FloatToFloat, "libdevice.lgamma"},
    {"fabs", Shape::FloatToFloat, "tl.abs"},
    {"degrees", Shape::FloatToFloat, ""},
    {"radians", Shape::FloatToFloat, ""},
    {"floor", Shape::FloatToInt, "tl.floor"},
    {"ceil", Shape::FloatToInt, "tl.ceil"},
    {"trunc", Shape::FloatToInt, "libdevice.trunc"},
    {"isqrt", Shape::FloatToInt, ""},
    {"factorial", Shape::FloatToInt, ""},
    {"isinf", Shape::FloatToBool, "libdevice.isinf"},
    {"isnan", Shape::FloatToBool, "libdevice.isnan"},
    {"isfinite", Shape::FloatToBool, "libdevice.isfinited"},
    {"pow", Shape::TwoFloats, "libdevice.pow"},
    {"atan2", Shape::TwoFloats, "libdevice.atan2"},
    {"hypot", Shape::TwoFloats, "libdevice.hypot"},
    {"fmod", Shape::TwoFloats, "tl.fmod"},
    {"copysign", Shape::TwoFloats, "libdevice.copysign"},
    {"gcd", Shape::TwoInts, ""},
    {"lcm", Shape::TwoInts, ""},
};

const MathFn *findMathFn(llvm::StringRef name) {
  for (const MathFn &f : kMathFns)
    if (name == f.name)
      return &f;
  return nullptr;
}

/// A double CPython's int() would make of a finite value in int64's range.
std::optional<int64_t> exactInt(double v) {
  if (!std::isfinite(v) || v < -9.2233720368547758e18 || v >= 9.2233720368547758e18)
    return std::nullopt;
  return static_cast<int64_t>(v);
}
} // namespace

int kiln::fe::lookupMathAttr(llvm::StringRef attr, Val &out) {
  constexpr double kPi = 3.14159265358979323846;
  std::optional<double> c = llvm::StringSwitch<std::optional<double>>(attr)
                                .Case("pi", kPi)
                                .Case("e", 2.71828182845904523536)
                                .Case("tau", 2 * kPi)
                                .Case("inf", std::numeric_limits<double>::infinity())
                                .Case("nan", std::numeric_limits<double>::quiet_NaN())
                                .Default(std::nullopt);
  if (c) {
    out = Val::flt(*c);
    return 0;
  }
  if (findMathFn(attr)) {
    out = Val::named(Val::Kind::Builtin, "math." + attr.str());
    return 0;
  }
  return 2;
}

FailureOr<Val> kiln::fe::callMath(IRGen &g, llvm::StringRef name,
                                  const CallArgs &args, const CallExpr *e) {
  llvm::StringRef fnName = name.drop_front(strlen("math."));
  const MathFn *fn = findMathFn(fnName);
  assert(fn && "lookupMathAttr hands out only table names");
  if (!args.kw.empty())
    return g.fail(args.kwNodes[0],
                  "`" + name + "` does not take keyword arguments");
  bool two = fn->shape == Shape::TwoFloats || fn->shape == Shape::TwoInts;
  // math.log(x, base) is the one optional second argument.
  bool logBase = fnName == "log" && args.pos.size() == 2;
  size_t want = two || logBase ? 2 : 1;
  if (args.pos.size() != want)
    return g.fail(e, "`" + name + "` expects " + std::to_string(want) +
                         " argument" + (want == 1 ? "" : "s") + ", got " +
                         std::to_string(args.pos.size()));
  for (size_t k = 0; k < want; ++k) {
    const Val &v = args.pos[k];
    if (v.isNumber())
      continue;
    std::string use = fn->tlName[0] ? std::string("; on tensors use `") +
                                          fn->tlName + "`"
                                    : std::string();
    return g.fail(args.posNodes[k],
                  "`" + name + "` is Python's, evaluated when the kernel is "
                  "compiled: it takes numbers, got " + g.typeName(v) + use);
  }
  auto domain = [&]() -> FailureOr<Val> {
    return g.fail(e, "`" + name + "`: math domain error");
  };
  double x = args.pos[0].asDouble();
  switch (fn->shape) {
  case Shape::FloatToFloat: {
    double r;
    if (logBase) {
      double b = args.pos[1].asDouble();
      if (x <= 0 || b <= 0 || b == 1)
        return domain();
      return Val::flt(std::log(x) / std::log(b));
    }
    bool bad = ((fnName == "sqrt") && x < 0) ||
               ((fnName == "log" || fnName == "log2" || fnName == "log10") && x <= 0) ||
               (fnName == "log1p" && x <= -1) ||
               ((fnName == "asin" || fnName == "acos") && (x < -1 || x > 1)) ||
               (fnName == "acosh" && x < 1) ||
               (fnName == "atanh" && (x <= -1 || x >= 1)) ||
               ((fnName == "gamma" || fnName == "lgamma") && x <= 0 && x == std::floor(x));
    if (bad)
      return domain();
    r = llvm::StringSwitch<double>(fnName)
            .Case("sqrt", std::sqrt(x)).Case("exp", std::exp(x))
            .Case("exp2", std::exp2(x)).Case("expm1", std::expm1(x))
            .Case("log", std::log(x)).Case("log2", std::log2(x))
            .Case("log10", std::log10(x)).Case("log1p", std::log1p(x))
            .Case("sin", std::sin(x)).Case("cos", std::cos(x)).Case("tan", std::tan(x))
            .Case("asin", std::asin(x)).Case("acos", std::acos(x))
            .Case("atan", std::atan(x)).Case("sinh", std::sinh(x))
            .Case("cosh", std::cosh(x)).Case("tanh", std::tanh(x))
            .Case("asinh", std::asinh(x)).Case("acosh", std::acosh(x))
            .Case("atanh", std::atanh(x)).Case("erf", std::erf(x))
            .Case("erfc", std::erfc(x)).Case("gamma", std::tgamma(x))
            .Case("lgamma", std::lgamma(x)).Case("fabs", std::fabs(x))
            .Case("degrees", x * 180.0 / 3.14159265358979323846)
            .Case("radians", x * 3.14159265358979323846 / 180.0)
            .Default(0.0);
    return Val::flt(r);
  }
  case Shape::FloatToInt: {
    if (fnName == "isqrt" || fnName == "factorial") {
      if (args.pos[0].kind == Val::Kind::Float || args.pos[0].wide)
        return g.fail(args.posNodes[0], "`" + name + "` takes an integer");
      int64_t n = args.pos[0].i;
      if (n < 0)
        return g.fail(e, "`" + name + "` is not defined for negative values");
      if (fnName == "isqrt") {
        int64_t r = static_cast<int64_t>(std::sqrt(static_cast<double>(n)));
        while (r > 0 && r > n / r)
          --r;
        while ((r + 1) <= n / (r + 1))
          ++r;
        return Val::integer(r);
      }
      int64_t r = 1;
      for (int64_t k = 2; k <= n; ++k)
        if (__builtin_mul_overflow(r, k, &r))
          return g.fail(e, "integer overflow in constant expression");
      return Val::integer(r);
    }
    if (args.pos[0].kind != Val::Kind::Float) // floor(5) is 5, floor(True) 1
      return args.pos[0].wide ? args.pos[0] : Val::integer(args.pos[0].i);
    double r = fnName == "floor" ? std::floor(x) : fnName == "ceil" ? std::ceil(x) : std::trunc(x);
    std::optional<int64_t> i = exactInt(r);
    if (!i)
      return g.fail(e, "`" + name + "` of " + g.typeName(args.pos[0]) +
                           ": the result is not a 64-bit integer");
    return Val::integer(*i);
  }
  case Shape::FloatToBool:
    return Val::boolean(fnName == "isinf"   ? std::isinf(x)
                        : fnName == "isnan" ? std::isnan(x)
                                            : std::isfinite(x));
  case Shape::TwoFloats: {
    double y = args.pos[1].asDouble();
    if (fnName == "fmod" && (y == 0 || std::isinf(x)))
      return domain();
    if (fnName == "pow" && x == 0 && y < 0)
      return domain();
    if (fnName == "pow" && x < 0 && y != std::floor(y))
      return domain();
    return Val::flt(llvm::StringSwitch<double>(fnName)
                        .Case("pow", std::pow(x, y))
                        .Case("atan2", std::atan2(x, y))
                        .Case("hypot", std::hypot(x, y))
                        .Case("fmod", std::fmod(x, y))
                        .Default(std::copysign(x, y)));
  }
  case Shape::TwoInts: {
    for (size_t k = 0; k < 2; ++k)
      if (args.pos[k].kind == Val::Kind::Float || args.pos[k].wide)
        return g.fail(args.posNodes[k], "`" + name + "` takes 64-bit integers");
    int64_t a = args.pos[0].i, b = args.pos[1].i;
    if (a == std::numeric_limits<int64_t>::min() || b == std::numeric_limits<int64_t>::min())
      return g.fail(e, "integer overflow in constant expression");
    int64_t gcd = std::gcd(a, b);
    if (fnName == "gcd")
      return Val::integer(gcd);
    if (a == 0 || b == 0)
      return Val::integer(0);
    int64_t r;
    if (__builtin_mul_overflow(std::abs(a) / gcd, std::abs(b), &r))
      return g.fail(e, "integer overflow in constant expression");
    return Val::integer(r);
  }
  }
  return g.fail(e, "`" + name + "` is not supported");
}

//===- HostEvalCall.cpp - Host Python calls: builtins, defs, statements ---===//
#include "HostEval.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include <cmath>

using namespace kiln;
using namespace kiln::ast;
using namespace kiln::host;
using K = Value::Kind;

using KwArgs = std::vector<std::pair<std::string, Value>>;

std::optional<std::vector<Value>> Interp::iterate(const Value &v,
                                                  const Node *where) {
  if (!charge(where, v.elems.size() + v.s.size()))
    return std::nullopt;
  switch (v.kind) {
  case K::List:
  case K::Tuple:
  case K::Set:
  case K::Dict:
    return v.elems;
  case K::Str: {
    std::vector<Value> out;
    for (char c : v.s)
      out.push_back(Value::str(std::string(1, c)));
    return out;
  }
  default:
    if (isOpaque(v))
      return opaque(v, where, "iterate over it");
    fail(where, "Kiln cannot iterate over " + aTypeName(v));
    return std::nullopt;
  }
}

std::optional<Value> Interp::callExpr(const CallExpr *c,
                                      const std::shared_ptr<Env> &env) {
  std::optional<Value> f = eval(c->func, env);
  if (!f)
    return std::nullopt;
  if (isOpaque(*f) && !f->from.empty())
    return opaque(*f, c->func, "call it");
  if (f->kind == K::Extern || f->kind == K::Module)
    return fail(c, "`" + text(c->func).str() +
                       "` is a host call Kiln cannot evaluate");
  std::vector<Value> args;
  for (const Expr *a : c->args) {
    auto *star = llvm::dyn_cast<StarredExpr>(a);
    std::optional<Value> v = eval(star ? star->value : a, env);
    if (!v)
      return std::nullopt;
    if (!star) {
      args.push_back(std::move(*v));
      continue;
    }
    std::optional<std::vector<Value>> items = iterate(*v, a);
    if (!items)
      return std::nullopt;
    args.insert(args.end(), items->begin(), items->end());
  }
  KwArgs kwargs;
  for (const Keyword &k : c->keywords) {
    std::optional<Value> v = eval(k.value, env);
    if (!v)
      return std::nullopt;
    if (!k.name.empty()) {
      kwargs.emplace_back(k.name, std::move(*v));
      continue;
    }
    // `**mapping`
    if (v->kind != K::Dict)
      return fail(k.value, "`**` needs a dict, got " + aTypeName(*v));
    for (size_t j = 0; j < v->elems.size(); ++j) {
      if (v->elems[j].kind != K::Str)
        return fail(k.value, "keywords must be strings, got " +
                                 repr(v->elems[j]));
      kwargs.emplace_back(v->elems[j].s, v->vals[j]);
    }
  }
  return call(*f, std::move(args), std::move(kwargs), c);
}

std::optional<Value> Interp::call(const Value &f, std::vector<Value> args,
                                  KwArgs kwargs, const Node *where) {
  switch (f.kind) {
  case K::Builtin:
    return callBuiltin(f.s, args, kwargs, where);
  case K::Function:
    return callFunction(f, args, kwargs, where);
  case K::Method:
    if (!kwargs.empty())
      return fail(where, "`." + f.s + "()` takes no keyword arguments here");
    return callMethod(f, args, where);
  default:
    return fail(where, "`" + text(where).str() + "`: " + aTypeName(f) +
                           " is not callable");
  }
}

std::optional<Value> Interp::callMethod(const Value &m,
                                        std::vector<Value> &args,
                                        const Node *where) {
  const Value &self = m.elems[0];
  const std::string &name = m.s;
  auto arity = [&](size_t lo, size_t hi) {
    if (args.size() >= lo && args.size() <= hi)
      return true;
    fail(where, "`." + name + "()` takes " + std::to_string(lo) +
                    (hi != lo ? " to " + std::to_string(hi) : "") +
                    " arguments, got " + std::to_string(args.size()));
    return false;
  };
  if (name == "element_size" && arity(0, 0))
    return Value::integer(dtypeBytes(self.dtype));
  if (name == "is_floating_point" && arity(0, 0))
    return Value::boolean(isFloat(self.dtype));
  if (self.kind == K::DType && llvm::StringRef(name).starts_with("is_")) {
    if (!arity(0, 0))
      return std::nullopt;
    if (std::optional<bool> r = dtypePredicate(self.dtype, name))
      return Value::boolean(*r);
    return fail(where, "Kiln does not know the dtype method `" + name + "`");
  }
  if (name == "append" || name == "extend")
    return fail(where, "`." + name + "()` is supported only as a statement "
                       "on a local variable (`xs." + name + "(...)`)");
  if ((name == "index" || name == "count") && arity(1, 1)) {
    int64_t n = 0;
    for (size_t k = 0; k < self.elems.size(); ++k)
      if (equal(self.elems[k], args[0])) {
        if (name == "index")
          return Value::integer(k);
        ++n;
      }
    if (name == "index")
      return fail(where, repr(args[0]) + " is not in the list");
    return Value::integer(n);
  }
  if (name == "get" && arity(1, 2)) {
    for (size_t k = 0; k < self.elems.size(); ++k)
      if (equal(self.elems[k], args[0]))
        return self.vals[k];
    return args.size() == 2 ? args[1] : Value::none();
  }
  if ((name == "keys" || name == "values" || name == "items") && arity(0, 0)) {
    std::vector<Value> out;
    for (size_t k = 0; k < self.elems.size(); ++k)
      out.push_back(name == "keys"     ? self.elems[k]
                    : name == "values" ? self.vals[k]
                                       : Value::seq(K::Tuple, {self.elems[k],
                                                               self.vals[k]}));
    return Value::seq(K::List, std::move(out));
  }
  return std::nullopt;
}

/// Reads an integer argument, with its name for messages.
static bool wantInt(Interp &in, const Value &v, const char *fn,
                    const char *what, const Node *where) {
  if (v.kind == K::Int || v.kind == K::Bool)
    return true;
  in.fail(where, std::string("`") + fn + "`: " + what +
                     " must be an integer, got " + aTypeName(v));
  return false;
}

std::optional<Value> Interp::callBuiltin(const std::string &name,
                                         std::vector<Value> &args,
                                         KwArgs &kwargs, const Node *where) {
  auto arity = [&](size_t lo, size_t hi) {
    if (args.size() >= lo && args.size() <= hi)
      return true;
    fail(where, "`" + name + "()` takes " + std::to_string(lo) +
                    (hi != lo ? " to " + std::to_string(hi) : "") +
                    " positional arguments, got " +
                    std::to_string(args.size()));
    return false;
  };
  if (name == "triton.Config")
    return makeConfig(args, kwargs, where);
  // triton.language.target_info in a @triton.constexpr_function: the answers
  // kernels get from the compiler (lib/Frontend/Builtins/CompileTime.cpp).
  if (llvm::StringRef(name).starts_with("triton.language.target_info.")) {
    llvm::StringRef fn = llvm::StringRef(name).rsplit('.').second;
    if (fn != "cuda_capability_geq")
      return arity(0, 0) ? std::optional<Value>(Value::boolean(fn == "is_cuda"))
                         : std::nullopt;
    if (!arity(1, 2))
      return std::nullopt;
    std::optional<Value> minor = args.size() > 1 ? args[1] : Value::integer(0);
    for (const auto &[key, v] : kwargs)
      if (key == "minor" && args.size() == 1)
        minor = v;
      else
        return fail(where, "`cuda_capability_geq()` got an unexpected keyword `" + key + "`");
    if (args[0].kind != K::Int || minor->kind != K::Int)
      return fail(where, "`cuda_capability_geq()` takes integers (major, minor=0), got " +
                             aTypeName(args[0]) + " and " + aTypeName(*minor));
    if (!targetArch)
      return fail(where, "`cuda_capability_geq()` needs the target Kiln compiles for, "
                         "which is known only while compiling a kernel");
    return Value::boolean(int64_t(targetArch) >= args[0].i * 10 + minor->i);
  }
  if (name == "hasattr")
    return arity(2, 2) ? hasAttr(args[0], args[1], where) : std::nullopt;
  // Builtins that read their argument's value.
  static const char *kReadsValue[] = {"bool",  "str",   "int", "float",
                                      "abs",   "round", "len"};
  if (llvm::is_contained(kReadsValue, name))
    for (const Value &a : args)
      if (isOpaque(a))
        return opaque(a, where, "evaluate `" + name + "()` of it");
  if (name == "dict") {
    if (!arity(0, 1))
      return std::nullopt;
    Value d;
    d.kind = K::Dict;
    if (!args.empty()) {
      if (args[0].kind != K::Dict)
        return fail(where, "`dict()` of " + aTypeName(args[0]));
      d = args[0];
      d.s.clear();
    }
    for (auto &[k, v] : kwargs) {
      auto it = llvm::find_if(d.elems, [&](const Value &x) {
        return x.kind == K::Str && x.s == k;
      });
      if (it != d.elems.end()) {
        d.vals[it - d.elems.begin()] = v;
        d.adopt(v);
        continue;
      }
      d.elems.push_back(Value::str(k));
      d.vals.push_back(v);
      d.adopt(v);
    }
    return d;
  }
  if (name == "itertools.product") {
    // product(*iterables, repeat=1): the tuples, the last iterable fastest.
    int64_t repeat = 1;
    for (auto &[n, v] : kwargs) {
      if (n != "repeat" || v.kind != K::Int || v.i < 0)
        return fail(where, "`itertools.product()`: Kiln evaluates only `repeat=` (a "
                           "non-negative int), got `" + n + "=" + repr(v) + "`");
      repeat = v.i;
    }
    std::vector<std::vector<Value>> pools;
    for (int64_t r = 0; r < repeat; ++r)
      for (const Value &a : args) {
        std::optional<std::vector<Value>> items = iterate(a, where);
        if (!items)
          return std::nullopt;
        pools.push_back(std::move(*items));
      }
    std::vector<Value> out{Value::seq(K::Tuple, {})};
    for (const std::vector<Value> &pool : pools) {
      std::vector<Value> next;
      for (const Value &prefix : out)
        for (const Value &x : pool) {
          std::vector<Value> t = prefix.elems;
          t.push_back(x);
          next.push_back(Value::seq(K::Tuple, std::move(t)));
        }
      out = std::move(next);
      if (!charge(where, out.size())) // bounded, as every evaluation
        return std::nullopt;
    }
    return Value::seq(K::List, std::move(out));
  }
  if (name == "logging.log" || name == "logging.getLogger") // see attribute()
    return name == "logging.log" ? Value::none() : Value::named(K::Module, "logging.Logger");
  if (!kwargs.empty())
    return fail(where, "`" + name + "()`: Kiln does not evaluate keyword "
                       "argument `" + kwargs[0].first + "` here");
  if (name == "torch.cuda.current_device") {
    if (!arity(0, 0))
      return std::nullopt;
    return Value::integer(0); // Kiln's device index is only ever passed on
  }
  if (name == "torch.cuda.get_device_properties") {
    if (!arity(0, 1))
      return std::nullopt;
    return Value::named(K::DeviceProps, "");
  }
  if (name == "triton.language.get_int_dtype") {
    if (!arity(2, 2) || !wantInt(*this, args[0], "get_int_dtype", "bitwidth",
                                 where))
      return std::nullopt;
    bool isSigned = args[1].kind == K::Bool || args[1].kind == K::Int
                        ? args[1].i != 0
                        : true;
    if (std::optional<DType> d = intDType(args[0].i, isSigned))
      return Value::dtypeOf(*d);
    return fail(where, "`get_int_dtype`: unsupported bitwidth " +
                           std::to_string(args[0].i));
  }
  if (name == "triton.cdiv" || name == "triton.language.cdiv") {
    if (!arity(2, 2) || !wantInt(*this, args[0], "cdiv", "x", where) ||
        !wantInt(*this, args[1], "cdiv", "div", where))
      return std::nullopt;
    std::optional<Value> sum =
        binary(BinOpKind::Add, args[0], args[1], where);
    std::optional<Value> num =
        sum ? binary(BinOpKind::Sub, *sum, Value::integer(1), where)
            : std::nullopt;
    return num ? binary(BinOpKind::FloorDiv, *num, args[1], where)
               : std::nullopt;
  }
  if (name == "triton.language.constexpr") {
    // `BLOCK = tl.constexpr(64)` at module level is the value itself.
    if (!arity(1, 1))
      return std::nullopt;
    return args[0];
  }
  if (name == "math.ceil" || name == "math.floor" || name == "math.log2" ||
      name == "math.sqrt" || name == "math.log" || name == "math.log10" ||
      name == "math.exp") {
    if (!arity(1, 1))
      return std::nullopt;
    const Value &v = args[0];
    if (v.kind != K::Int && v.kind != K::Bool && v.kind != K::Float)
      return fail(where, "`" + name + "()` of " + aTypeName(v));
    double d = v.kind == K::Float ? v.f : double(v.i);
    bool isLog = name == "math.log2" || name == "math.log" ||
                 name == "math.log10";
    if ((isLog && d <= 0) || (name == "math.sqrt" && d < 0))
      return fail(where, "`" + text(where).str() + "`: math domain error");
    if (name == "math.log2")
      return Value::flt(std::log2(d));
    if (name == "math.log")
      return Value::flt(std::log(d));
    if (name == "math.log10")
      return Value::flt(std::log10(d));
    if (name == "math.exp") {
      double r = std::exp(d);
      if (!std::isfinite(r))
        return fail(where, "`" + text(where).str() + "`: math range error");
      return Value::flt(r);
    }
    if (name == "math.sqrt")
      return Value::flt(std::sqrt(d));
    if (v.kind != K::Float)
      return Value::integer(v.i);
    double r = name == "math.ceil" ? std::ceil(d) : std::floor(d);
    if (!std::isfinite(r) || std::fabs(r) >= 9.2e18)
      return fail(where, "`" + text(where).str() + "`: result out of range");
    return Value::integer(int64_t(r));
  }
  if (name == "triton.next_power_of_2") {
    if (!arity(1, 1) ||
        !wantInt(*this, args[0], "next_power_of_2", "n", where))
      return std::nullopt;
    int64_t n = args[0].i;
    if (n > (int64_t(1) << 62))
      return fail(where, "`next_power_of_2`: " + std::to_string(n) +
                             " is too large");
    int64_t p = 1;
    while (p < n)
      p <<= 1;
    return Value::integer(n <= 0 ? (n == 0 ? 0 : 1) : p);
  }
  if (name == "min" || name == "max" || name == "sum" || name == "any" ||
      name == "all" || name == "sorted" || name == "list" || name == "tuple" ||
      name == "enumerate" || name == "reversed") {
    if (args.empty() && (name == "list" || name == "tuple"))
      return Value::seq(name == "list" ? K::List : K::Tuple, {});
    if (!arity(1, (name == "min" || name == "max") ? SIZE_MAX : 1))
      return std::nullopt;
    std::vector<Value> items;
    if (args.size() > 1) {
      items = args;
    } else {
      std::optional<std::vector<Value>> it = iterate(args[0], where);
      if (!it)
        return std::nullopt;
      items = std::move(*it);
    }
    if (name == "list" || name == "tuple")
      return Value::seq(name == "list" ? K::List : K::Tuple, std::move(items));
    if (name == "reversed") // an iterator in Python; a list iterates the same
      return Value::seq(K::List, std::vector<Value>(items.rbegin(), items.rend()));
    if (name == "enumerate") {
      std::vector<Value> out;
      for (size_t k = 0; k < items.size(); ++k)
        out.push_back(Value::seq(K::Tuple, {Value::integer(k), items[k]}));
      return Value::seq(K::List, std::move(out));
    }
    if (name == "any" || name == "all") {
      bool want = name == "any";
      for (const Value &v : items) {
        std::optional<bool> t = truth(v, where);
        if (!t)
          return std::nullopt;
        if (*t == want)
          return Value::boolean(want);
      }
      return Value::boolean(!want);
    }
    if (name == "sum") {
      Value acc = Value::integer(0);
      for (const Value &v : items) {
        std::optional<Value> r = binary(BinOpKind::Add, acc, v, where);
        if (!r)
          return std::nullopt;
        acc = *r;
      }
      return acc;
    }
    if (name == "sorted") {
      // Insertion sort with Python's `<`: host lists here are short.
      std::vector<Value> out;
      for (Value &v : items) {
        size_t pos = out.size();
        while (pos > 0) {
          std::optional<bool> lt = compare(CmpOpKind::Lt, v, out[pos - 1],
                                           where);
          if (!lt)
            return std::nullopt;
          if (!*lt)
            break;
          --pos;
        }
        out.insert(out.begin() + pos, std::move(v));
      }
      return Value::seq(K::List, std::move(out));
    }
    if (items.empty())
      return fail(where, "`" + name + "()` of an empty sequence");
    Value best = items[0];
    for (size_t k = 1; k < items.size(); ++k) {
      std::optional<bool> lt =
          name == "min" ? compare(CmpOpKind::Lt, items[k], best, where)
                        : compare(CmpOpKind::Gt, items[k], best, where);
      if (!lt)
        return std::nullopt;
      if (*lt)
        best = items[k];
    }
    return best;
  }
  if (name == "filter" || name == "map") {
    // filter(f, it) with f None keeping truthy items; map(f, it) of one
    // iterable. Lists, as list(...) of Python's iterators would give.
    if (!arity(2, 2))
      return std::nullopt;
    std::optional<std::vector<Value>> items = iterate(args[1], where);
    if (!items)
      return std::nullopt;
    std::vector<Value> out;
    for (Value &item : *items) {
      std::optional<Value> r = args[0].kind == K::None && name == "filter"
                                   ? item
                                   : call(args[0], {item}, {}, where);
      if (!r)
        return std::nullopt;
      if (name == "map") {
        out.push_back(std::move(*r));
        continue;
      }
      std::optional<bool> keep = truth(*r, where);
      if (!keep)
        return std::nullopt;
      if (*keep)
        out.push_back(std::move(item));
    }
    return Value::seq(K::List, std::move(out));
  }
  if (name == "len") {
    if (!arity(1, 1))
      return std::nullopt;
    const Value &v = args[0];
    if (v.kind == K::Str)
      return Value::integer(v.s.size());
    if (v.kind == K::List || v.kind == K::Tuple || v.kind == K::Set ||
        v.kind == K::Dict)
      return Value::integer(v.elems.size());
    return fail(where, "`len()` of " + aTypeName(v));
  }
  if (name == "range") {
    if (!arity(1, 3))
      return std::nullopt;
    for (const Value &a : args)
      if (!wantInt(*this, a, "range", "each argument", where))
        return std::nullopt;
    int64_t start = args.size() > 1 ? args[0].i : 0;
    int64_t stop = args.size() > 1 ? args[1].i : args[0].i;
    int64_t stepBy = args.size() > 2 ? args[2].i : 1;
    if (stepBy == 0)
      return fail(where, "`range()` step must not be zero");
    double count = std::ceil((double(stop) - double(start)) / double(stepBy));
    if (count > double(kMaxElements))
      return fail(where, "`" + text(where).str() + "` has more than Kiln's "
                         "limit of " + std::to_string(kMaxElements) +
                         " elements");
    std::vector<Value> out;
    for (int64_t v = start; stepBy > 0 ? v < stop : v > stop; v += stepBy)
      out.push_back(Value::integer(v));
    return Value::seq(K::List, std::move(out));
  }
  if (name == "int" || name == "float" || name == "bool" || name == "abs" ||
      name == "str" || name == "round") {
    if (!arity(name == "bool" || name == "int" || name == "float" ? 0 : 1, 1))
      return std::nullopt;
    if (args.empty())
      return name == "bool"  ? Value::boolean(false)
             : name == "int" ? Value::integer(0)
                             : Value::flt(0);
    const Value &v = args[0];
    if (name == "bool")
      return Value::boolean(truthy(v));
    if (name == "str")
      return Value::str(str(v));
    bool num = v.kind == K::Int || v.kind == K::Bool || v.kind == K::Float;
    if (name == "float") {
      if (num)
        return Value::flt(v.kind == K::Float ? v.f : double(v.i));
      double d;
      if (v.kind == K::Str && !llvm::StringRef(v.s).trim().getAsDouble(d))
        return Value::flt(d);
    } else if (name == "int") {
      if (v.kind == K::Int || v.kind == K::Bool)
        return Value::integer(v.i);
      if (v.kind == K::Float && std::isfinite(v.f) && std::fabs(v.f) < 9e18)
        return Value::integer(int64_t(v.f));
      int64_t i;
      if (v.kind == K::Str && !llvm::StringRef(v.s).trim().getAsInteger(10, i))
        return Value::integer(i);
    } else if (name == "abs" && num) {
      if (v.kind == K::Float)
        return Value::flt(std::fabs(v.f));
      if (v.i == INT64_MIN)
        return fail(where, "integer overflow in `abs()`");
      return Value::integer(v.i < 0 ? -v.i : v.i);
    } else if (name == "round" && num) {
      if (v.kind != K::Float)
        return Value::integer(v.i);
      return Value::integer(int64_t(std::nearbyint(v.f)));
    }
    return fail(where, "`" + name + "()` of " + repr(v) + " (a " +
                           typeName(v) + ")");
  }
  if (name == "isinstance") {
    if (!arity(2, 2))
      return std::nullopt;
    // A class is a builtin type, or one of Triton's (values are unwrapped
    // here: nothing is a tl.constexpr).
    auto isA = [&](const Value &v, const Value &cls) -> std::optional<bool> {
      llvm::StringRef c = cls.s;
      c.consume_front("triton.language.");
      c.consume_front("core.");
      if (c == "constexpr")
        return false;
      if (c == "dtype")
        return v.kind == K::DType;
      if (c == "int")
        return v.kind == K::Int || v.kind == K::Bool;
      if (c == "bool")
        return v.kind == K::Bool;
      if (c == "float")
        return v.kind == K::Float;
      if (c == "str")
        return v.kind == K::Str;
      if (c == "tuple")
        return v.kind == K::Tuple;
      if (c == "list")
        return v.kind == K::List;
      if (c == "dict")
        return v.kind == K::Dict;
      return std::nullopt;
    };
    std::vector<Value> classes =
        args[1].kind == K::Tuple ? args[1].elems : std::vector<Value>{args[1]};
    for (const Value &cls : classes) {
      std::optional<bool> r = isA(args[0], cls);
      if (!r)
        return fail(where, "`isinstance()` with `" + cls.s +
                               "`: Kiln knows the builtin types and "
                               "tl.constexpr / tl.dtype");
      if (*r)
        return Value::boolean(true);
    }
    return Value::boolean(false);
  }
  if (name == "getattr") {
    if (!arity(2, 3))
      return std::nullopt;
    if (args[1].kind != K::Str)
      return fail(where, "`getattr()`: the attribute name must be a str");
    if (args.size() == 3) {
      // With a default, an attribute Kiln does not know is the default.
      bool wasFailed = failed;
      EvalError saved = err;
      std::optional<Value> v = attribute(args[0], args[1].s, where);
      // Host objects Kiln only partly models (device properties) have
      // attributes Kiln cannot answer: that stays an error.
      if (v || args[0].kind == K::DeviceProps || args[0].kind == K::Extern ||
          args[0].kind == K::Module)
        return v;
      failed = wasFailed;
      err = saved;
      return args[2];
    }
    return attribute(args[0], args[1].s, where);
  }
  if (name == "zip") {
    std::vector<std::vector<Value>> seqs;
    size_t n = SIZE_MAX;
    for (const Value &a : args) {
      std::optional<std::vector<Value>> it = iterate(a, where);
      if (!it)
        return std::nullopt;
      n = std::min(n, it->size());
      seqs.push_back(std::move(*it));
    }
    std::vector<Value> out;
    for (size_t k = 0; !seqs.empty() && k < n; ++k) {
      std::vector<Value> t;
      for (auto &s : seqs)
        t.push_back(s[k]);
      out.push_back(Value::seq(K::Tuple, std::move(t)));
    }
    return Value::seq(K::List, std::move(out));
  }
  return fail(where, "`" + text(where).str() + "`: Kiln cannot call `" + name +
                         "` in host code");
}

//===- HostEval.cpp - Host Python values, names, attributes ---------------===//
#include "HostEval.h"
#include "Value.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include <cmath>
#include <cstdio>

using namespace kiln;
using namespace kiln::ast;
using namespace kiln::host;
using K = Value::Kind;

namespace kiln::fe {
// Builtins/Names.cpp: 0 when Kiln's triton.language has `mod.attr`.
int lookupModuleAttr(llvm::StringRef mod, llvm::StringRef attr, Val &out);
} // namespace kiln::fe

//===----------------------------------------------------------------------===//
// Values
//===----------------------------------------------------------------------===//

namespace {
/// `tl.<name>` / `torch.<name>` spellings and the AOT name of the dtype they
/// denote; resolved through parseDTypeName, so dtypes Kiln does not have
/// are simply unknown.
struct DTypeName {
  const char *name;
  const char *aot;
};
constexpr DTypeName kTritonDTypes[] = {
    {"int1", "i1"},       {"int8", "i8"},       {"int16", "i16"},
    {"int32", "i32"},     {"int64", "i64"},     {"uint8", "u8"},
    {"uint16", "u16"},    {"uint32", "u32"},    {"uint64", "u64"},
    {"float16", "fp16"},  {"bfloat16", "bf16"}, {"float32", "fp32"},
    {"float64", "fp64"},
};
constexpr DTypeName kTorchDTypes[] = {
    {"bool", "i1"},      {"int8", "i8"},       {"int16", "i16"},
    {"short", "i16"},    {"int32", "i32"},     {"int", "i32"},
    {"int64", "i64"},    {"long", "i64"},      {"uint8", "u8"},
    {"uint16", "u16"},   {"uint32", "u32"},    {"uint64", "u64"},
    {"float16", "fp16"}, {"half", "fp16"},     {"bfloat16", "bf16"},
    {"float32", "fp32"}, {"float", "fp32"},    {"float64", "fp64"},
    {"double", "fp64"},
};
} // namespace

std::optional<kiln::DType> kiln::host::dtypeAttr(llvm::StringRef module,
                                                 llvm::StringRef attr) {
  llvm::ArrayRef<DTypeName> table;
  if (module == "triton.language")
    table = kTritonDTypes;
  else if (module == "torch")
    table = kTorchDTypes;
  for (const DTypeName &d : table)
    if (attr == d.name)
      return parseDTypeName(d.aot);
  return std::nullopt;
}

static const char *tritonDTypeName(kiln::DType t) {
  for (const DTypeName &d : kTritonDTypes)
    if (parseDTypeName(d.aot) == t)
      return d.name;
  return "?";
}

std::string kiln::host::typeName(const Value &v) {
  switch (v.kind) {
  case K::None:
    return "NoneType";
  case K::Bool:
    return "bool";
  case K::Int:
    return "int";
  case K::Float:
    return "float";
  case K::Str:
    return "str";
  case K::Tuple:
    return "tuple";
  case K::List:
    return "list";
  case K::Dict:
    return "dict";
  case K::Set:
    return "set";
  case K::Function:
    return "function";
  case K::Builtin:
    return "builtin function";
  case K::Module:
    return "module";
  case K::Extern:
    return v.from.empty() ? "host object"
                          : "value imported from module `" + v.from + "`";
  case K::DeviceProps:
    return "device properties";
  case K::Config:
    return "triton.Config";
  case K::DType:
    return "dtype";
  case K::Pointer:
    return "tensor";
  case K::Method:
    return "method";
  }
  return "?";
}

std::string kiln::host::aTypeName(const Value &v) {
  std::string name = typeName(v);
  return (llvm::StringRef("aeiou").contains(name.front()) ? "an " : "a ") + name;
}

static std::string floatRepr(double f) {
  if (std::isnan(f))
    return "nan";
  if (std::isinf(f))
    return f < 0 ? "-inf" : "inf";
  if (f == 0)
    return std::signbit(f) ? "-0.0" : "0.0";
  // Python's repr: the shortest digits that read back as the same double,
  // positional for exponents -4 to 15, else d.ddde+XX.
  char buf[64];
  for (int prec = 0; prec <= 16; ++prec) {
    snprintf(buf, sizeof buf, "%.*e", prec, f);
    if (std::strtod(buf, nullptr) == f)
      break;
  }
  llvm::StringRef text(buf);
  bool neg = text.consume_front("-");
  auto [mant, expText] = text.split('e');
  int exp = 0;
  expText.consume_front("+");
  expText.getAsInteger(10, exp);
  std::string digits;
  for (char c : mant)
    if (c != '.')
      digits += c;
  std::string out = neg ? "-" : "";
  if (exp >= -4 && exp < 16) {
    if (exp < 0) {
      out += "0." + std::string(-exp - 1, '0') + digits;
    } else if (size_t(exp) + 1 >= digits.size()) {
      out += digits + std::string(exp + 1 - digits.size(), '0') + ".0";
    } else {
      out += digits.substr(0, exp + 1) + "." + digits.substr(exp + 1);
    }
    return out;
  }
  out += digits.substr(0, 1);
  if (digits.size() > 1)
    out += "." + digits.substr(1);
  char e[16];
  snprintf(e, sizeof e, "e%c%02d", exp < 0 ? '-' : '+', exp < 0 ? -exp : exp);
  return out + e;
}

static std::string joinRepr(const std::vector<Value> &v, bool asStr = false) {
  std::string s;
  for (size_t k = 0; k < v.size(); ++k)
    s += (k ? ", " : "") + (asStr ? str(v[k]) : repr(v[k]));
  return s;
}

std::string kiln::host::repr(const Value &v) {
  switch (v.kind) {
  case K::None:
    return "None";
  case K::Bool:
    return v.i ? "True" : "False";
  case K::Int:
    return std::to_string(v.i);
  case K::Float:
    return floatRepr(v.f);
  case K::Str: {
    // Python's choice: single quotes unless the text has ' and no ".
    char q = v.s.find('\'') != std::string::npos &&
                     v.s.find('"') == std::string::npos
                 ? '"'
                 : '\'';
    std::string s(1, q);
    for (char c : v.s) {
      if (c == q || c == '\\')
        s += '\\';
      if (c == '\n')
        s += "\\n";
      else
        s += c;
    }
    return s + q;
  }
  case K::Tuple:
    return "(" + joinRepr(v.elems) + (v.elems.size() == 1 ? ",)" : ")");
  case K::List:
    return "[" + joinRepr(v.elems) + "]";
  case K::Set:
    return v.elems.empty() ? "set()" : "{" + joinRepr(v.elems) + "}";
  case K::Dict: {
    std::string s = "{";
    for (size_t k = 0; k < v.elems.size(); ++k)
      s += (k ? ", " : "") + repr(v.elems[k]) + ": " + repr(v.vals[k]);
    return s + "}";
  }
  case K::DType:
    return "tl." + std::string(tritonDTypeName(v.dtype));
  case K::Config:
    return v.config ? v.config->toString() : "";
  case K::Function:
  case K::Builtin:
  case K::Module:
  case K::Extern:
  case K::Method:
    return "<" + typeName(v) + (v.s.empty() ? "" : " " + v.s) + ">";
  case K::DeviceProps:
  case K::Pointer:
    return "<" + typeName(v) + ">";
  }
  return "?";
}

std::string kiln::host::str(const Value &v) {
  if (v.kind == K::Str)
    return v.s;
  if (v.kind == K::DType)
    return dtypeName(v.dtype);
  return repr(v);
}

bool kiln::host::truthy(const Value &v) {
  switch (v.kind) {
  case K::None:
    return false;
  case K::Bool:
  case K::Int:
    return v.i != 0;
  case K::Float:
    return v.f != 0;
  case K::Str:
    return !v.s.empty();
  case K::Tuple:
  case K::List:
  case K::Dict:
  case K::Set:
    return !v.elems.empty();
  default:
    return true;
  }
}

static bool isNumber(const Value &v) {
  return v.kind == K::Bool || v.kind == K::Int || v.kind == K::Float;
}
static double asDouble(const Value &v) {
  return v.kind == K::Float ? v.f : double(v.i);
}

bool kiln::host::equal(const Value &a, const Value &b) {
  if (isNumber(a) && isNumber(b)) {
    if (a.kind == K::Float || b.kind == K::Float)
      return asDouble(a) == asDouble(b);
    return a.i == b.i;
  }
  if (a.kind != b.kind) {
    bool seqs = (a.kind == K::Tuple || a.kind == K::List) &&
                (b.kind == K::Tuple || b.kind == K::List);
    if (!seqs)
      return false;
    return false; // [1] != (1,) in Python
  }
  switch (a.kind) {
  case K::None:
    return true;
  case K::Str:
  case K::Builtin:
  case K::Module:
  case K::Extern:
    return a.s == b.s;
  case K::DType:
    return a.dtype == b.dtype;
  case K::Tuple:
  case K::List:
    return a.elems.size() == b.elems.size() &&
           llvm::all_of(llvm::zip(a.elems, b.elems), [](auto p) {
             return equal(std::get<0>(p), std::get<1>(p));
           });
  case K::Set:
    return a.elems.size() == b.elems.size() &&
           llvm::all_of(a.elems, [&](const Value &x) {
             return llvm::any_of(b.elems,
                                 [&](const Value &y) { return equal(x, y); });
           });
  case K::Dict:
    if (a.elems.size() != b.elems.size())
      return false;
    for (size_t k = 0; k < a.elems.size(); ++k) {
      auto it = llvm::find_if(b.elems, [&](const Value &y) {
        return equal(a.elems[k], y);
      });
      if (it == b.elems.end() ||
          !equal(a.vals[k], b.vals[it - b.elems.begin()]))
        return false;
    }
    return true;
  case K::Function:
    return a.fn == b.fn;
  case K::Config:
    return a.config && b.config && *a.config == *b.config;
  case K::Pointer:
    return a.dtype == b.dtype && a.i == b.i;
  default:
    return false;
  }
}

//===----------------------------------------------------------------------===//
// Interp: errors, names, attributes
//===----------------------------------------------------------------------===//

std::nullopt_t Interp::fail(uint32_t offset, const std::string &msg) {
  if (failed)
    return std::nullopt;
  failed = true;
  err = {offset, msg};
  if (cur) {
    // In another module: its place in the message, reported where this
    // file reached it.
    auto [line, col] = LineTable(source).lineCol(offset);
    err = {entry, entryNote + cur->path + ":" + std::to_string(line) + ":" +
                      std::to_string(col) + ": " + msg};
  }
  return std::nullopt;
}
std::nullopt_t Interp::fail(const Node *n, const std::string &msg) {
  if (!n && cur && !failed) {
    failed = true;
    err = {entry, entryNote + msg};
    return std::nullopt;
  }
  return fail(n ? n->range.begin : callSite, msg);
}

llvm::StringRef Interp::text(const Node *n) const {
  if (!n || n->range.end > source.size() || n->range.begin > n->range.end)
    return "";
  return source.slice(n->range.begin, n->range.end);
}

bool Interp::checkNest(const Value &v, const Node *n) {
  if (v.nest <= kMaxNest)
    return true;
  fail(n, "value nests deeper than Kiln's limit of " +
              std::to_string(kMaxNest) + " levels");
  return false;
}

bool Interp::charge(const Node *n, uint64_t cost) {
  steps += cost;
  if (steps <= kMaxSteps)
    return true;
  fail(n, "evaluation exceeds Kiln's limit of " + std::to_string(kMaxSteps) +
              " steps");
  return false;
}

/// Canonical module names: `triton.language` for both `tl` and its
/// submodule path; anything else keeps its dotted name.
static std::string canonicalModule(llvm::StringRef name) {
  if (name == "triton.language.core")
    return "triton.language";
  return name.str();
}

/// Whether Kiln models the module `name` belongs to (triton's and torch's
/// names it knows; the rest of those packages are modules or host objects
/// it treats as such).
bool kiln::host::isModelledModule(llvm::StringRef name) {
  llvm::StringRef root = name.split('.').first;
  return root == "triton" || root == "torch" || root == "math" ||
         root == "itertools" || root == "logging";
}

/// An import binding of a module of the package (not one Kiln models, not
/// a name another module re-exports from triton): HostEvalModules.cpp.
static bool isUserImport(const ModuleScope::Binding &b) {
  if (b.aliased)
    return false;
  auto *from = llvm::dyn_cast<ImportFromStmt>(b.node);
  return (from && from->level > 0) || !isModelledModule(b.importName);
}

std::nullopt_t Interp::opaque(const Value &v, const Node *where,
                              const std::string &use, std::string shown) {
  std::string t = shown.empty() ? text(where).str() : shown;
  std::string msg = "`" + t + "` is ";
  if (!v.from.empty())
    msg += whyOpaqueImport(v);
  else
    msg += (t == v.s ? "" : "`" + v.s + "`, ") +
           std::string("a host value Kiln cannot evaluate");
  msg += ", so Kiln cannot " + use;
  if (!opaqueHint.empty())
    msg += "; " + opaqueHint;
  return fail(where, msg);
}

std::optional<bool> Interp::truth(const Value &v, const Node *where) {
  if (isOpaque(v))
    return opaque(v, where, "tell whether it is true");
  return truthy(v);
}

std::optional<Value> Interp::global(llvm::StringRef name, const Node *where) {
  const ModuleScope::Binding *b = scope->find(name, visibleBefore);
  if (b)
    if (auto it = globals.find(std::make_pair(b->node, name.str())); it != globals.end())
      return it->second;
  if (!b && scope->find(name))
    return fail(where, "name `" + name.str() + "` is bound only after this point of the module "
                       "(Python runs it top to bottom)");
  if (!b) {
    // `from .utils import *` above this point (names of the module first,
    // as Python looks them up before its builtins).
    bool bound = false;
    std::optional<Value> star = starImported(name, visibleBefore, where, bound);
    if (bound)
      return star;
    if (name == "__name__") // as imported (the main file: as run)
      return Value::str(cur ? cur->pyName : "__main__");
    // Python's builtins Kiln evaluates.
    static const char *kBuiltins[] = {
        "min",  "max",   "len",   "range", "int",   "float",   "bool",
        "abs",  "getattr", "list", "tuple", "str",  "sum",     "any",
        "all",  "sorted", "isinstance", "enumerate", "zip", "dict", "round",
        "filter", "map", "reversed", "hasattr"};
    for (const char *bn : kBuiltins)
      if (name == bn)
        return Value::named(K::Builtin, bn);
    return fail(where, "name `" + name.str() +
                           "` is not defined at the module level of this file");
  }
  if (llvm::is_contained(resolving, b->node))
    return fail(where, b->importName.empty()
                           ? "module-level name `" + name.str() +
                                 "` is defined in terms of itself"
                           : importCycle());
  Value v;
  if (auto *f = llvm::dyn_cast<FunctionDef>(b->node)) {
    v.kind = K::Function;
    v.fn = f;
    v.s = f->name;
    v.mod = cur;
  } else if (!b->importName.empty()) {
    resolving.push_back(b->node);
    std::optional<Value> r = importBinding(*b, name, where);
    resolving.pop_back();
    if (!r)
      return std::nullopt;
    v = *r;
  } else {
    const Expr *rhs = nullptr;
    if (auto *a = llvm::dyn_cast<AssignStmt>(b->node))
      rhs = a->value;
    else
      rhs = llvm::cast<AnnAssignStmt>(b->node)->value;
    resolving.push_back(b->node);
    // Its right-hand side sees the module as it was bound above it.
    uint32_t outer = visibleBefore;
    visibleBefore = b->node->range.begin;
    std::optional<Value> r = eval(rhs);
    visibleBefore = outer;
    resolving.pop_back();
    if (!r)
      return std::nullopt;
    v = *r;
  }
  globals[{b->node, name.str()}] = v;
  return v;
}

std::optional<Value> Interp::importBinding(const ModuleScope::Binding &b,
                                           llvm::StringRef name, const Node *where) {
  if (isUserImport(b))
    return userImport(b, name, where);
  llvm::StringRef imported = b.importName;
  // `from triton.language import float16` and friends.
  auto [mod, attr] = imported.rsplit('.');
  bool from = llvm::isa<ImportFromStmt>(b.node);
  if (auto dt = dtypeAttr(canonicalModule(mod), attr); dt && from)
    return Value::dtypeOf(*dt);
  // `from triton import Config`, `from itertools import product`
  if (std::optional<Value> a =
          from ? attribute(Value::named(K::Module, mod.str()), attr.str(), b.node)
               : std::nullopt;
      a && a->kind == K::Builtin)
    return *a;
  return Value::named(K::Module, canonicalModule(imported));
}

std::optional<Value> Interp::lookup(const NameExpr *n,
                                    const std::shared_ptr<Env> &env) {
  for (const Env *e = env.get(); e; e = e->parent.get())
    if (auto it = e->vars.find(n->id); it != e->vars.end()) {
      if (!charge(n, it->second.elems.size()))
        return std::nullopt;
      return it->second;
    }
  std::optional<Value> v = global(n->id, n);
  if (v && !charge(n, v->elems.size()))
    return std::nullopt;
  return v;
}

std::optional<Value> Interp::attribute(const Value &base,
                                       const std::string &name,
                                       const Node *a) {
  switch (base.kind) {
  case K::Module:
  case K::Extern: {
    if (base.kind == K::Module && base.mod)
      return moduleAttr(base, name, a); // a module of the package
    std::string mod = canonicalModule(base.s);
    if (auto dt = dtypeAttr(mod, name))
      return Value::dtypeOf(*dt);
    std::string full = mod + "." + name;
    static const char *kKnown[] = {
        "triton.Config",         "triton.cdiv",
        "triton.next_power_of_2", "triton.autotune",
        "triton.heuristics",     "triton.jit",
        "triton.language.cdiv",  "triton.language.constexpr",
        "math.ceil",             "math.floor",
        "math.log2",             "math.sqrt",
        "math.log",              "math.exp",
        "math.log10",            "triton.language.get_int_dtype",
        "itertools.product",
        "torch.cuda.current_device",
        "torch.cuda.get_device_properties",
        "triton.language.target_info.cuda_capability_geq",
        "triton.language.target_info.is_cuda",
        "triton.language.target_info.is_hip",
        "triton.language.target_info.is_hip_cdna3",
        "triton.language.target_info.is_hip_cdna4"};
    if (llvm::is_contained(kKnown, full))
      return Value::named(K::Builtin, full);
    // Logging only writes output, which Kiln has none of: its calls (a
    // prune function's `logger.debug(...)`) are no-ops returning None.
    static const char *kLog[] = {"debug", "info",     "warning", "warn",
                                 "error", "critical", "exception", "log"};
    if ((mod == "logging" || mod == "logging.Logger") && llvm::is_contained(kLog, name))
      return Value::named(K::Builtin, "logging.log");
    if (full == "logging.getLogger")
      return Value::named(K::Builtin, full);
    // None, as in kernels and module-level `if`s: Kiln runs beside CUDA
    // builds of PyTorch (FBGEMM's `configs=_AMD_CONFIGS if torch.version.hip
    // else _NV_CONFIGS`; an Extern here would be truthy).
    if (full == "torch.version.hip")
      return Value::none();
    if (full == "triton.language")
      return Value::named(K::Module, full);
    Value out = Value::named(K::Extern, full);
    out.from = base.from;
    out.i = base.i;
    return out;
  }
  case K::DeviceProps:
    // Every NVIDIA target Kiln compiles for has 32-thread warps.
    if (name == "warp_size")
      return Value::integer(32);
    return fail(a, "`" + text(a).str() +
                       "`: Kiln cannot query device property `" + name +
                       "` (it knows only `warp_size`, which is 32)");
  case K::Pointer:
    if (name == "dtype")
      return Value::dtypeOf(base.dtype);
    if (name == "element_size") {
      return Value::method(base, name);
    }
    break;
  case K::DType:
    if (name == "itemsize")
      return Value::integer(dtypeBytes(base.dtype));
    if (name == "primitive_bitwidth")
      return Value::integer(base.dtype == DType::I1 ? 1
                                                    : 8 * dtypeBytes(base.dtype));
    if (name == "is_floating_point") {
      return Value::method(base, name);
    }
    // Triton's tl.dtype in @triton.constexpr_function code.
    if (name == "int_bitwidth" && base.dtype != DType::F16 &&
        base.dtype != DType::BF16 && !isFloat(base.dtype))
      return Value::integer(base.dtype == DType::I1 ? 1
                                                    : 8 * dtypeBytes(base.dtype));
    if (name == "scalar" || name == "value")
      return base;
    if (llvm::StringRef(name).starts_with("is_"))
      return Value::method(base, name);
    break;
  case K::Config:
    if (name == "num_warps")
      return Value::integer(base.config->numWarps);
    if (name == "num_stages")
      return Value::integer(base.config->numStages);
    if (name == "num_ctas")
      return Value::integer(base.config->numCtas);
    if (name == "kwargs") {
      Value kwargs = Value::seq(K::Dict, base.elems);
      kwargs.vals = base.vals;
      return kwargs;
    }
    if (name == "maxnreg")
      return base.config->maxnreg ? Value::integer(*base.config->maxnreg) : Value::none();
    if (name == "pre_hook")
      return Value::none();
    break;
  case K::Tuple:
    // A namedtuple launch argument (`args["p"].ptr`): its field names.
    if (!base.s.empty()) {
      unsigned k = 0;
      for (llvm::StringRef f : llvm::split(base.s, ',')) {
        if (f == name && k < base.elems.size())
          return base.elems[k];
        ++k;
      }
      if (name == "_fields") {
        std::vector<Value> names;
        for (llvm::StringRef f : llvm::split(base.s, ','))
          names.push_back(Value::str(f.str()));
        return Value::seq(K::Tuple, std::move(names));
      }
      return fail(a, "`" + text(a).str() + "`: the namedtuple has no field `" + name +
                         "` (its fields: " +
                         llvm::join(llvm::split(base.s, ','), ", ") + ")");
    }
    if (name == "index" || name == "count")
      return Value::method(base, name);
    break;
  case K::List:
    if (name == "append" || name == "extend" || name == "index" ||
        name == "count") {
      return Value::method(base, name);
    }
    break;
  case K::Dict:
    if (name == "get" || name == "keys" || name == "values" ||
        name == "items") {
      return Value::method(base, name);
    }
    break;
  default:
    break;
  }
  uint32_t at = a->range.begin;
  if (auto *ae = llvm::dyn_cast<AttributeExpr>(a))
    at = ae->attrRange.begin;
  return fail(at, "`" + text(a).str() + "`: Kiln cannot evaluate attribute `" +
                      name + "` of " + aTypeName(base));
}

std::optional<Value> Interp::hasAttr(const Value &obj, const Value &name,
                                     const Node *where) {
  if (name.kind != K::Str)
    return fail(where, "`hasattr()`: the attribute name must be a str, got " +
                           aTypeName(name));
  // FBGEMM's `hasattr(tl, "...")` feature tests: true exactly when kernels
  // here can use the name, so the branch taken is one Kiln compiles.
  llvm::StringRef mod = obj.s;
  if ((obj.kind == K::Module || obj.kind == K::Extern) && obj.from.empty() &&
      (mod == "triton.language" || mod.starts_with("triton.language."))) {
    fe::Val out;
    return Value::boolean(fe::lookupModuleAttr(mod, name.s, out) == 0);
  }
  if (isOpaque(obj))
    return opaque(obj, where, "tell whether it has attribute `" + name.s + "`",
                  obj.s);
  return fail(where, "`" + text(where).str() +
                         "`: Kiln answers `hasattr` only for triton.language "
                         "and its submodules, not " +
                         (obj.kind == K::Module ? "module `" + obj.s + "`"
                                                : aTypeName(obj)));
}

std::optional<Value> Interp::subscript(const Value &base, const Value &index,
                                       const Node *where) {
  if (base.kind == K::Dict) {
    for (size_t k = 0; k < base.elems.size(); ++k)
      if (equal(base.elems[k], index))
        return base.vals[k];
    if (base.s == kLaunchArgs && index.kind == K::Str) {
      missingArg = index.s;
      return fail(where, "`" + text(where).str() +
                             "`: no value for launch argument `" + index.s +
                             "`");
    }
    return fail(where, "key " + repr(index) + " is not in the dict (keys: " +
                           joinRepr(base.elems) + ")");
  }
  if (base.kind == K::Tuple || base.kind == K::List || base.kind == K::Str) {
    if (index.kind != K::Int && index.kind != K::Bool)
      return fail(where, typeName(base) + " indices must be integers, not " +
                             typeName(index));
    int64_t n = base.kind == K::Str ? base.s.size() : base.elems.size();
    int64_t i = index.i < 0 ? index.i + n : index.i;
    if (i < 0 || i >= n)
      return fail(where, typeName(base) + " index " + std::to_string(index.i) +
                             " out of range (length " + std::to_string(n) +
                             ")");
    if (base.kind == K::Str)
      return Value::str(std::string(1, base.s[i]));
    return base.elems[i];
  }
  return fail(where, "Kiln cannot subscript " + aTypeName(base));
}

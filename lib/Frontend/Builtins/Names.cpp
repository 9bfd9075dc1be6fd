//===- Names.cpp - triton / triton.language names, argument binding -------===//
//
// Resolves attributes of the `triton`, `triton.language` and
// `triton.language.math` modules: the registry's builtins and dtypes, then
// the Triton names Kiln knows but does not implement ("`tl.fp8e4nv` is
// not supported"), else an unknown attribute. Binds call arguments to a
// builtin's parameter list.
//
//===----------------------------------------------------------------------===//
#include "Libdevice.h"
#include "Registry.h"

#include "kiln/Dialect/Tile/IR/Tile.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include <cmath>

using namespace kiln;
using namespace kiln::fe;
using namespace kiln::ast;

//===----------------------------------------------------------------------===//
// Names
//===----------------------------------------------------------------------===//

/// Triton builtins that Kiln knows about but does not implement.
static const char *const kTLUnsupported[] = {"zeros_like_",
                                             "abs_",
                                             "fp8e4nv"};


static std::optional<DType> tlDType(llvm::StringRef n) {
  return llvm::StringSwitch<std::optional<DType>>(n)
      .Case("int1", DType::I1)
      .Case("int8", DType::I8)
      .Case("int16", DType::I16)
      .Case("int32", DType::I32)
      .Case("int64", DType::I64)
      .Case("uint8", DType::U8)
      .Case("uint16", DType::U16)
      .Case("uint32", DType::U32)
      .Case("uint64", DType::U64)
      .Case("float16", DType::F16)
      .Case("bfloat16", DType::BF16)
      .Case("float32", DType::F32)
      .Case("float64", DType::F64)
      .Case("float8e4nv", DType::F8E4M3)
      .Case("float8e5", DType::F8E5M2)
      .Default(std::nullopt);
}

static bool isUnsupportedDType(llvm::StringRef n) {
  return llvm::StringSwitch<bool>(n)
      .Cases({"float8e4b15", "float8e4b8", "float8e5b16", "void"}, true)
      .Default(false);
}

namespace kiln::fe {
/// Triton's classes that kernels name only as `isinstance`'s second argument.
bool isTLTypeName(llvm::StringRef n) {
  return llvm::StringSwitch<bool>(n)
      .Cases({"tensor", "tensor_descriptor", "tensor_descriptor_base", "dtype"}, true)
      .Cases({"pointer_type", "block_type", "tuple"}, true)
      .Default(false);
}
} // namespace kiln::fe

static bool contains(llvm::ArrayRef<const char *> list, llvm::StringRef n) {
  return llvm::any_of(list, [&](const char *s) { return n == s; });
}

namespace kiln::fe {
/// Looks up `mod.attr`. Returns 0 and sets `out` when found, 1 when it is a
/// known but unsupported Triton name, 2 when unknown.
int lookupModuleAttr(llvm::StringRef mod, llvm::StringRef attr, Val &out) {
  if (mod == "triton") {
    if (attr == "language") {
      out = Val::named(Val::Kind::Module, "triton.language");
      return 0;
    }
    if (attr == "jit" || attr == "autotune" || attr == "heuristics" ||
        attr == "Config" || attr == "next_power_of_2" ||
        attr == "constexpr_function") {
      out = Val::named(Val::Kind::Builtin, "triton." + attr.str());
      return 0;
    }
    if (attr == "cdiv") {
      out = Val::named(Val::Kind::Builtin, "tl.cdiv");
      return 0;
    }
    // The language Kiln compiles is Triton 3.6's (the drop-in reports the
    // same), so version guards in kernel files take the 3.6 branch.
    if (attr == "__version__") {
      out = Val::str(kTritonLanguageVersion);
      return 0;
    }
    if (attr == "tools") {
      out = Val::named(Val::Kind::Module, "triton.tools");
      return 0;
    }
    if (attr == "testing" || attr == "runtime" || attr == "compile" ||
        attr == "set_allocator" || attr == "knobs")
      return 1;
    return 2;
  }
  // triton.tools: the ragged TMA helpers are device functions; the tensor
  // descriptor class is host code.
  if (mod == "triton.tools") {
    if (attr == "ragged_tma") {
      out = Val::named(Val::Kind::Module, "triton.tools.ragged_tma");
      return 0;
    }
    return attr == "tensor_descriptor" ? 1 : 2;
  }
  if (mod == "triton.tools.ragged_tma") {
    if (findBuiltin(("ragged_tma." + attr).str())) {
      out = Val::named(Val::Kind::Builtin, "tl.ragged_tma." + attr.str());
      return 0;
    }
    return attr == "create_ragged_descriptor" ? 1 : 2;
  }
  if (mod == "triton.language") {
    if (attr == "constexpr_function") { // also triton.language.core's
      out = Val::named(Val::Kind::Builtin, "triton.constexpr_function");
      return 0;
    }
    if (std::optional<DType> d = tlDType(attr)) {
      out = Val::dtype(*d);
      return 0;
    }
    if (isUnsupportedDType(attr))
      return 1;
    if (attr == "math") {
      out = Val::named(Val::Kind::Module, "triton.language.math");
      return 0;
    }
    if (attr == "extra" || attr == "core" || attr == "standard" || attr == "target_info" ||
        attr == "random") {
      out = Val::named(Val::Kind::Module, "triton.language." + attr.str());
      return 0;
    }
    if (attr == "PropagateNan") {
      out = Val::named(Val::Kind::Module, "triton.language.PropagateNan");
      return 0;
    }
    if (attr == "TRITON_MAX_TENSOR_NUMEL") { // Triton's limit on a block
      out = Val::integer(1048576);
      return 0;
    }
    if (attr == "pi32_t") { // core.py's `pointer_type(int32)`
      out = Val::dtype(DType::I32, /*ptr=*/true);
      return 0;
    }
    if (findBuiltin(attr) || isTLTypeName(attr)) {
      out = Val::named(Val::Kind::Builtin, "tl." + attr.str());
      return 0;
    }
    if (contains(kTLUnsupported, attr))
      return 1;
    return 2;
  }
  // tl.core: tl's names, and a few of core.py's own that libraries reach
  // (flash-linear-attention's argsort: `descending=tl.core.CONSTEXPR_0`).
  if (mod == "triton.language.core") {
    if (attr == "CONSTEXPR_0") {
      out = Val::integer(0);
      return 0;
    }
    if (findBuiltin(("core." + attr).str())) {
      out = Val::named(Val::Kind::Builtin, "tl.core." + attr.str());
      return 0;
    }
    return lookupModuleAttr("triton.language", attr, out);
  }
  // tl.standard: tl's names, and its `_log2` that libraries' bitonic sorts
  // call (flash-linear-attention's nsa).
  if (mod == "triton.language.standard") {
    if (findBuiltin(("standard." + attr).str())) {
      out = Val::named(Val::Kind::Builtin, "tl.standard." + attr.str());
      return 0;
    }
    return lookupModuleAttr("triton.language", attr, out);
  }
  // tl.random: the random builtins under their module (tl.random.randint).
  if (mod == "triton.language.random") {
    static const char *const kRandom[] = {
        "rand", "randn", "randint", "randint4x", "rand4x", "randn4x",
        "philox", "philox_impl", "uint_to_uniform_float", "pair_uniform_to_normal"};
    if (contains(kRandom, attr) && findBuiltin(attr)) {
      out = Val::named(Val::Kind::Builtin, "tl." + attr.str());
      return 0;
    }
    return 2;
  }
  if (mod == "triton.language.target_info") {
    if (findBuiltin(("target_info." + attr).str())) {
      out = Val::named(Val::Kind::Builtin, "tl.target_info." + attr.str());
      return 0;
    }
    return attr == "current_target" ? 1 : 2;
  }
  if (mod == "triton.language.math") {
    const BuiltinDef *def = findBuiltin(attr);
    if (def && def->inMath) {
      out = Val::named(Val::Kind::Builtin, "tl." + attr.str());
      return 0;
    }
    // Triton 2.x kept libdevice in tl.math (tl.math.tanh): still accepted.
    if (findLibdevice(attr)) {
      out = Val::named(Val::Kind::Builtin, "libdevice." + attr.str());
      return 0;
    }
    return 2;
  }
  // triton.language.extra[.cuda].libdevice: Triton's libdevice wrappers.
  if (mod == "triton.language.extra") {
    if (attr == "libdevice" || attr == "cuda") {
      out = Val::named(Val::Kind::Module, mod.str() + "." + attr.str());
      return 0;
    }
    return attr == "hip" ? 1 : 2;
  }
  if (mod == "triton.language.extra.cuda") {
    if (attr == "libdevice") {
      out = Val::named(Val::Kind::Module, mod.str() + "." + attr.str());
      return 0;
    }
    if (findBuiltin(("cuda." + attr).str())) {
      out = Val::named(Val::Kind::Builtin, "tl.cuda." + attr.str());
      return 0;
    }
    // Other cuda extras (convert_custom_float8_sm70/sm80, ...).
    return 1;
  }
  if (mod == "triton.language.extra.libdevice" ||
      mod == "triton.language.extra.cuda.libdevice") {
    if (findLibdevice(attr)) {
      out = Val::named(Val::Kind::Builtin, "libdevice." + attr.str());
      return 0;
    }
    return 2;
  }
  if (mod == "math")
    return lookupMathAttr(attr, out);
  // PyTorch Inductor's kernel helpers re-export Triton's libdevice and
  // tl.math (`from torch._inductor.runtime.triton_helpers import libdevice`,
  // in vLLM); its own @triton.jit helpers are not modelled.
  if (mod == "torch._inductor.runtime") {
    if (attr == "triton_helpers") {
      out = Val::named(Val::Kind::Module, "torch._inductor.runtime.triton_helpers");
      return 0;
    }
    return 1;
  }
  if (mod == "torch._inductor.runtime.triton_helpers") {
    if (attr == "libdevice") {
      out = Val::named(Val::Kind::Module, "triton.language.extra.libdevice");
      return 0;
    }
    if (attr == "math") {
      out = Val::named(Val::Kind::Module, "triton.language.math");
      return 0;
    }
    return 1;
  }
  // importlib.util.find_spec, for `HAS_TRITON = find_spec("triton") is not
  // None` guards (vLLM's triton_utils; Builtins/Python.cpp).
  if (mod == "importlib") {
    if (attr == "util") {
      out = Val::named(Val::Kind::Module, "importlib.util");
      return 0;
    }
    return 2;
  }
  if (mod == "importlib.util") {
    if (attr == "find_spec") {
      out = Val::named(Val::Kind::Builtin, "importlib.util.find_spec");
      return 0;
    }
    return 2;
  }
  // torch.utils._triton's has_triton() / has_triton_package(), for torchao's
  // `if has_triton():` around its kernels (Builtins/Python.cpp).
  if (mod == "torch.utils._triton") {
    if (attr == "has_triton" || attr == "has_triton_package") {
      out = Val::named(Val::Kind::Builtin, "torch.utils._triton." + attr.str());
      return 0;
    }
    return 2;
  }
  if (mod == "typing") {
    if (attr == "TYPE_CHECKING") { // False when the module runs
      out = Val::boolean(false);
      return 0;
    }
    return 2;
  }
  // packaging.version's parse / Version, for `version.parse(triton.__version__)
  // >= version.parse("3.0.0")` guards (Builtins/Python.cpp).
  if (mod == "packaging") {
    if (attr == "version") {
      out = Val::named(Val::Kind::Module, "packaging.version");
      return 0;
    }
    return 2;
  }
  if (mod == "packaging.version") {
    if (attr == "parse" || attr == "Version") {
      out = Val::named(Val::Kind::Builtin, "packaging.version.parse");
      return 0;
    }
    return 2;
  }
  if (mod == "collections") {
    if (attr == "namedtuple") {
      out = Val::named(Val::Kind::Builtin, "collections.namedtuple");
      return 0;
    }
    return 2;
  }
  if (mod == "triton.language.PropagateNan") {
    if (attr == "ALL" || attr == "NONE") {
      out = Val::str(attr.str());
      return 0;
    }
    return 2;
  }
  return 2;
}
} // namespace kiln::fe

FailureOr<Val> IRGen::attributeOfModule(const Val &mod,
                                        const AttributeExpr *e) {
  Val out;
  switch (lookupModuleAttr(mod.s, e->attr, out)) {
  case 0:
    return out;
  case 1:
    if (mod.s == "triton.language" && isUnsupportedDType(e->attr))
      return fail(e, "`" + text(e) +
                         "` is not supported (Kiln's dtypes: "
                         "int1, int8, int16, int32, int64, uint8, "
                         "uint16, uint32, uint64, float16, bfloat16, "
                         "float32, float64, float8e4nv, float8e5)");
    return fail(e, "`" + text(e) + "` is not supported");
  default:
    return fail(e, "unknown attribute `" + text(e) + "`");
  }
}

bool IRGen::isTensorMethod(llvm::StringRef n) const {
  const BuiltinDef *def = findBuiltin(n);
  return def && def->tensorMethod;
}

//===----------------------------------------------------------------------===//
// Argument binding
//===----------------------------------------------------------------------===//

static llvm::StringRef paramName(const char *p) {
  return llvm::StringRef(p).split('=').first;
}

LogicalResult IRGen::bindArgs(llvm::StringRef fnName,
                              llvm::ArrayRef<const char *> params,
                              const CallArgs &args, const Node *call,
                              llvm::SmallVectorImpl<Arg> &out) {
  out.assign(params.size(), Arg());
  for (Arg &a : out)
    a.node = call;
  if (args.pos.size() > params.size())
    return fail(args.posNodes[params.size()],
                "`" + fnName + "` takes at most " +
                    std::to_string(params.size()) + " argument" +
                    (params.size() == 1 ? "" : "s") + " but " +
                    std::to_string(args.pos.size()) + " were given");
  for (size_t k = 0; k < args.pos.size(); ++k)
    out[k] = Arg{args.pos[k], args.posNodes[k], true};
  for (size_t k = 0; k < args.kw.size(); ++k) {
    const std::string &name = args.kw[k].first;
    auto it = llvm::find_if(
        params, [&](const char *p) { return paramName(p) == name; });
    if (it == params.end())
      return fail(args.kwNodes[k], "`" + fnName +
                                       "` got an unexpected keyword "
                                       "argument `" +
                                       name + "`");
    size_t idx = it - params.begin();
    if (out[idx].given)
      return fail(args.kwNodes[k], "`" + fnName +
                                       "` got multiple values for argument "
                                       "`" +
                                       name + "`");
    out[idx] = Arg{args.kw[k].second, args.kwNodes[k], true};
  }
  for (size_t k = 0; k < params.size(); ++k)
    if (!out[k].given && !llvm::StringRef(params[k]).contains('='))
      return fail(call, "`" + fnName + "` is missing required argument `" +
                            paramName(params[k]) + "`");
  return success();
}

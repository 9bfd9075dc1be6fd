//===- KernelInfo.cpp - Kernel metadata as JSON ---------------------------===//
//
//   {"name": "_layer_norm_fwd_fused", "arch": "sm_90", "num_warps": 4,
//    "shared_bytes": 16,  (and "tensor_maps", "global_scratch" when TMA is used)
//    "params": [{"name": "X", "type": "*fp16:16"}, {"name": "N", "type": "i32"}],
//    "constexprs": {"BLOCK_SIZE": "1024"}}
//
// Parameter types use the AOT signature spelling of kiln/Frontend/Spec.h.
//
//===----------------------------------------------------------------------===//
#include "kiln/Target/Pipeline.h"

#include "llvm/Support/FormatVariadic.h"

namespace kiln {

llvm::json::Value KernelInfo::toJSON() const {
  llvm::json::Array jsonParams;
  for (const Param &p : params)
    jsonParams.push_back(llvm::json::Object{{"name", p.name},
                                            {"type", p.spec.toString()}});
  llvm::json::Object jsonConstexprs;
  for (const auto &[name, value] : constexprs)
    jsonConstexprs[name] = value;
  llvm::json::Object out{{"name", name},
                         {"arch", arch},
                         {"num_warps", int64_t(numWarps)},
                         {"shared_bytes", int64_t(sharedBytes)},
                         {"params", std::move(jsonParams)},
                         {"constexprs", std::move(jsonConstexprs)}};
  if (!tensorMaps.empty()) {
    llvm::json::Array maps;
    for (const TensorMap &m : tensorMaps)
      maps.push_back(llvm::json::Object{{"param", int64_t(m.param)},
                                        {"box", llvm::json::Array(m.box)},
                                        {"swizzle", int64_t(m.swizzle)},
                                        {"nan", m.nanFill}});
    out["tensor_maps"] = std::move(maps);
  }
  if (globalScratchBytes)
    out["global_scratch"] = int64_t(globalScratchBytes);
  return out;
}

namespace {
llvm::Error fail(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "kernel info: " + message);
}

llvm::Expected<std::string> getString(const llvm::json::Object &obj,
                                      llvm::StringRef key, llvm::StringRef where) {
  const llvm::json::Value *v = obj.get(key);
  if (!v)
    return fail(where + "missing field '" + key + "'");
  std::optional<llvm::StringRef> s = v->getAsString();
  if (!s)
    return fail(where + "field '" + key + "' must be a string");
  return s->str();
}

llvm::Expected<unsigned> getCount(const llvm::json::Object &obj,
                                  llvm::StringRef key, int64_t max) {
  const llvm::json::Value *v = obj.get(key);
  if (!v)
    return fail("missing field '" + key + "'");
  std::optional<int64_t> n = v->getAsInteger();
  if (!n || *n < 0 || *n > max)
    return fail(llvm::formatv("field '{0}' must be an integer in [0, {1}]", key, max));
  return unsigned(*n);
}
} // namespace

llvm::Expected<KernelInfo> KernelInfo::fromJSON(llvm::StringRef text) {
  llvm::Expected<llvm::json::Value> parsed = llvm::json::parse(text);
  if (!parsed)
    return fail("invalid JSON: " + llvm::toString(parsed.takeError()));
  const llvm::json::Object *obj = parsed->getAsObject();
  if (!obj)
    return fail("expected a JSON object");
  KernelInfo info;
  llvm::Expected<std::string> name = getString(*obj, "name", "");
  if (!name)
    return name.takeError();
  info.name = *name;
  llvm::Expected<std::string> arch = getString(*obj, "arch", "");
  if (!arch)
    return arch.takeError();
  info.arch = *arch;
  llvm::Expected<unsigned> warps = getCount(*obj, "num_warps", 32);
  if (!warps)
    return warps.takeError();
  if (*warps == 0 || (*warps & (*warps - 1)))
    return fail(llvm::formatv("num_warps must be a power of two in [1, 32], got {0}",
                              *warps));
  info.numWarps = *warps;
  llvm::Expected<unsigned> shared = getCount(*obj, "shared_bytes", 1 << 30);
  if (!shared)
    return shared.takeError();
  info.sharedBytes = *shared;

  const llvm::json::Array *params = obj->getArray("params");
  if (!params)
    return fail("missing array 'params'");
  for (auto [i, v] : llvm::enumerate(*params)) {
    std::string where = llvm::formatv("params[{0}]: ", i);
    const llvm::json::Object *p = v.getAsObject();
    if (!p)
      return fail(where + "expected an object");
    llvm::Expected<std::string> pname = getString(*p, "name", where);
    if (!pname)
      return pname.takeError();
    llvm::Expected<std::string> type = getString(*p, "type", where);
    if (!type)
      return type.takeError();
    llvm::Expected<std::vector<ParamSpec>> spec = parseSignature(*type);
    if (!spec)
      return fail(where + "bad type '" + *type + "': " + llvm::toString(spec.takeError()));
    if (spec->size() != 1 || (spec->front().kind != ParamSpec::Kind::Pointer &&
                              spec->front().kind != ParamSpec::Kind::Scalar))
      return fail(where + "type '" + *type + "' is not a pointer or scalar type");
    info.params.push_back({*pname, spec->front()});
  }
  if (const llvm::json::Value *m = obj->get("tensor_maps")) {
    const llvm::json::Array *maps = m->getAsArray();
    if (!maps)
      return fail("field 'tensor_maps' must be an array");
    for (auto [i, v] : llvm::enumerate(*maps)) {
      std::string where = llvm::formatv("tensor_maps[{0}]: ", i);
      const llvm::json::Object *o = v.getAsObject();
      if (!o)
        return fail(where + "expected an object");
      TensorMap map;
      std::optional<int64_t> param = o->getInteger("param");
      const llvm::json::Array *box = o->getArray("box");
      if (!box || box->size() < 2 || box->size() > 5)
        return fail(where + "'box' must be an array of 2 to 5 integers");
      // A descriptor of rank N: base, N shapes, N - 1 strides.
      int64_t rank = int64_t(box->size());
      if (!param || *param < 0 || *param + 2 * rank - 1 >= int64_t(info.params.size()) ||
          info.params[*param].spec.kind != ParamSpec::Kind::Pointer)
        return fail(where + llvm::formatv("'param' must index a pointer parameter followed by "
                                          "the descriptor's {0} shapes and {1} stride{2}",
                                          rank, rank - 1, rank > 2 ? "s" : "")
                                .str());
      map.param = unsigned(*param);
      for (const llvm::json::Value &d : *box) {
        std::optional<int64_t> n = d.getAsInteger();
        if (!n || *n < 1 || *n > 256)
          return fail(where + "'box' entries must be integers in [1, 256]");
        map.box.push_back(*n);
      }
      std::optional<int64_t> swizzle = o->getInteger("swizzle");
      if (!swizzle || !llvm::is_contained({0, 32, 64, 128}, *swizzle))
        return fail(where + "'swizzle' must be 0, 32, 64 or 128");
      map.swizzle = unsigned(*swizzle);
      map.nanFill = o->getBoolean("nan").value_or(false);
      info.tensorMaps.push_back(std::move(map));
    }
  }
  if (obj->get("global_scratch")) {
    // Tensor maps of 128 bytes each; a program builds a few.
    llvm::Expected<unsigned> scratch = getCount(*obj, "global_scratch", 1 << 16);
    if (!scratch)
      return scratch.takeError();
    if (*scratch % 128)
      return fail(llvm::formatv("field 'global_scratch' must be a multiple of 128, got {0}",
                                *scratch));
    info.globalScratchBytes = *scratch;
  }
  if (const llvm::json::Value *c = obj->get("constexprs")) {
    const llvm::json::Object *constexprs = c->getAsObject();
    if (!constexprs)
      return fail("field 'constexprs' must be an object");
    for (const auto &[key, value] : *constexprs) {
      std::optional<llvm::StringRef> s = value.getAsString();
      if (!s)
        return fail("constexpr '" + key.str() + "' must be a string");
      info.constexprs[key.str()] = s->str();
    }
  }
  return info;
}

} // namespace kiln

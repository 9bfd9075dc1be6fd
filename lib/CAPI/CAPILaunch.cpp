//===- CAPILaunch.cpp - Arguments, launches, launchers, compile-only ------===//
#include "CAPIInternal.h"
#include "llvm/Support/raw_ostream.h"
#include <climits>
#include <cstring>
#include <map>

using namespace kiln;
using namespace kiln::capi;

namespace {
/// "argument #2 `y`" (1-based, as the kernel's def counts them).
/// The parameter kiln_arg `i` belongs to (a descriptor's parts and a tuple's
/// elements follow their header), and whether it is that header.
std::pair<size_t, bool> paramOf(const kiln_arg *args, size_t nargs, size_t i) {
  size_t param = 0, pos = 0;
  while (pos < nargs) {
    size_t end = pos;
    for (uint64_t pending = 1; pending && end < nargs; ++end) {
      const kiln_arg &a = args[end];
      --pending;
      if (a.kind == KILN_ARG_TUPLE && a.value.i > 0)
        pending += uint64_t(a.value.i);
      if (a.kind == KILN_ARG_TENSORDESC && (a.byte_size & 7))
        end += 2 * (a.byte_size & 7) - 1;
    }
    if (i < end)
      return {param, i == pos};
    pos = end;
    ++param;
  }
  return {param, true};
}

std::string argLabel(const kiln_kernel *kernel, const kiln_arg *args,
                     size_t nargs, size_t i) {
  auto [param, header] = paramOf(args, nargs, i);
  std::string s = "argument #" + std::to_string(param + 1);
  if (kernel) {
    std::string name = runtimeParamName(kernel->kernel, param);
    if (!name.empty())
      s += " `" + name + "`";
  }
  if (!header) // inside a descriptor or a tuple
    s += " (kiln_arg #" + std::to_string(i + 1) + ")";
  return s;
}

kiln_status argError(const kiln_kernel *kernel, const kiln_arg *args,
                     size_t nargs, size_t i, const std::string &why) {
  std::string where = kernel ? "kernel `" + kernel->kernel.name() + "`: " : "";
  return fail(KILN_ERROR_LAUNCH,
              where + argLabel(kernel, args, nargs, i) + ": " + why);
}

/// The runtime options of a C options object with `stream` (if set).
const rt::LaunchOptions &launchOptions(const kiln_options &o) {
  return o.launch;
}

using MetaMap = std::map<std::string, std::string>;
using kiln::LaunchArgs;

/// Compile-time values a launch uses: constexprs given, else defaulted, and
/// num_warps / num_stages.
MetaMap buildMeta(const rt::Kernel &kernel, const kiln_options &o) {
  MetaMap meta;
  for (const KernelParameter &p : kernel.params()) {
    if (!p.isConstexpr)
      continue;
    auto it = o.launch.constexprs.find(p.name);
    if (it != o.launch.constexprs.end())
      meta[p.name] = it->second.text();
    else if (p.defaultValue)
      meta[p.name] = *p.defaultValue;
  }
  // Constexprs the kernel does not declare are reported by the launch.
  for (const auto &[name, value] : o.launch.constexprs)
    meta.emplace(name, value.text());
  meta["num_warps"] = std::to_string(o.launch.numWarps);
  meta["num_stages"] = std::to_string(o.launch.numStages);
  return meta;
}

std::string metaText(const MetaMap &meta) {
  std::string s;
  for (const auto &[name, value] : meta)
    s += name + "=" + value + "\n";
  return s;
}

/// The meta values of each kernel's last launch on this thread.
thread_local std::map<const kiln_kernel *, MetaText> lastMeta;

/// The config part of a launch's meta (constexprs, num_warps, num_stages;
/// not the arguments) as `name=literal` lines.
MetaMap configMeta(const rt::Kernel &kernel, const LaunchArgs &meta,
                   unsigned numStages) {
  MetaMap out;
  for (const auto &[name, value] : meta) {
    bool isArg = llvm::any_of(kernel.params(), [&](const KernelParameter &p) {
      return !p.isConstexpr && p.name == name;
    });
    if (isArg)
      continue;
    if (auto literal = rt::literalOf(value))
      out[name] = *literal;
  }
  out.emplace("num_stages", std::to_string(numStages));
  return out;
}

kiln_status launchChecked(kiln_kernel *kernel, const rt::Grid &grid,
                          llvm::ArrayRef<rt::Arg> args, const kiln_options &o,
                          const rt::LaunchOptions &launch) {
  MetaText meta;
  if (!kernel->kernel.layers())
    meta = launchMeta(kernel->kernel, o);
  return launchAndRecord(kernel, kernel->kernel, grid, args, launch,
                         o.launch.numStages, meta);
}
} // namespace

kiln_status kiln::capi::launchAndRecord(const kiln_kernel *origin,
                                        rt::Kernel &kernel,
                                        const rt::Grid &grid,
                                        llvm::ArrayRef<rt::Arg> args,
                                        const rt::LaunchOptions &launch,
                                        unsigned numStages,
                                        const MetaText &staticMeta,
                                        rt::LaunchMemo *memo) {
  if (!kernel.layers()) {
    if (auto err = memo ? kernel.launch(grid, args, launch, *memo)
                        : kernel.launch(grid, args, launch))
      return fail(std::move(err), KILN_ERROR_LAUNCH);
    recordLastMeta(origin, staticMeta);
    return KILN_OK;
  }
  // Decorated: the autotuner / heuristics choose the config; a grid function
  // that returns the fixed grid sees (and keeps) the meta they settle on.
  LaunchArgs chosen;
  rt::GridFunction fixed = [&](const LaunchArgs &meta) {
    chosen = meta;
    return grid;
  };
  if (auto err = kernel.launch(fixed, args, launch))
    return fail(std::move(err), KILN_ERROR_LAUNCH);
  recordLastMeta(origin, std::make_shared<const std::string>(
                             metaText(configMeta(kernel, chosen, numStages))));
  return KILN_OK;
}

void kiln::capi::recordLastMeta(const kiln_kernel *kernel, MetaText meta) {
  lastMeta[kernel] = std::move(meta);
}

MetaText kiln::capi::launchMeta(const rt::Kernel &kernel,
                                const kiln_options &o) {
  return std::make_shared<const std::string>(metaText(buildMeta(kernel, o)));
}

struct kiln_meta {
  MetaMap values;
  std::vector<const std::pair<const std::string, std::string> *> order;
};

kiln_status kiln::capi::convertArgs(const kiln_kernel *kernel,
                                    const kiln_arg *args, size_t nargs,
                                    std::vector<rt::Arg> &out) {
  out.clear();
  out.reserve(nargs);
  for (size_t i = 0; i < nargs; ++i) {
    const kiln_arg &a = args[i];
    switch (a.kind) {
    case KILN_ARG_POINTER: {
      auto t = toDType(a.dtype);
      if (!t)
        return argError(kernel, args, nargs, i,
                        "pointer with unknown dtype " + std::to_string(a.dtype));
      out.push_back(rt::Arg::ptr(a.value.ptr, *t, a.byte_size));
      break;
    }
    case KILN_ARG_INT:
      out.push_back(rt::Arg::integer(a.value.i));
      break;
    case KILN_ARG_INT_NOSPEC:
      out.push_back(rt::Arg::integer(a.value.i).withoutSpecialization());
      break;
    case KILN_ARG_INT32:
      if (a.value.i < INT32_MIN || a.value.i > INT32_MAX)
        return argError(kernel, args, nargs, i,
                        "integer " + std::to_string(a.value.i) +
                            " does not fit in int32");
      out.push_back(rt::Arg::i32(int32_t(a.value.i)));
      break;
    case KILN_ARG_INT64:
      out.push_back(rt::Arg::i64(a.value.i));
      break;
    case KILN_ARG_UINT:
      // Triton's rule: 2^63 and above is a u64.
      out.push_back(a.value.u > uint64_t(INT64_MAX)
                        ? rt::Arg::u64(a.value.u)
                        : rt::Arg::integer(int64_t(a.value.u)));
      break;
    case KILN_ARG_FLOAT32:
      out.push_back(rt::Arg::f32(float(a.value.f)));
      break;
    case KILN_ARG_FLOAT64:
      out.push_back(rt::Arg::f64(a.value.f));
      break;
    case KILN_ARG_BOOL:
      // The runtime has no i1 argument: a bool travels as an i32 0/1, which
      // the kernel's truth tests read the same way. Never specialized on its
      // value (Triton types bools u1): True is not the constant 1.
      out.push_back(rt::Arg::i32(a.value.i ? 1 : 0).withoutSpecialization());
      break;
    case KILN_ARG_NONE:
      out.push_back(rt::Arg::none());
      break;
    case KILN_ARG_TENSORDESC: {
      auto t = toDType(a.dtype);
      unsigned rank = unsigned(a.byte_size & 7);
      if (!t || rank < 1 || rank > 5)
        return argError(kernel, args, nargs, i,
                        "tensor descriptor with unknown dtype " +
                            std::to_string(a.dtype) + " or rank " +
                            std::to_string(rank));
      out.push_back(rt::Arg::tensorDescFromBits(a.value.ptr, *t, a.byte_size));
      break;
    }
    case KILN_ARG_CONSTEXPR:
      if (!a.value.ptr)
        return argError(kernel, args, nargs, i,
                        "constexpr argument without a spelling (null)");
      out.push_back(rt::Arg::constexprText(
          reinterpret_cast<const char *>(uintptr_t(a.value.ptr))));
      break;
    case KILN_ARG_TUPLE:
      // Each element is at least one argument after the header.
      if (a.value.i < 0 || uint64_t(a.value.i) > nargs - i - 1)
        return argError(kernel, args, nargs, i,
                        "tuple of " + std::to_string(a.value.i) +
                            " element(s) with " + std::to_string(nargs - i - 1) +
                            " argument(s) after it");
      // byte_size: 0, or the address of a namedtuple's "x,y" field names.
      out.push_back(rt::Arg::tupleHeader(
          unsigned(a.value.i),
          a.byte_size ? reinterpret_cast<const char *>(uintptr_t(a.byte_size))
                      : nullptr));
      break;
    default:
      return argError(kernel, args, nargs, i,
                      "unknown argument kind " + std::to_string(a.kind));
    }
  }
  return KILN_OK;
}

extern "C" {

kiln_status kiln_kernel_launch(kiln_kernel *kernel, kiln_grid grid,
                               const kiln_arg *args, size_t nargs,
                               const kiln_options *options) {
  KILN_CHECK_ARG(kernel);
  if (nargs)
    KILN_CHECK_ARG(args);
  try {
    std::vector<rt::Arg> converted;
    if (kiln_status s = convertArgs(kernel, args, nargs, converted))
      return s;
    const kiln_options &o = optionsOrDefault(options);
    return launchChecked(kernel, rt::Grid(grid.x, grid.y, grid.z), converted,
                         o, launchOptions(o));
  } catch (const std::exception &e) {
    return fail(KILN_ERROR_LAUNCH, std::string("launch: ") + e.what());
  }
}

kiln_status kiln_kernel_launch_grid_fn(kiln_kernel *kernel,
                                       kiln_grid_fn gridFn, void *userData,
                                       const kiln_arg *args, size_t nargs,
                                       const kiln_options *options) {
  KILN_CHECK_ARG(kernel);
  KILN_CHECK_ARG(gridFn);
  if (nargs)
    KILN_CHECK_ARG(args);
  try {
    std::vector<rt::Arg> converted;
    if (kiln_status s = convertArgs(kernel, args, nargs, converted))
      return s;
    const kiln_options &o = optionsOrDefault(options);
    // The runtime calls the grid function with the meta of the config it
    // launches (with autotuning: once per config tried, then the chosen
    // one). A failing callback gets a zero grid, which launches nothing, and
    // its status is returned after the launch.
    kiln_status callbackStatus = KILN_OK;
    std::string callbackError;
    LaunchArgs lastMetaSeen;
    rt::GridFunction fn = [&](const LaunchArgs &launchMeta) -> rt::Grid {
      lastMetaSeen = launchMeta;
      kiln_meta meta;
      for (const auto &[name, value] : launchMeta)
        if (auto literal = rt::literalOf(value))
          meta.values[name] = *literal;
      meta.values.emplace("num_stages", std::to_string(o.launch.numStages));
      for (const auto &entry : meta.values)
        meta.order.push_back(&entry);
      kiln_grid grid = {1, 1, 1};
      fail(KILN_OK, ""); // A message the callback leaves is quoted.
      if (kiln_status s = gridFn(&meta, &grid, userData)) {
        if (callbackStatus == KILN_OK) {
          callbackStatus = s;
          std::string said = kiln_last_error();
          callbackError = "kernel `" + kernel->kernel.name() +
                          "`: the grid function failed (" +
                          kiln_status_name(s) + ")" +
                          (said.empty() ? "" : ": " + said);
        }
        return rt::Grid(0, 0, 0);
      }
      return rt::Grid(grid.x, grid.y, grid.z);
    };
    llvm::Error err = kernel->kernel.launch(fn, converted, o.launch);
    if (callbackStatus != KILN_OK) {
      llvm::consumeError(std::move(err));
      return fail(callbackStatus, callbackError);
    }
    if (err)
      return fail(std::move(err), KILN_ERROR_LAUNCH);
    recordLastMeta(kernel,
                   std::make_shared<const std::string>(metaText(configMeta(
                       kernel->kernel, lastMetaSeen, o.launch.numStages))));
    return KILN_OK;
  } catch (const std::exception &e) {
    return fail(KILN_ERROR_LAUNCH, std::string("launch: ") + e.what());
  }
}

int kiln_kernel_is_decorated(const kiln_kernel *kernel) {
  return kernel && kernel->kernel.layers() ? 1 : 0;
}

kiln_status kiln_meta_get(const kiln_meta *meta, const char *name,
                          const char **literal) {
  KILN_CHECK_ARG(meta);
  KILN_CHECK_ARG(name);
  KILN_CHECK_ARG(literal);
  auto it = meta->values.find(name);
  if (it == meta->values.end())
    return fail(KILN_ERROR_NOT_FOUND,
                std::string("meta has no value `") + name + "`");
  *literal = it->second.c_str();
  return KILN_OK;
}

kiln_status kiln_meta_get_int(const kiln_meta *meta, const char *name,
                              int64_t *value) {
  KILN_CHECK_ARG(value);
  const char *text = nullptr;
  if (kiln_status s = kiln_meta_get(meta, name, &text))
    return s;
  long long v = 0;
  if (llvm::StringRef(text).getAsInteger(0, v))
    return fail(KILN_ERROR_INVALID_ARGUMENT,
                std::string("meta `") + name + "` = " + text +
                    " is not an integer");
  *value = v;
  return KILN_OK;
}

size_t kiln_meta_count(const kiln_meta *meta) {
  return meta ? meta->order.size() : 0;
}

kiln_status kiln_meta_entry(const kiln_meta *meta, size_t index,
                            const char **name, const char **literal) {
  KILN_CHECK_ARG(meta);
  if (index >= meta->order.size())
    return fail(KILN_ERROR_NOT_FOUND,
                "meta index " + std::to_string(index) + " is out of range");
  if (name)
    *name = meta->order[index]->first.c_str();
  if (literal)
    *literal = meta->order[index]->second.c_str();
  return KILN_OK;
}

kiln_status kiln_kernel_last_meta(const kiln_kernel *kernel, char *buffer,
                                  size_t *size) {
  KILN_CHECK_ARG(kernel);
  KILN_CHECK_ARG(size);
  auto it = lastMeta.find(kernel);
  if (it == lastMeta.end())
    return fail(KILN_ERROR_NOT_FOUND, "kernel `" + kernel->kernel.name() +
                                          "` has not been launched on this "
                                          "thread");
  const std::string &text = *it->second;
  size_t need = text.size() + 1;
  size_t have = *size;
  *size = need;
  if (!buffer || have < need)
    return fail(KILN_ERROR_BUFFER_TOO_SMALL,
                "kiln_kernel_last_meta needs a buffer of " +
                    std::to_string(need) + " bytes");
  std::memcpy(buffer, text.c_str(), need);
  return KILN_OK;
}

void kiln_kernel_destroy(kiln_kernel *kernel) {
  lastMeta.erase(kernel);
  delete kernel;
}

//===----------------------------------------------------------------------===//
// Compile only
//===----------------------------------------------------------------------===//

kiln_status kiln_kernel_compile(kiln_kernel *kernel, const kiln_arg *args,
                                size_t nargs, const kiln_options *options,
                                char **ptx, char **infoJson) {
  KILN_CHECK_ARG(kernel);
  if (nargs)
    KILN_CHECK_ARG(args);
  if (ptx)
    *ptx = nullptr;
  if (infoJson)
    *infoJson = nullptr;
  try {
    std::vector<rt::Arg> converted;
    if (kiln_status s = convertArgs(kernel, args, nargs, converted))
      return s;
    const kiln_options &o = optionsOrDefault(options);
    std::string arch = o.arch.empty() ? "sm_90" : o.arch;
    auto ck = kernel->kernel.compileFor(arch, converted, o.launch);
    if (!ck)
      return fail(ck.takeError(), KILN_ERROR_LAUNCH);
    std::string info;
    llvm::raw_string_ostream(info) << (*ck)->info.toJSON();
    if (ptx && !(*ptx = copyString((*ck)->ptx)))
      return fail(KILN_ERROR_INVALID_ARGUMENT, "out of memory");
    if (infoJson && !(*infoJson = copyString(info)))
      return fail(KILN_ERROR_INVALID_ARGUMENT, "out of memory");
    return KILN_OK;
  } catch (const std::exception &e) {
    return fail(KILN_ERROR_COMPILE, std::string("compile: ") + e.what());
  }
}

} // extern "C"

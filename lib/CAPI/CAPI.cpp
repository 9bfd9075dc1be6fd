//===- CAPI.cpp - Errors, options, modules, kernels and devices -----------===//
#include "CAPIInternal.h"
#include "kiln/Frontend/Imports.h"
#include "kiln/Runtime/CompileLog.h"
#include "kiln/Runtime/Occupancy.h"
#include "kiln/Target/Pipeline.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/SHA256.h"
#include <cstring>
#include <iterator>
#include <new>

using namespace kiln;
using namespace kiln::capi;

namespace {
thread_local std::string lastError;

/// Runs `body`, turning a C++ exception (only std::bad_alloc is expected)
/// into an error instead of unwinding into C.
template <typename F> kiln_status guarded(const char *what, F &&body) {
  try {
    return body();
  } catch (const std::exception &e) {
    return fail(KILN_ERROR_INVALID_ARGUMENT,
                std::string(what) + ": internal error: " + e.what());
  }
}
} // namespace

namespace {
/// kiln_dtype values by Triton name, in enumerator order.
constexpr const char *kDTypeNames[] = {"i1",   "i8",   "i16", "i32", "i64",
                                       "u32",  "fp16", "bf16", "fp32",
                                       "fp64", "u8",   "u16", "u64",
                                       "fp8e4nv", "fp8e5"};
constexpr int kNumDTypes = int(std::size(kDTypeNames));
} // namespace

std::optional<DType> kiln::capi::toDType(int dtype) {
  if (dtype < 0 || dtype >= kNumDTypes)
    return std::nullopt;
  return parseDTypeName(kDTypeNames[dtype]);
}

char *kiln::capi::copyString(const std::string &s) {
  char *p = static_cast<char *>(std::malloc(s.size() + 1));
  if (p)
    std::memcpy(p, s.c_str(), s.size() + 1);
  return p;
}

kiln_status kiln::capi::fail(kiln_status status, std::string message) {
  lastError = std::move(message);
  return status;
}

kiln_status kiln::capi::classify(llvm::StringRef message,
                                 kiln_status fallback) {
  if (message.starts_with("no CUDA driver found"))
    return KILN_ERROR_NO_DRIVER;
  // Compiler diagnostics: `FILE:LINE:COL: error: ...` on some line.
  static const llvm::Regex diag("(^|\n)[^\n]+:[0-9]+:[0-9]+: error: ");
  if (diag.match(message))
    return KILN_ERROR_COMPILE;
  // A pipeline stage's own failure (`llvm stage: ...`): also the compiler's.
  if (size_t at = message.find(" stage: "); at != llvm::StringRef::npos &&
                                            parseStageName(message.take_front(at)))
    return KILN_ERROR_COMPILE;
  return fallback;
}

kiln_status kiln::capi::fail(llvm::Error err, kiln_status fallback) {
  if (!err)
    return KILN_OK;
  std::string msg = llvm::toString(std::move(err));
  kiln_status s = classify(msg, fallback);
  return fail(s, std::move(msg));
}

const kiln_options &kiln::capi::optionsOrDefault(const kiln_options *options) {
  static const kiln_options defaults;
  return options ? *options : defaults;
}

std::string kiln::capi::runtimeParamName(const rt::Kernel &kernel, size_t i) {
  for (const KernelParameter &p : kernel.params())
    if (!p.isConstexpr && i-- == 0)
      return p.name;
  return "";
}

//===----------------------------------------------------------------------===//
// Version, errors, dtypes
//===----------------------------------------------------------------------===//

extern "C" {

const char *kiln_version(void) { return KILN_VERSION_STRING; }
const char *kiln_last_error(void) { return lastError.c_str(); }

const char *kiln_status_name(kiln_status status) {
  switch (status) {
  case KILN_OK: return "KILN_OK";
  case KILN_ERROR_INVALID_ARGUMENT: return "KILN_ERROR_INVALID_ARGUMENT";
  case KILN_ERROR_IO: return "KILN_ERROR_IO";
  case KILN_ERROR_COMPILE: return "KILN_ERROR_COMPILE";
  case KILN_ERROR_NOT_FOUND: return "KILN_ERROR_NOT_FOUND";
  case KILN_ERROR_LAUNCH: return "KILN_ERROR_LAUNCH";
  case KILN_ERROR_NO_DRIVER: return "KILN_ERROR_NO_DRIVER";
  case KILN_ERROR_BUFFER_TOO_SMALL: return "KILN_ERROR_BUFFER_TOO_SMALL";
  }
  return "KILN_ERROR_UNKNOWN";
}

const char *kiln_dtype_name(int dtype) {
  auto t = toDType(dtype);
  return t ? dtypeName(*t) : nullptr;
}

kiln_status kiln_dtype_parse(const char *name, int *dtype) {
  KILN_CHECK_ARG(name);
  KILN_CHECK_ARG(dtype);
  static const std::pair<const char *, kiln_dtype> aliases[] = {
      {"bool", KILN_DTYPE_I1},      {"int1", KILN_DTYPE_I1},
      {"int8", KILN_DTYPE_I8},      {"int16", KILN_DTYPE_I16},
      {"int32", KILN_DTYPE_I32},    {"int64", KILN_DTYPE_I64},
      {"uint32", KILN_DTYPE_U32},   {"uint8", KILN_DTYPE_U8},
      {"uint16", KILN_DTYPE_U16},   {"uint64", KILN_DTYPE_U64},
      {"float16", KILN_DTYPE_F16},
      {"half", KILN_DTYPE_F16},     {"bfloat16", KILN_DTYPE_BF16},
      {"float32", KILN_DTYPE_F32},  {"float", KILN_DTYPE_F32},
      {"float64", KILN_DTYPE_F64},  {"double", KILN_DTYPE_F64},
      {"float8e4nv", KILN_DTYPE_F8E4NV}, {"float8_e4m3fn", KILN_DTYPE_F8E4NV},
      {"float8e5", KILN_DTYPE_F8E5},     {"float8_e5m2", KILN_DTYPE_F8E5}};
  int found = -1;
  for (const auto &[alias, t] : aliases)
    if (std::strcmp(alias, name) == 0)
      found = t;
  for (int t = 0; found < 0 && t < kNumDTypes; ++t)
    if (std::strcmp(kDTypeNames[t], name) == 0)
      found = t;
  if (found >= 0 && toDType(found)) {
    *dtype = found;
    return KILN_OK;
  }
  std::string known;
  for (int t = 0; t < kNumDTypes; ++t)
    if (toDType(t))
      known += (known.empty() ? "" : ", ") + std::string(kDTypeNames[t]);
  return fail(KILN_ERROR_INVALID_ARGUMENT,
              std::string(found >= 0 ? "dtype `" : "unknown dtype `") + name +
                  (found >= 0 ? "` is not supported by this build" : "`") +
                  " (supported: " + known + ")");
}

//===----------------------------------------------------------------------===//
// Options
//===----------------------------------------------------------------------===//

kiln_status kiln_options_create(kiln_options **out) {
  KILN_CHECK_ARG(out);
  return guarded(__func__, [&] {
    *out = new kiln_options();
    return KILN_OK;
  });
}

kiln_status kiln_options_copy(const kiln_options *from, kiln_options **out) {
  KILN_CHECK_ARG(from);
  KILN_CHECK_ARG(out);
  return guarded(__func__, [&] {
    *out = new kiln_options(*from);
    return KILN_OK;
  });
}

void kiln_options_destroy(kiln_options *options) { delete options; }

kiln_status kiln_options_set_num_warps(kiln_options *options,
                                       unsigned numWarps) {
  KILN_CHECK_ARG(options);
  if (!numWarps || (numWarps & (numWarps - 1)) || numWarps > 32)
    return fail(KILN_ERROR_INVALID_ARGUMENT,
                "num_warps = " + std::to_string(numWarps) +
                    " is not a power of two in 1..32");
  options->launch.numWarps = numWarps;
  return KILN_OK;
}

kiln_status kiln_options_set_num_stages(kiln_options *options,
                                        unsigned numStages) {
  KILN_CHECK_ARG(options);
  if (numStages == 0 || numStages > 16)
    return fail(KILN_ERROR_INVALID_ARGUMENT,
                "num_stages = " + std::to_string(numStages) +
                    " is not in 1..16");
  options->launch.numStages = numStages;
  return KILN_OK;
}

kiln_status kiln_options_set_cooperative(kiln_options *options,
                                         int cooperative) {
  KILN_CHECK_ARG(options);
  options->launch.cooperative = cooperative != 0;
  return KILN_OK;
}

kiln_status kiln_options_set_pdl(kiln_options *options, int pdl) {
  KILN_CHECK_ARG(options);
  options->launch.programmaticLaunch = pdl != 0;
  return KILN_OK;
}

kiln_status kiln_options_set_fp_fusion(kiln_options *options, int enable) {
  KILN_CHECK_ARG(options);
  options->launch.fpFusion = enable != 0;
  return KILN_OK;
}

kiln_status kiln_options_set_null_pointers(kiln_options *options, int allow) {
  KILN_CHECK_ARG(options);
  options->launch.nullPointers = allow != 0;
  return KILN_OK;
}

kiln_status kiln_options_set_constexpr(kiln_options *options, const char *name,
                                       const char *literal) {
  KILN_CHECK_ARG(options);
  KILN_CHECK_ARG(name);
  KILN_CHECK_ARG(literal);
  if (!*name || !*literal)
    return fail(KILN_ERROR_INVALID_ARGUMENT,
                std::string("constexpr `") + name + "`: empty " +
                    (*name ? "value" : "name"));
  return guarded(__func__, [&] {
    options->launch.constexprs.insert_or_assign(name,
                                                rt::ConstexprValue(literal));
    return KILN_OK;
  });
}

kiln_status kiln_options_clear_constexprs(kiln_options *options) {
  KILN_CHECK_ARG(options);
  options->launch.constexprs.clear();
  return KILN_OK;
}

kiln_status kiln_options_set_device(kiln_options *options, int device) {
  KILN_CHECK_ARG(options);
  if (device < 0)
    return fail(KILN_ERROR_INVALID_ARGUMENT,
                "device " + std::to_string(device) + " is negative");
  options->launch.device = device;
  return KILN_OK;
}

kiln_status kiln_options_set_stream(kiln_options *options, void *stream) {
  KILN_CHECK_ARG(options);
  options->launch.stream = static_cast<rt::CUstream>(stream);
  return KILN_OK;
}

kiln_status kiln_options_set_arch(kiln_options *options, const char *arch) {
  KILN_CHECK_ARG(options);
  KILN_CHECK_ARG(arch);
  llvm::StringRef a(arch);
  unsigned cc = 0;
  if (!a.consume_front("sm_") || a.getAsInteger(10, cc) || cc < 80)
    return fail(KILN_ERROR_INVALID_ARGUMENT,
                std::string("arch `") + arch +
                    "` is not a target Kiln supports (sm_80 or newer)");
  return guarded(__func__, [&] {
    options->arch = arch;
    return KILN_OK;
  });
}

//===----------------------------------------------------------------------===//
// Modules and kernels
//===----------------------------------------------------------------------===//

kiln_status kiln_module_from_file(const char *path, kiln_module **out) {
  KILN_CHECK_ARG(path);
  KILN_CHECK_ARG(out);
  return kiln_module_create(path, nullptr, nullptr, out);
}

kiln_status kiln_module_from_source(const char *source, const char *filename,
                                    kiln_module **out) {
  KILN_CHECK_ARG(source);
  KILN_CHECK_ARG(out);
  return kiln_module_create(filename ? filename : "<source>", source, nullptr,
                            out);
}

void kiln_module_destroy(kiln_module *module) { delete module; }

/// Module options for `config`: the decorators left to the host, and the
/// frontend's search path set around each compile.
static rt::ModuleOptions moduleOptions(FrontendOptions fo) {
  rt::ModuleOptions options;
  if (fo.hostDecorators)
    options.decorators = [](llvm::StringRef, llvm::StringRef, llvm::StringRef)
        -> llvm::Expected<std::shared_ptr<const rt::KernelLayers>> {
      return nullptr;
    };
  options.compile = [fo](llvm::StringRef source, llvm::StringRef filename,
                         const KernelSpec &spec) {
    ScopedFrontendOptions scope(fo);
    rt::recordCompileCommand(source, filename, spec);
    return compileKernel(source, filename, spec);
  };
  return options;
}

/// The source as compiled, with what else selects its code appended as a
/// comment (so that it is part of every cache key): the imported files'
/// digest, the search path and the decorator mode. Line numbers are kept.
static std::string keyedSource(std::string source, llvm::StringRef filename,
                               const FrontendOptions &fo) {
  std::string digest =
      importedFilesDigest(source, filename, fo.includeDirs);
  if (digest.empty() && !fo.hostDecorators && fo.hostBindings.empty())
    return source;
  std::string bindings;
  if (!fo.hostBindings.empty()) {
    llvm::SHA256 hash;
    for (const HostBinding &b : fo.hostBindings)
      hash.update(b.path + "::" + b.name + "=" + b.expr + '\0');
    bindings = ", bindings " + llvm::toHex(hash.final(), /*LowerCase=*/true);
  }
  source += "\n# kiln: imports " + (digest.empty() ? "none" : digest) +
            (fo.hostDecorators ? ", host decorators" : "") + bindings + "\n";
  return source;
}

kiln_status kiln_module_create(const char *path, const char *source,
                               const kiln_module_config *config,
                               kiln_module **out) {
  KILN_CHECK_ARG(out);
  *out = nullptr;
  if (!path && !source)
    return fail(KILN_ERROR_INVALID_ARGUMENT,
                "kiln_module_create: give `path` or `source`");
  if (config && (config->flags & ~KILN_MODULE_IGNORE_DECORATORS))
    return fail(KILN_ERROR_INVALID_ARGUMENT,
                "kiln_module_create: unknown flags " +
                    std::to_string(config->flags));
  if (config && config->num_include_dirs && !config->include_dirs)
    return fail(KILN_ERROR_INVALID_ARGUMENT,
                "kiln_module_create: `include_dirs` is NULL");
  if (config && config->num_host_bindings && !config->host_bindings)
    return fail(KILN_ERROR_INVALID_ARGUMENT,
                "kiln_module_create: `host_bindings` is NULL");
  return guarded(__func__, [&] {
    FrontendOptions fo;
    if (config) {
      fo.hostDecorators = config->flags & KILN_MODULE_IGNORE_DECORATORS;
      for (size_t i = 0; i < config->num_include_dirs; ++i) {
        if (!config->include_dirs[i])
          return fail(KILN_ERROR_INVALID_ARGUMENT,
                      "kiln_module_create: include_dirs[" +
                          std::to_string(i) + "] is NULL");
        fo.includeDirs.push_back(config->include_dirs[i]);
      }
      std::vector<std::string> texts;
      for (size_t i = 0; i < config->num_host_bindings; ++i) {
        if (!config->host_bindings[i])
          return fail(KILN_ERROR_INVALID_ARGUMENT,
                      "kiln_module_create: host_bindings[" +
                          std::to_string(i) + "] is NULL");
        texts.push_back(config->host_bindings[i]);
      }
      llvm::Expected<std::vector<HostBinding>> bindings =
          parseHostBindings(texts);
      if (!bindings)
        return fail(KILN_ERROR_INVALID_ARGUMENT,
                    "kiln_module_create: " +
                        llvm::toString(bindings.takeError()));
      fo.hostBindings = std::move(*bindings);
    }
    std::string filename = path ? path : "<source>";
    fo.mainFile = filename;
    std::string text;
    if (source) {
      text = source;
    } else {
      auto buf = llvm::MemoryBuffer::getFile(filename, /*IsText=*/true);
      if (!buf)
        return fail(KILN_ERROR_IO, "cannot read kernel file " + filename +
                                       ": " + buf.getError().message());
      text = (*buf)->getBuffer().str();
    }
    *out = new kiln_module{
        rt::Module::fromSource(keyedSource(std::move(text), filename, fo),
                               filename, moduleOptions(fo)),
        {}, {}, fo};
    return KILN_OK;
  });
}

static kiln_status moduleNames(kiln_module *module) {
  std::lock_guard<std::mutex> lock(module->mutex);
  if (module->names)
    return KILN_OK;
  ScopedFrontendOptions scope(module->frontend);
  auto names = module->module.kernelNames();
  if (!names)
    return fail(names.takeError(), KILN_ERROR_COMPILE);
  module->names = std::move(*names);
  return KILN_OK;
}

kiln_status kiln_module_kernel_count(kiln_module *module, size_t *count) {
  KILN_CHECK_ARG(module);
  KILN_CHECK_ARG(count);
  return guarded(__func__, [&] {
    if (kiln_status s = moduleNames(module))
      return s;
    *count = module->names->size();
    return KILN_OK;
  });
}

kiln_status kiln_module_kernel_name(kiln_module *module, size_t index,
                                    const char **name) {
  KILN_CHECK_ARG(module);
  KILN_CHECK_ARG(name);
  return guarded(__func__, [&] {
    if (kiln_status s = moduleNames(module))
      return s;
    if (index >= module->names->size())
      return fail(KILN_ERROR_NOT_FOUND,
                  "kernel index " + std::to_string(index) + " is out of range: " +
                      module->module.filename() + " has " +
                      std::to_string(module->names->size()) + " kernel(s)");
    *name = (*module->names)[index].c_str();
    return KILN_OK;
  });
}

kiln_status kiln_module_get_kernel(kiln_module *module, const char *name,
                                   kiln_kernel **out) {
  KILN_CHECK_ARG(module);
  KILN_CHECK_ARG(name);
  KILN_CHECK_ARG(out);
  *out = nullptr;
  return guarded(__func__, [&] {
    // Decorator arguments imported from the package's modules are found
    // in its roots (the host evaluator reads them at this point).
    ScopedFrontendOptions scope(module->frontend);
    auto k = module->module.kernel(name);
    if (!k) {
      std::string msg = llvm::toString(k.takeError());
      // The frontend reports a missing kernel at 1:1 of the file; that is a
      // lookup failure, not a compile error.
      bool missing = msg.find("kernel `" + std::string(name) + "` not found") !=
                     std::string::npos;
      return fail(missing ? KILN_ERROR_NOT_FOUND
                          : classify(msg, KILN_ERROR_COMPILE),
                  std::move(msg));
    }
    *out = new kiln_kernel{std::move(*k)};
    return KILN_OK;
  });
}

const char *kiln_kernel_name(const kiln_kernel *kernel) {
  return kernel ? kernel->kernel.name().c_str() : nullptr;
}

kiln_status kiln_kernel_param_count(const kiln_kernel *kernel, size_t *count) {
  KILN_CHECK_ARG(kernel);
  KILN_CHECK_ARG(count);
  *count = kernel->kernel.params().size();
  return KILN_OK;
}

kiln_status kiln_kernel_param(const kiln_kernel *kernel, size_t index,
                              kiln_param_info *info) {
  KILN_CHECK_ARG(kernel);
  KILN_CHECK_ARG(info);
  auto params = kernel->kernel.params();
  if (index >= params.size())
    return fail(KILN_ERROR_NOT_FOUND,
                "parameter index " + std::to_string(index) +
                    " is out of range: kernel `" + kernel->kernel.name() +
                    "` has " + std::to_string(params.size()) +
                    " parameter(s)");
  const KernelParameter &p = params[index];
  info->name = p.name.c_str();
  info->is_constexpr = p.isConstexpr ? 1 : 0;
  info->default_value = p.defaultValue ? p.defaultValue->c_str() : nullptr;
  return KILN_OK;
}

//===----------------------------------------------------------------------===//
// Devices
//===----------------------------------------------------------------------===//

kiln_status kiln_device_count(int *count) {
  KILN_CHECK_ARG(count);
  return guarded(__func__, [&] {
    auto n = rt::Device::count();
    if (!n)
      return fail(n.takeError(), KILN_ERROR_NO_DRIVER);
    *count = *n;
    return KILN_OK;
  });
}

static kiln_status getDevice(int index, rt::Device *&out) {
  auto d = rt::Device::get(index);
  if (!d)
    return fail(d.takeError(), KILN_ERROR_NOT_FOUND);
  out = &*d;
  return KILN_OK;
}

kiln_status kiln_device_name(int device, const char **name) {
  KILN_CHECK_ARG(name);
  return guarded(__func__, [&] {
    rt::Device *d = nullptr;
    if (kiln_status s = getDevice(device, d))
      return s;
    *name = d->name().c_str();
    return KILN_OK;
  });
}

kiln_status kiln_device_arch(int device, int *ccMajor, int *ccMinor,
                             const char **arch) {
  return guarded(__func__, [&] {
    rt::Device *d = nullptr;
    if (kiln_status s = getDevice(device, d))
      return s;
    if (ccMajor)
      *ccMajor = d->ccMajor();
    if (ccMinor)
      *ccMinor = d->ccMinor();
    if (arch)
      *arch = d->arch().c_str();
    return KILN_OK;
  });
}

kiln_status kiln_device_synchronize(int device) {
  return guarded(__func__, [&] {
    rt::Device *d = nullptr;
    if (kiln_status s = getDevice(device, d))
      return s;
    return fail(d->synchronize(), KILN_ERROR_LAUNCH);
  });
}

void kiln_free(void *p) { std::free(p); }

kiln_status kiln_set_occupancy_paused(int paused, int *previous) {
  bool was = rt::setOccupancyPaused(paused != 0);
  if (previous)
    *previous = was;
  return KILN_OK;
}

kiln_status kiln_take_warnings(char **text) {
  KILN_CHECK_ARG(text);
  *text = nullptr;
  std::string joined = rt::takeCompileWarnings();
  if (joined.empty())
    return KILN_OK;
  if (!(*text = copyString(joined)))
    return fail(KILN_ERROR_INVALID_ARGUMENT, "out of memory");
  return KILN_OK;
}

} // extern "C"

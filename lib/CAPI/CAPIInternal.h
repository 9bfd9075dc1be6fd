//===- CAPIInternal.h - Handle structs and error plumbing of the C API ----===//
#ifndef KILN_LIB_CAPI_CAPIINTERNAL_H
#define KILN_LIB_CAPI_CAPIINTERNAL_H

#include "kiln/Frontend/Imports.h"
#include "kiln/Runtime/Module.h"
#include "kiln/kiln.h"
#include <mutex>
#include <optional>
#include <string>
#include <vector>

struct kiln_options {
  kiln::rt::LaunchOptions launch;
  std::string arch; ///< Empty: the device's (compile-only: sm_90).
};

struct kiln_module {
  kiln::rt::Module module;
  std::mutex mutex;
  std::optional<std::vector<std::string>> names; ///< Set once listed.
  /// Its config's package roots and main file, set around the frontend's
  /// queries of kernels and decorators (which follow imports).
  kiln::FrontendOptions frontend;
};

struct kiln_kernel {
  kiln::rt::Kernel kernel;
};

namespace kiln::capi {

/// Records `message` as the thread's last error and returns `status`.
kiln_status fail(kiln_status status, std::string message);
/// Consumes `err`: KILN_OK on success, else records its message with the
/// status the message shows (no driver, compile error) or `fallback`.
kiln_status fail(llvm::Error err, kiln_status fallback);
/// A malloc'ed copy of `s` for the caller to kiln_free; null when out of
/// memory.
char *copyString(const std::string &s);
/// The status a runtime error message stands for, `fallback` if unclear.
kiln_status classify(llvm::StringRef message, kiln_status fallback);

/// Null-pointer checks that name the C parameter.
#define KILN_CHECK_ARG(p)                                                      \
  do {                                                                         \
    if (!(p))                                                                  \
      return ::kiln::capi::fail(KILN_ERROR_INVALID_ARGUMENT,                   \
                                std::string(__func__) + ": `" #p               \
                                "` is NULL");                                  \
  } while (0)

/// The compiler's dtype for a kiln_dtype value; none when out of range or
/// not supported by this build (mapped by name, not by enumerator value).
std::optional<kiln::DType> toDType(int dtype);

/// Converts C arguments to runtime arguments; errors name the argument
/// (1-based, with the parameter's name when `kernel` is given).
kiln_status convertArgs(const kiln_kernel *kernel, const kiln_arg *args,
                        size_t nargs, std::vector<kiln::rt::Arg> &out);
/// The name of the i-th runtime (non-constexpr) parameter, or "".
std::string runtimeParamName(const kiln::rt::Kernel &kernel, size_t i);

/// The meta text (`name=literal` lines) of a kernel's last launch on this
/// thread; shared with the launcher that made it.
using MetaText = std::shared_ptr<const std::string>;
void recordLastMeta(const kiln_kernel *kernel, MetaText meta);
/// Meta text for a launch of `kernel` with `options`.
MetaText launchMeta(const kiln::rt::Kernel &kernel, const kiln_options &o);

/// Launches `kernel` and records the meta of the launch as `origin`'s last:
/// `staticMeta` for an undecorated kernel, else the config the decorator
/// layers (autotune, heuristics) chose. With `memo` (a bound launcher's,
/// whose options stay fixed), an undecorated kernel reuses the
/// specialization of the previous launch through it.
kiln_status launchAndRecord(const kiln_kernel *origin, kiln::rt::Kernel &kernel,
                            const kiln::rt::Grid &grid,
                            llvm::ArrayRef<kiln::rt::Arg> args,
                            const kiln::rt::LaunchOptions &launch,
                            unsigned numStages, const MetaText &staticMeta,
                            kiln::rt::LaunchMemo *memo = nullptr);

/// Defaults when `options` is null.
const kiln_options &optionsOrDefault(const kiln_options *options);

} // namespace kiln::capi

#endif

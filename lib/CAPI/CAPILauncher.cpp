//===- CAPILauncher.cpp - Pre-bound launchers over packed arguments -------===//
//
// The launch path python/kiln takes on every call after the first: kinds and
// options are fixed at bind time, so a launch only decodes 16 bytes per
// argument into runtime arguments and calls Kernel::launch.
//
//===----------------------------------------------------------------------===//
#include "CAPIInternal.h"
#include "llvm/ADT/SmallVector.h"
#include <climits>
#include <cstring>

using namespace kiln;
using namespace kiln::capi;

namespace {
/// What a bound argument becomes; the value comes with each launch.
enum class Slot : uint8_t {
  Pointer, I32, I64, U64, F32, F64, Bool, None, TensorDesc, Tuple
};

uint64_t load64(const unsigned char *p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  return v;
}
} // namespace

struct kiln_launcher {
  rt::Kernel kernel;
  /// The kernel handle it was bound from: only a key for kiln_kernel_last_meta
  /// (never dereferenced, so the launcher may outlive it).
  const kiln_kernel *origin = nullptr;
  /// The meta of an undecorated kernel's launches (decorated kernels record
  /// the config chosen per launch).
  MetaText meta;
  std::vector<Slot> slots;
  std::vector<DType> dtypes; ///< Pointee types of pointer slots.
  /// Integer slots never specialized on their value (do_not_specialize).
  std::vector<bool> unspecialized;
  /// Tuple slots: the element count bound (the structure is fixed). Texts:
  /// a namedtuple's field names, a constexpr argument's spelling (copied:
  /// the prototype's are the caller's).
  std::vector<unsigned> tupleSizes;
  std::vector<std::string> texts;
  kiln_options options;
  /// The last launch's specialization (undecorated kernels): options are
  /// fixed here, so arguments of the same value classes reuse it.
  rt::LaunchMemo memo;
  /// Serializes launches: the stream is set in `options` for each one.
  std::mutex mutex;
};

extern "C" {

kiln_status kiln_kernel_bind(kiln_kernel *kernel, const kiln_arg *prototype,
                             size_t nargs, const kiln_options *options,
                             kiln_launcher **out) {
  KILN_CHECK_ARG(kernel);
  KILN_CHECK_ARG(out);
  if (nargs)
    KILN_CHECK_ARG(prototype);
  *out = nullptr;
  try {
    // Converting checks kinds, dtypes and ranges with the usual messages.
    std::vector<rt::Arg> converted;
    if (kiln_status s = convertArgs(kernel, prototype, nargs, converted))
      return s;
    auto l = std::make_unique<kiln_launcher>(kernel->kernel);
    l->options = optionsOrDefault(options);
    l->origin = kernel;
    if (!kernel->kernel.layers())
      l->meta = launchMeta(kernel->kernel, l->options);
    for (size_t i = 0; i < nargs; ++i) {
      const rt::Arg &a = converted[i];
      Slot slot = Slot::Pointer;
      if (prototype[i].kind == KILN_ARG_BOOL)
        slot = Slot::Bool;
      else if (a.kind() == rt::Arg::Kind::TensorDesc)
        slot = Slot::TensorDesc;
      else if (a.isNone())
        slot = Slot::None;
      else if (a.kind() == rt::Arg::Kind::Tuple)
        slot = Slot::Tuple;
      else if (a.kind() == rt::Arg::Kind::Int)
        slot = a.dtype() == DType::I32   ? Slot::I32
               : a.dtype() == DType::U64 ? Slot::U64
                                         : Slot::I64;
      else if (a.kind() == rt::Arg::Kind::Float)
        slot = a.dtype() == DType::F32 ? Slot::F32 : Slot::F64;
      l->slots.push_back(slot);
      l->dtypes.push_back(a.dtype());
      l->unspecialized.push_back(prototype[i].kind == KILN_ARG_INT_NOSPEC);
      l->tupleSizes.push_back(a.tupleSize());
      l->texts.push_back(a.kind() == rt::Arg::Kind::Tuple
                             ? a.tupleFields().str()
                             : a.constexprText().str());
    }
    *out = l.release();
    return KILN_OK;
  } catch (const std::exception &e) {
    return fail(KILN_ERROR_LAUNCH, std::string("bind: ") + e.what());
  }
}

/// A packed launch buffer (kiln.h), read.
struct Unpacked {
  uint32_t grid[3];
  rt::CUstream stream = nullptr;
  llvm::SmallVector<rt::Arg, 16> args;
};

static kiln_status unpack(kiln_launcher *launcher, const void *packed,
                          size_t bytes, Unpacked &out) {
  uint32_t (&grid)[3] = out.grid;
  rt::CUstream &stream = out.stream;
  llvm::SmallVectorImpl<rt::Arg> &args = out.args;
  KILN_CHECK_ARG(launcher);
  KILN_CHECK_ARG(packed);
  size_t n = launcher->slots.size();
  size_t need = KILN_PACKED_HEADER_BYTES + n * KILN_PACKED_ARG_BYTES;
  if (bytes != need)
    return fail(KILN_ERROR_INVALID_ARGUMENT,
                "kernel `" + launcher->kernel.name() + "`: packed launch of " +
                    std::to_string(bytes) + " bytes, expected " +
                    std::to_string(need) + " for " + std::to_string(n) +
                    " argument(s)");
  const auto *p = static_cast<const unsigned char *>(packed);
  std::memcpy(grid, p, sizeof(grid));
  stream = reinterpret_cast<rt::CUstream>(uintptr_t(load64(p + 16)));
  const unsigned char *a = p + KILN_PACKED_HEADER_BYTES;
  for (size_t i = 0; i < n; ++i, a += KILN_PACKED_ARG_BYTES) {
    uint64_t bits = load64(a);
    double f;
    std::memcpy(&f, &bits, 8);
    switch (launcher->slots[i]) {
    case Slot::Pointer:
      args.push_back(rt::Arg::ptr(bits, launcher->dtypes[i], load64(a + 8)));
      break;
    case Slot::None:
      args.push_back(launcher->texts[i].empty()
                         ? rt::Arg::none()
                         : rt::Arg::constexprText(launcher->texts[i].c_str()));
      break;
    case Slot::Tuple:
      if (bits != launcher->tupleSizes[i])
        return fail(KILN_ERROR_INVALID_ARGUMENT,
                    "kernel `" + launcher->kernel.name() + "`: packed record " +
                        std::to_string(i + 1) + " is a tuple of " +
                        std::to_string(bits) +
                        " element(s); this launcher was bound for " +
                        std::to_string(launcher->tupleSizes[i]));
      args.push_back(rt::Arg::tupleHeader(
          launcher->tupleSizes[i],
          launcher->texts[i].empty() ? nullptr : launcher->texts[i].c_str()));
      break;
    case Slot::TensorDesc: // base, then the block/padding bits
      args.push_back(rt::Arg::tensorDescFromBits(bits, launcher->dtypes[i],
                                                 load64(a + 8)));
      break;
    case Slot::I32: {
      auto v = int64_t(bits);
      if (v < INT32_MIN || v > INT32_MAX) {
        std::string name = runtimeParamName(launcher->kernel, i);
        return fail(KILN_ERROR_LAUNCH,
                    "kernel `" + launcher->kernel.name() + "`: argument #" +
                        std::to_string(i + 1) + " `" + name + "`: integer " +
                        std::to_string(v) +
                        " does not fit the i32 this launcher was bound for");
      }
      args.push_back(rt::Arg::i32(int32_t(v)));
      if (launcher->unspecialized[i])
        args.back() = args.back().withoutSpecialization();
      break;
    }
    case Slot::I64:
      args.push_back(rt::Arg::i64(int64_t(bits)));
      if (launcher->unspecialized[i])
        args.back() = args.back().withoutSpecialization();
      break;
    case Slot::U64: // any 64 bits: the kernel's parameter is a u64
      args.push_back(rt::Arg::u64(bits));
      if (launcher->unspecialized[i])
        args.back() = args.back().withoutSpecialization();
      break;
    case Slot::F32:
      args.push_back(rt::Arg::f32(float(f)));
      break;
    case Slot::F64:
      args.push_back(rt::Arg::f64(f));
      break;
    case Slot::Bool:
      args.push_back(rt::Arg::i32(bits ? 1 : 0).withoutSpecialization());
      break;
    }
  }
  return KILN_OK;
}

kiln_status kiln_launcher_launch(kiln_launcher *launcher, const void *packed,
                                 size_t bytes) {
  Unpacked u;
  if (kiln_status st = unpack(launcher, packed, bytes, u))
    return st;
  try {
    std::lock_guard<std::mutex> lock(launcher->mutex);
    launcher->options.launch.stream = u.stream;
    return launchAndRecord(launcher->origin, launcher->kernel,
                           rt::Grid(u.grid[0], u.grid[1], u.grid[2]), u.args,
                           launcher->options.launch,
                           launcher->options.launch.numStages, launcher->meta,
                           &launcher->memo);
  } catch (const std::exception &e) {
    return fail(KILN_ERROR_LAUNCH, std::string("launch: ") + e.what());
  }
}

kiln_status kiln_launcher_prepare(kiln_launcher *launcher, const void *packed,
                                  size_t bytes) {
  Unpacked u;
  if (kiln_status st = unpack(launcher, packed, bytes, u))
    return st;
  if (launcher->kernel.layers())
    return fail(KILN_ERROR_INVALID_ARGUMENT,
                "kernel `" + launcher->kernel.name() +
                    "`: kiln_launcher_prepare needs an undecorated kernel "
                    "(its autotune / heuristics choose at launch)");
  try {
    rt::LaunchOptions options;
    {
      std::lock_guard<std::mutex> lock(launcher->mutex);
      options = launcher->options.launch;
    }
    options.stream = u.stream;
    auto compiled = launcher->kernel.prepare(u.args, options);
    if (!compiled)
      return fail(compiled.takeError(), KILN_ERROR_LAUNCH);
    return KILN_OK;
  } catch (const std::exception &e) {
    return fail(KILN_ERROR_LAUNCH, std::string("prepare: ") + e.what());
  }
}

void kiln_launcher_destroy(kiln_launcher *launcher) { delete launcher; }

} // extern "C"

//===- Launch.h - Typed launch arguments, specialization and checks -------===//
//
// Launch arguments carry their types: device pointers know their element
// dtype, integers and floats their width. From them the runtime derives the
// kernel's specialization the way Triton's JIT does:
//   * pointer  -> `*<dtype>`, plus `:16` when the address is 16-byte aligned;
//   * integer  -> `i32` when it fits in 32 bits, else `i64`, plus `:16` when
//                 the value is divisible by 16; an integer equal to 1 becomes
//                 the constexpr 1 (signature entry `1`): the compiled kernel
//                 has no such parameter and the 1 folds (a unit stride makes
//                 the axis contiguous);
//   * float    -> `fp32` (or `fp64` when passed as such);
//   * constexprs by name, num_warps, and the device's arch.
// Arguments marked withoutSpecialization() (bools, Triton's
// do_not_specialize) get neither `:16` nor the constant 1.
// Before launching, arguments are checked against the compiled kernel's
// parameters (KernelInfo); every failure names the parameter.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_RUNTIME_LAUNCH_H
#define KILN_RUNTIME_LAUNCH_H

#include "kiln/Frontend/Frontend.h"
#include "kiln/Frontend/Spec.h"
#include "kiln/Runtime/Device.h"
#include "kiln/Target/Pipeline.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include <cstdint>
#include <map>
#include <string>
#include <type_traits>
#include <vector>

namespace kiln::rt {

/// One launch argument.
class Arg {
public:
  enum class Kind { Pointer, Int, Float, None, TensorDesc, Tuple };

  /// A device pointer to elements of `elem`. `bytes`, when known, is the size
  /// of the buffer behind it: the autotuner needs it to zero
  /// (reset_to_zero) or save and restore (restore_value) the buffer.
  static Arg ptr(CUdeviceptr p, DType elem, uint64_t bytes = 0) {
    Arg a(Kind::Pointer, elem, p, 0, 0);
    a.bytes_ = bytes;
    return a;
  }
  /// Python's `None` for a parameter: the kernel is specialized with that
  /// parameter as a constexpr None (signature entry `None`), so the compiled
  /// kernel has no such parameter and nothing is passed for it.
  static Arg none() { return Arg(Kind::None, DType::I32, 0, 0, 0); }
  /// Another compile-time value passed for a parameter, as its signature
  /// spelling (a @triton.jit function: `__kiln_def__('PATH', 'NAME', LINE)`;
  /// a tl function: `triton.language.maximum`). Like None it specializes
  /// the kernel and takes no argument slot. Not copied: `text` must outlive
  /// the launch or compile the Arg is used for.
  static Arg constexprText(const char *text) {
    Arg a = none();
    a.text_ = text;
    return a;
  }
  /// A constexprText argument's spelling; empty for None and other kinds.
  llvm::StringRef constexprText() const {
    return kind_ == Kind::None && text_ ? llvm::StringRef(text_)
                                        : llvm::StringRef();
  }
  /// An integer typed as Triton types a Python int (i32 if it fits, else i64).
  static Arg integer(int64_t v) {
    bool fits = v >= INT32_MIN && v <= INT32_MAX;
    return Arg(Kind::Int, fits ? DType::I32 : DType::I64, 0, v, 0);
  }
  static Arg i32(int32_t v) { return Arg(Kind::Int, DType::I32, 0, v, 0); }
  static Arg i64(int64_t v) { return Arg(Kind::Int, DType::I64, 0, v, 0); }
  /// An integer from 2^63 to 2^64 - 1, which Triton passes as a u64 (its
  /// bits are intValue()'s).
  static Arg u64(uint64_t v) {
    return Arg(Kind::Int, DType::U64, 0, int64_t(v), 0);
  }
  static Arg f32(float v) { return Arg(Kind::Float, DType::F32, 0, 0, v); }
  static Arg f64(double v) { return Arg(Kind::Float, DType::F64, 0, 0, v); }

  /// A host tensor descriptor (Triton's TensorDescriptor) for a parameter
  /// the kernel reads with `desc.load(...)`: this header (base pointer,
  /// element type, block shape and padding) followed by `rank` shapes and
  /// `rank - 1` strides as unspecialized Int arguments (the last stride is
  /// 1); tensorDescArgs builds the whole group. The block shape (powers of
  /// two up to 2^20, rank 1..5) is packed into the header.
  /// `shapeDiv16` has bit d set when shape[d] is divisible by 16 (the
  /// kernel is specialized on it, as on an integer's `:16`).
  static Arg tensorDescHeader(CUdeviceptr base, DType elem,
                              llvm::ArrayRef<int64_t> block, bool nanPadding,
                              unsigned shapeDiv16 = 0);
  /// The header and its shape and stride arguments; an error when the
  /// ranks differ, the last stride is not 1 or the block is not valid.
  static llvm::Expected<std::vector<Arg>>
  tensorDescArgs(CUdeviceptr base, DType elem, llvm::ArrayRef<int64_t> shape,
                 llvm::ArrayRef<int64_t> strides, llvm::ArrayRef<int64_t> block,
                 bool nanPadding);
  /// TensorDesc headers: the packed block shape and padding, as
  /// tensorDescHeader got them (also the C API's kiln_arg byte_size).
  uint64_t descriptorBits() const { return uint64_t(int_); }
  static Arg tensorDescFromBits(CUdeviceptr base, DType elem, uint64_t bits) {
    return Arg(Kind::TensorDesc, elem, base, int64_t(bits), 0);
  }
  unsigned descriptorRank() const { return unsigned(int_ & 7); }
  bool descriptorNanPadding() const { return (int_ >> 3) & 1; }
  std::vector<int64_t> descriptorBlock() const;
  bool descriptorShapeDiv16(unsigned d) const {
    return (uint64_t(int_) >> (29 + d)) & 1;
  }
  /// Arguments that follow this one as its parts (TensorDesc: 2 * rank - 1).
  unsigned descriptorParts() const {
    return kind_ == Kind::TensorDesc ? 2 * descriptorRank() - 1 : 0;
  }

  /// A Python tuple passed for a parameter: this header, then its `size`
  /// elements, each an argument, a nested tuple (its header and elements)
  /// or None, depth first. Triton specializes a tuple element by element;
  /// the kernel receives the runtime elements as consecutive parameters.
  /// `fields`: a namedtuple's field names, "x,y" (one per element; the
  /// kernel reads `arg.x`), or null for a plain tuple. Not copied: it must
  /// outlive the launch or compile the Arg is used for.
  static Arg tupleHeader(unsigned size, const char *fields = nullptr) {
    Arg a(Kind::Tuple, DType::I32, 0, int64_t(size), 0);
    a.text_ = fields;
    return a;
  }
  unsigned tupleSize() const {
    return kind_ == Kind::Tuple ? unsigned(int_) : 0;
  }
  /// A namedtuple header's field names ("x,y"); empty otherwise.
  llvm::StringRef tupleFields() const {
    return kind_ == Kind::Tuple && text_ ? llvm::StringRef(text_)
                                         : llvm::StringRef();
  }

  /// The same argument, never specialized on its value (no `:16`, not the
  /// constant 1): bools (Triton types them u1) and do_not_specialize.
  Arg withoutSpecialization() const {
    Arg a = *this;
    a.specialize_ = false;
    return a;
  }

  Kind kind() const { return kind_; }
  DType dtype() const { return dtype_; }
  bool specializable() const { return specialize_; }
  /// An integer equal to 1 that the specialization makes the constexpr 1
  /// (Triton's rule): such an argument is not passed to the kernel.
  bool isSpecializedOne() const {
    return kind_ == Kind::Int && int_ == 1 && specialize_;
  }
  /// Pointers, and the base of a TensorDesc header.
  CUdeviceptr pointer() const { return ptr_; }
  int64_t intValue() const { return int_; }
  double floatValue() const { return float_; }
  /// Size of the buffer behind a pointer argument; 0 when not given.
  uint64_t bytes() const { return bytes_; }
  /// None, or a constexprText: specialized away, no argument slot.
  bool isNone() const { return kind_ == Kind::None; }
  /// "pointer to fp16 (0x7f..)", "integer 1024 (i32)", "float 1e-05 (fp32)",
  /// "None".
  std::string describe() const;

private:
  Arg(Kind k, DType t, CUdeviceptr p, int64_t i, double f)
      : kind_(k), dtype_(t), ptr_(p), int_(i), float_(f) {}
  Kind kind_;
  DType dtype_;
  CUdeviceptr ptr_;
  int64_t int_;
  double float_;
  uint64_t bytes_ = 0;
  bool specialize_ = true;
  /// Tuple: a namedtuple's field names; None: a constexprText's spelling.
  const char *text_ = nullptr;
};

/// How many entries of `args` the parameter whose argument starts at `i`
/// takes: 1, a tensor descriptor's header and parts, or a tuple's header and
/// (recursively) its elements; never past the end of `args`.
size_t argSpan(llvm::ArrayRef<Arg> args, size_t i);

/// Grid size in programs along x, y, z. A zero dimension launches nothing,
/// as in Triton.
struct Grid {
  uint32_t x = 1, y = 1, z = 1;
  Grid() = default;
  Grid(uint32_t x, uint32_t y = 1, uint32_t z = 1) : x(x), y(y), z(z) {}
};

/// A constexpr value, kept as the literal text the compiler parses.
class ConstexprValue {
public:
  template <typename T>
    requires(std::is_integral_v<T> && !std::is_same_v<T, bool>)
  ConstexprValue(T v) : text_(std::to_string(v)) {}
  ConstexprValue(bool v) : text_(v ? "True" : "False") {}
  ConstexprValue(double v);
  ConstexprValue(const char *literal) : text_(literal) {}
  ConstexprValue(std::string literal) : text_(std::move(literal)) {}
  const std::string &text() const { return text_; }

private:
  std::string text_;
};

struct LaunchOptions {
  unsigned numWarps = 4;
  /// Software-pipelining depth of loops feeding tl.dot (Triton's num_stages).
  unsigned numStages = 3;
  std::map<std::string, ConstexprValue> constexprs;
  CUstream stream = nullptr; ///< The primary context's default stream if null.
  int device = 0;
  /// Triton's launch_cooperative_grid: every program of the grid runs at
  /// once (cuLaunchCooperativeKernel), so programs may wait for each other;
  /// a grid that cannot be resident at once is refused with an error.
  bool cooperative = false;
  /// Triton's launch_pdl: a programmatic dependent launch
  /// (cuLaunchKernelEx with programmatic stream serialization): the kernel
  /// may start while the previous kernel on the stream still runs, and its
  /// `tl.extra.cuda.gdc_wait()` waits for that one's results. Not part of
  /// the compiled code or its cache key.
  bool programmaticLaunch = false;
  /// Triton's rule for pointers: a null one (an empty tensor's data_ptr())
  /// is passed as it is. Off, a null pointer is refused as the likely bug it
  /// is in C++ code; the Python layers turn it on. Not part of the compiled
  /// code or its cache key.
  bool nullPointers = false;
  /// Triton's enable_fp_fusion (part of the compiled code and its key).
  bool fpFusion = true;
};

/// Derives the specialization for `args` (one per non-constexpr parameter,
/// in order; Arg::none() makes that parameter a constexpr None) and `options`; `params` are the kernel's as the frontend lists
/// them (kiln::listKernelParameters). Errors name the parameter.
llvm::Expected<KernelSpec> deriveSpec(llvm::StringRef kernelName,
                                      llvm::ArrayRef<KernelParameter> params,
                                      llvm::ArrayRef<Arg> args,
                                      const LaunchOptions &options,
                                      llvm::StringRef arch);

/// Checks a launch against a compiled kernel: argument count, kinds, dtypes,
/// null pointers (unless `nullPointers`), the alignment/divisibility the code was specialized for,
/// integer range, grid, block size and shared memory against `limits`.
/// Arg::none() arguments are skipped: the kernel has no such parameter; so are
/// integers equal to 1 when `onesAreConstant` (the kernel was specialized from
/// these arguments by deriveSpec, which makes them the constexpr 1; false for
/// code compiled elsewhere with an explicit signature).
llvm::Error validateLaunch(const KernelInfo &info, llvm::ArrayRef<Arg> args,
                           const Grid &grid, const DeviceLimits &limits,
                           bool onesAreConstant = false,
                           bool nullPointers = false);

/// Packs `args` as the kernel's parameter values (pointers as 64-bit device
/// addresses, scalars converted to the parameter's type; None arguments
/// dropped, and integers equal to 1 when `onesAreConstant`, as in
/// validateLaunch). Call after validateLaunch.
/// Lives on the launching stack frame: kernels of up to 16 parameters pack
/// without a heap allocation. Not movable (the pointers point into it).
class PackedArgs {
public:
  PackedArgs(const KernelInfo &info, llvm::ArrayRef<Arg> args,
             bool onesAreConstant = false);
  PackedArgs(const PackedArgs &) = delete;
  PackedArgs &operator=(const PackedArgs &) = delete;
  void **data() { return pointers_.data(); }

  /// Encodes the kernel's CUtensorMap parameters (KernelInfo::tensorMaps)
  /// from the packed descriptor values and appends them after the others.
  /// Call once, after construction.
  llvm::Error addTensorMaps(const KernelInfo &info, const DriverAPI &drv);
  /// Appends the address of the kernel's global scratch (after the tensor
  /// maps; KernelInfo::globalScratchBytes).
  void addGlobalScratch(uint64_t address) {
    scratch_ = address;
    pointers_.push_back(&scratch_);
  }

private:
  uint64_t scratch_ = 0;
  struct alignas(64) TensorMapBytes {
    unsigned char bytes[128];
  };
  llvm::SmallVector<uint64_t, 16> storage_;
  llvm::SmallVector<void *, 16> pointers_;
  std::vector<TensorMapBytes> maps_; ///< std::allocator honours alignas(64)
};

} // namespace kiln::rt

#endif // KILN_RUNTIME_LAUNCH_H

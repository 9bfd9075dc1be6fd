//===- Spec.h - Kernel specialization (signature, constexprs, options) ----===//
//
// A kernel is compiled for one explicit specialization, as Triton's AOT
// compiler does: the kernel name, one signature entry per parameter, the
// constexpr values and num_warps. The runtime derives the same structure from
// launch arguments, so this is the contract between the runtime, the CLI and
// the compiler. Shared by Frontend, Target and Runtime.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_FRONTEND_SPEC_H
#define KILN_FRONTEND_SPEC_H

#include "llvm/Support/Error.h"
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace kiln {

/// Scalar element types of the Triton language that Kiln supports.
/// New members go last: tables are indexed by the enumerator's value.
enum class DType {
  I1, I8, I16, I32, I64, U32, F16, BF16, F32, F64, U8, U16, U64,
  F8E4M3, ///< Triton's float8e4nv (OCP e4m3, finite only): MLIR f8E4M3FN
  F8E5M2, ///< Triton's float8e5 (OCP e5m2): MLIR f8E5M2
};

/// Triton AOT spelling ("i32", "fp16", "bf16", ...), and the reverse.
const char *dtypeName(DType t);
std::optional<DType> parseDTypeName(std::string_view s);
/// Size in bytes of one element (I1 counts as 1 byte, as Triton stores it).
unsigned dtypeBytes(DType t);
bool isFloat(DType t);
/// Triton's `tl.dtype.is_*()` predicates of a scalar dtype (`is_fp16`,
/// `is_int_signed`, `is_uint64`, ...); nullopt for a name Triton lacks.
std::optional<bool> dtypePredicate(DType t, std::string_view name);
/// Triton's `tl.core.get_int_dtype(bitwidth, signed)`: the integer dtype of
/// 1, 8, 16, 32 or 64 bits (int1 either way); nullopt for other widths.
std::optional<DType> intDType(int64_t bits, bool isSigned);

/// One positional signature entry, e.g. `*fp16:16`, `i32`, `i32:16`, `fp32`,
/// a literal for a constexpr parameter (`1024`, `True`), or a tuple of
/// entries (`(*fp16:16,*fp16:16,1)`) for a parameter passed a Python tuple.
struct ParamSpec {
  enum class Kind { Pointer, Scalar, Constexpr, TensorDesc, Tuple };
  Kind kind = Kind::Scalar;
  DType dtype = DType::I32; ///< Pointee type for pointers, value type otherwise.
  /// `:16` on a pointer: the address is 16-byte aligned; on an integer: the
  /// value is divisible by 16. 1 when nothing is known.
  unsigned divisibility = 1;
  /// Pointer spelled `*k<T>` (Triton's signature for a `tl.const`
  /// parameter): a pointer to constant data, never stored through.
  bool constPointer = false;
  /// Literal text of a constexpr given inline in the signature.
  std::string constexprValue;
  /// TensorDesc (`tensordesc<fp16[64,64]>`, Triton's spelling; `,nan` before
  /// the `>` for NaN padding): a host tensor descriptor of `dtype` elements
  /// with this block shape. The kernel receives its base pointer (16-byte
  /// aligned), shape (i32 each) and strides (i64 each, the last one 1).
  std::vector<int64_t> blockShape;
  bool nanPadding = false;
  /// TensorDesc: per dimension, 16 when the shape is divisible by 16
  /// (Kiln's extension `,div=1x16` before the `>`; a mask on that dimension
  /// then allows vector accesses), else 1. Empty means all 1.
  std::vector<unsigned> shapeDivisibility;
  /// Tuple: one entry per element, as Triton specializes a tuple argument:
  /// element by element (pointers, scalars, None and the integer 1, nested
  /// tuples). The kernel receives its runtime elements as consecutive
  /// parameters, depth first.
  std::vector<ParamSpec> elements;
  /// Tuple of a namedtuple argument (`(x=*fp16:16,n=i32)`): the field name
  /// of each element, which the kernel reads as `arg.x`; empty otherwise.
  std::vector<std::string> fieldNames;

  bool operator==(const ParamSpec &) const = default;
  /// Canonical AOT spelling; parseSignature(toString()) round-trips.
  std::string toString() const;
};

/// Everything that selects one compiled variant of a kernel.
struct KernelSpec {
  std::string kernelName;
  std::vector<ParamSpec> signature;
  /// Constexpr name -> literal text ("1024", "True", "1e-5").
  std::map<std::string, std::string> constexprs;
  unsigned numWarps = 4;
  /// Buffers of the software-pipelined loops that feed tl.dot (Triton's
  /// num_stages; 1 turns pipelining off). Part of the cache key.
  unsigned numStages = 3;
  std::string arch = "sm_90";
  /// Debug build (Triton's `debug=True`): tl.device_assert and runtime
  /// `assert` statements are compiled in instead of out. Part of the cache
  /// key. The kernel's `@triton.jit(debug=True)` turns it on as well.
  bool debug = false;
  /// Triton's enable_fp_fusion: a multiply and an add may fuse into an FMA.
  /// Part of the cache key when off.
  bool fpFusion = true;

  bool operator==(const KernelSpec &) const = default;
  /// Stable one-line text used in cache keys and metadata.
  std::string toString() const;
};

/// Parses a comma-separated AOT signature ("*fp16:16,*fp32,i32,1024").
/// Errors name the 1-based entry and the offending text.
llvm::Expected<std::vector<ParamSpec>> parseSignature(std::string_view text);

/// Parses one `NAME=VALUE` constexpr definition (the CLI's -D).
llvm::Expected<std::pair<std::string, std::string>>
parseConstexprDefinition(std::string_view text);

} // namespace kiln

#endif // KILN_FRONTEND_SPEC_H

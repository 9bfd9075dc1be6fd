//===- Launch.cpp - Specialization from arguments, launch-time checks -----===//
#include "kiln/Runtime/Launch.h"
#include "RuntimeError.h"
#include "kiln/Runtime/HalfFloat.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <string_view>

using namespace kiln;
using namespace kiln::rt;

namespace {
std::string hexPtr(CUdeviceptr p) { return llvm::formatv("{0:x}", p).str(); }

std::string pointerText(DType t) {
  return std::string("a pointer to ") + dtypeName(t);
}

/// "#3 `W`" for error messages (1-based, as Python users count).
std::string argName(size_t i, llvm::StringRef name) {
  return llvm::formatv("argument #{0} `{1}`", i + 1, name).str();
}

bool isPow2(unsigned v) { return v && !(v & (v - 1)); }

std::string joinNames(llvm::ArrayRef<std::string> names) {
  return names.empty() ? "none" : llvm::join(names, ", ");
}

/// A launch with `given` arguments for a kernel taking `names`.
llvm::Error argumentCountError(llvm::StringRef kernelName,
                               llvm::ArrayRef<std::string> names,
                               size_t given) {
  std::string msg =
      llvm::formatv("kernel `{0}` takes {1} argument(s) ({2}) "
                    "but {3} were given",
                    kernelName, names.size(), joinNames(names), given)
          .str();
  if (given < names.size())
    msg += llvm::formatv(": missing `{0}` (argument #{1})", names[given],
                         given + 1)
               .str();
  return makeError(msg);
}
} // namespace

std::string Arg::describe() const {
  switch (kind_) {
  case Kind::Pointer:
    return pointerText(dtype_) + " (" + hexPtr(ptr_) + ")";
  case Kind::Int:
    return llvm::formatv("integer {0} ({1})", int_, dtypeName(dtype_)).str();
  case Kind::Float: {
    char buf[32];
    std::snprintf(buf, sizeof(buf), "%g", float_);
    return llvm::formatv("float {0} ({1})", buf, dtypeName(dtype_)).str();
  }
  case Kind::None:
    return text_ ? "constexpr " + std::string(text_) : "None";
  case Kind::TensorDesc: {
    std::string block;
    for (int64_t d : descriptorBlock())
      block += (block.empty() ? "" : ",") + std::to_string(d);
    return "tensor descriptor of " + std::string(dtypeName(dtype_)) + "[" +
           block + "] (" + hexPtr(ptr_) + ")";
  }
  case Kind::Tuple:
    if (text_)
      return "namedtuple (" + std::string(text_) + ")";
    return "tuple of " + std::to_string(int_) + " element(s)";
  }
  return "?";
}

size_t kiln::rt::argSpan(llvm::ArrayRef<Arg> args, size_t i) {
  // Iterative: a tuple's elements are whole arguments in turn.
  size_t end = i, pending = 1;
  while (pending && end < args.size()) {
    const Arg &a = args[end];
    pending = pending - 1 + a.tupleSize();
    end += 1 + a.descriptorParts();
  }
  return std::min(end, args.size()) - std::min(i, args.size());
}

Arg Arg::tensorDescHeader(CUdeviceptr base, DType elem,
                          llvm::ArrayRef<int64_t> block, bool nanPadding,
                          unsigned shapeDiv16) {
  uint64_t bits = uint64_t(block.size()) | uint64_t(nanPadding) << 3 |
                  uint64_t(shapeDiv16 & 31) << 29;
  for (size_t d = 0; d < block.size(); ++d)
    bits |= uint64_t(llvm::Log2_64(uint64_t(block[d]))) << (4 + 5 * d);
  return tensorDescFromBits(base, elem, bits);
}

std::vector<int64_t> Arg::descriptorBlock() const {
  std::vector<int64_t> block;
  for (unsigned d = 0; d < descriptorRank(); ++d)
    block.push_back(int64_t(1) << ((uint64_t(int_) >> (4 + 5 * d)) & 31));
  return block;
}

llvm::Expected<std::vector<Arg>>
Arg::tensorDescArgs(CUdeviceptr base, DType elem, llvm::ArrayRef<int64_t> shape,
                    llvm::ArrayRef<int64_t> strides,
                    llvm::ArrayRef<int64_t> block, bool nanPadding) {
  size_t rank = block.size();
  if (rank < 1 || rank > 5 || shape.size() != rank || strides.size() != rank)
    return makeError(llvm::formatv(
        "tensor descriptor: shape, strides and block_shape must have the "
        "same rank in 1..5 (got {0}, {1}, {2})",
        shape.size(), strides.size(), rank));
  for (int64_t b : block)
    if (b <= 0 || (b & (b - 1)) || b > (1 << 20))
      return makeError(llvm::formatv(
          "tensor descriptor: block dimension {0} is not a power of two", b));
  if (strides.back() != 1)
    return makeError(
        llvm::formatv("tensor descriptor: the last stride must be 1, got {0}",
                      strides.back()));
  if (nanPadding && !isFloat(elem))
    return makeError("tensor descriptor: NaN padding needs a floating-point "
                     "element type");
  unsigned div16 = 0;
  for (size_t d = 0; d < rank; ++d)
    div16 |= unsigned(shape[d] % 16 == 0) << d;
  std::vector<Arg> out{tensorDescHeader(base, elem, block, nanPadding, div16)};
  for (int64_t s : shape) {
    if (s < 0 || s > INT32_MAX)
      return makeError(llvm::formatv(
          "tensor descriptor: shape entry {0} is not in [0, 2^31) (descriptor "
          "shapes are int32, as in Triton)",
          s));
    out.push_back(Arg::i32(int32_t(s)).withoutSpecialization());
  }
  for (size_t d = 0; d + 1 < rank; ++d)
    out.push_back(Arg::i64(strides[d]).withoutSpecialization());
  return out;
}

ConstexprValue::ConstexprValue(double v) {
  if (std::isinf(v)) {
    text_ = v > 0 ? "float('inf')" : "-float('inf')";
    return;
  }
  if (std::isnan(v)) {
    text_ = "float('nan')";
    return;
  }
  // Shortest text that reads back exactly and still parses as a float.
  char buf[64];
  for (int precision = 1; precision <= 17; ++precision) {
    std::snprintf(buf, sizeof(buf), "%.*g", precision, v);
    if (std::strtod(buf, nullptr) == v)
      break;
  }
  text_ = buf;
  if (text_.find_first_of(".en") == std::string::npos)
    text_ += ".0";
}

namespace {
/// The signature entry of the argument starting at args[argIndex], which it
/// advances past the argument (a descriptor's parts, a tuple's elements);
/// `what` names it in messages ("argument #2 `x`", "..., element 1").
llvm::Expected<ParamSpec> argSpec(llvm::StringRef kernelName,
                                  llvm::ArrayRef<Arg> args, size_t &argIndex,
                                  const std::string &what, unsigned depth,
                                  bool nullPointers) {
  const Arg &a = args[argIndex];
  ParamSpec ps;
  switch (a.kind()) {
  case Arg::Kind::None:
    // The frontend takes `None` for any parameter: it becomes a constexpr
    // None and leaves the compiled kernel's parameter list.
    ps.kind = ParamSpec::Kind::Constexpr;
    ps.constexprValue = a.constexprText().empty() ? "None" : a.constexprText().str();
    break;
  case Arg::Kind::Pointer:
    if (a.pointer() == 0 && !nullPointers)
      return makeError(llvm::formatv("kernel `{0}`: {1} is a null device "
                                     "pointer",
                                     kernelName, what));
    ps.kind = ParamSpec::Kind::Pointer;
    ps.dtype = a.dtype();
    ps.divisibility = a.pointer() % 16 == 0 ? 16 : 1;
    break;
  case Arg::Kind::Int:
    if (a.isSpecializedOne()) {
      // Triton's rule: an integer equal to 1 is the constexpr 1, so a unit
      // stride folds away and the axis analysis sees contiguity.
      ps.kind = ParamSpec::Kind::Constexpr;
      ps.constexprValue = "1";
      break;
    }
    ps.kind = ParamSpec::Kind::Scalar;
    ps.dtype = a.dtype();
    ps.divisibility = a.specializable() && a.intValue() % 16 == 0 ? 16 : 1;
    break;
  case Arg::Kind::Float:
    ps.kind = ParamSpec::Kind::Scalar;
    ps.dtype = a.dtype();
    ps.divisibility = 1;
    break;
  case Arg::Kind::TensorDesc: {
    // Triton's TensorDescriptor asserts these on the host.
    if (a.pointer() == 0 || a.pointer() % 16 != 0)
      return makeError(llvm::formatv(
          "kernel `{0}`: {1}: the descriptor's base {2} is not 16-byte "
          "aligned",
          kernelName, what, hexPtr(a.pointer())));
    unsigned parts = a.descriptorParts();
    if (argIndex + parts >= args.size())
      return makeError(llvm::formatv(
          "kernel `{0}`: {1}: a tensor descriptor of rank {2} needs its {3} "
          "shape and stride arguments after it",
          kernelName, what, a.descriptorRank(), parts));
    for (unsigned k = 1; k <= parts; ++k)
      if (args[argIndex + k].kind() != Arg::Kind::Int)
        return makeError(llvm::formatv(
            "kernel `{0}`: {1}: part {2} of the tensor descriptor (a shape "
            "or stride) is {3}, not an integer",
            kernelName, what, k, args[argIndex + k].describe()));
    unsigned elemBytes = std::max(1u, dtypeBytes(a.dtype()));
    for (unsigned d = 0; d + 1 < a.descriptorRank(); ++d)
      if (int64_t s = args[argIndex + a.descriptorRank() + 1 + d].intValue();
          (s * elemBytes) % 16 != 0)
        return makeError(llvm::formatv(
            "kernel `{0}`: {1}: the descriptor's stride {2} ({3} elements) "
            "is not a multiple of 16 bytes",
            kernelName, what, d, s));
    ps.kind = ParamSpec::Kind::TensorDesc;
    ps.dtype = a.dtype();
    ps.blockShape = a.descriptorBlock();
    ps.nanPadding = a.descriptorNanPadding();
    for (unsigned d = 0; d < a.descriptorRank(); ++d)
      ps.shapeDivisibility.push_back(a.descriptorShapeDiv16(d) ? 16 : 1);
    if (llvm::all_of(ps.shapeDivisibility, [](unsigned v) { return v == 1; }))
      ps.shapeDivisibility.clear();
    argIndex += 1 + parts;
    return ps;
  }
  case Arg::Kind::Tuple: {
    if (depth >= 8)
      return makeError(llvm::formatv(
          "kernel `{0}`: {1}: tuples nested deeper than 8", kernelName, what));
    ps.kind = ParamSpec::Kind::Tuple;
    unsigned size = a.tupleSize();
    if (!a.tupleFields().empty()) {
      llvm::SmallVector<llvm::StringRef> names;
      a.tupleFields().split(names, ',');
      if (names.size() != size)
        return makeError(llvm::formatv(
            "kernel `{0}`: {1}: the namedtuple names {2} field(s) (`{3}`) for "
            "{4} element(s)",
            kernelName, what, names.size(), a.tupleFields(), size));
      for (llvm::StringRef n : names) {
        bool ok = !n.empty() && !llvm::isDigit(n[0]) &&
                  llvm::all_of(n, [](char c) {
                    return llvm::isAlnum(c) || c == '_';
                  });
        if (!ok || llvm::is_contained(ps.fieldNames, n.str()))
          return makeError(llvm::formatv(
              "kernel `{0}`: {1}: `{2}` is not a namedtuple field name (or "
              "repeats one) in `{3}`",
              kernelName, what, n, a.tupleFields()));
        ps.fieldNames.push_back(n.str());
      }
    }
    ++argIndex;
    for (unsigned k = 0; k < size; ++k) {
      std::string element = what + ", element " + std::to_string(k);
      if (argIndex >= args.size())
        return makeError(llvm::formatv(
            "kernel `{0}`: {1}: the tuple has {2} element(s) but the "
            "arguments end after {3}",
            kernelName, what, size, k));
      if (args[argIndex].kind() == Arg::Kind::TensorDesc)
        return makeError(llvm::formatv(
            "kernel `{0}`: {1}: a tensor descriptor inside a tuple is not "
            "supported",
            kernelName, element));
      auto e = argSpec(kernelName, args, argIndex, element, depth + 1,
                       nullPointers);
      if (!e)
        return e.takeError();
      ps.elements.push_back(std::move(*e));
    }
    return ps;
  }
  }
  ++argIndex;
  return ps;
}
} // namespace

llvm::Expected<KernelSpec>
kiln::rt::deriveSpec(llvm::StringRef kernelName,
                     llvm::ArrayRef<KernelParameter> params,
                     llvm::ArrayRef<Arg> args, const LaunchOptions &options,
                     llvm::StringRef arch) {
  std::vector<std::string> runtimeNames, constexprNames;
  for (const KernelParameter &p : params)
    (p.isConstexpr ? constexprNames : runtimeNames).push_back(p.name);

  // A tensor descriptor's shapes and strides follow its header, a tuple's
  // elements its header.
  size_t given = 0;
  for (size_t i = 0; i < args.size(); i += argSpan(args, i))
    ++given;
  if (given != runtimeNames.size())
    return argumentCountError(kernelName, runtimeNames, given);
  if (!isPow2(options.numWarps) || options.numWarps > 32)
    return makeError(llvm::formatv(
        "kernel `{0}`: num_warps = {1} is not a power of two in 1..32",
        kernelName, options.numWarps));

  for (const auto &[name, value] : options.constexprs) {
    (void)value;
    auto it = llvm::find_if(
        params, [&](const KernelParameter &p) { return p.name == name; });
    if (it == params.end())
      return makeError(llvm::formatv(
          "kernel `{0}` has no parameter `{1}` (constexpr parameters: {2})",
          kernelName, name, joinNames(constexprNames)));
    if (!it->isConstexpr)
      return makeError(llvm::formatv(
          "`{0}` is not a constexpr parameter of kernel `{1}`: pass it as a "
          "launch argument (constexpr parameters: {2})",
          name, kernelName, joinNames(constexprNames)));
  }

  KernelSpec spec;
  spec.kernelName = kernelName.str();
  spec.numWarps = options.numWarps;
  spec.numStages = options.numStages;
  spec.fpFusion = options.fpFusion;
  spec.arch = arch.str();
  // KILN_DEBUG=1 (like TRITON_DEBUG=1) compiles device assertions in.
  if (const char *d = std::getenv("KILN_DEBUG"))
    spec.debug = *d && std::string_view(d) != "0";
  size_t argIndex = 0;
  // The parameter's position among the runtime ones, for messages: a
  // descriptor or a tuple takes several arguments but is one parameter.
  size_t runtimeIndex = 0;
  for (const KernelParameter &p : params) {
    ParamSpec ps;
    if (p.isConstexpr) {
      auto it = options.constexprs.find(p.name);
      std::string value;
      if (it != options.constexprs.end())
        value = it->second.text();
      else if (p.defaultValue)
        value = *p.defaultValue;
      else
        return makeError(llvm::formatv(
            "kernel `{0}`: no value for constexpr parameter `{1}` (set "
            "LaunchOptions::constexprs[\"{1}\"])",
            kernelName, p.name));
      ps.kind = ParamSpec::Kind::Constexpr;
      ps.constexprValue = value;
      spec.constexprs[p.name] = value;
      spec.signature.push_back(ps);
      continue;
    }
    auto entry =
        argSpec(kernelName, args, argIndex, argName(runtimeIndex, p.name), 0,
                options.nullPointers);
    if (!entry)
      return entry.takeError();
    spec.signature.push_back(std::move(*entry));
    ++runtimeIndex;
  }
  return spec;
}

namespace {
bool isIntegerType(DType t) { return !isFloat(t); }

/// Whether integer `v` is representable in integer type `t`.
bool fitsInteger(int64_t v, DType t) {
  switch (t) {
  case DType::I1:
    return v == 0 || v == 1;
  case DType::I8:
    return v >= INT8_MIN && v <= INT8_MAX;
  case DType::I16:
    return v >= INT16_MIN && v <= INT16_MAX;
  case DType::I32:
    return v >= INT32_MIN && v <= INT32_MAX;
  case DType::U32:
    return v >= 0 && v <= int64_t(UINT32_MAX);
  case DType::U8:
    return v >= 0 && v <= UINT8_MAX;
  case DType::U16:
    return v >= 0 && v <= UINT16_MAX;
  default: // I64, U64 (its upper half arrives as the int64's bits)
    return true;
  }
}
} // namespace

namespace {
/// Arguments the specialization turned into constexprs (None, and the
/// integer 1 for kernels specialized from their arguments): the compiled
/// kernel has no parameter for them.
bool specializedAway(const Arg &a, bool onesAreConstant) {
  // A tuple's header: its elements follow as arguments of their own.
  return a.isNone() || a.kind() == Arg::Kind::Tuple ||
         (onesAreConstant && a.isSpecializedOne());
}
} // namespace

llvm::Error kiln::rt::validateLaunch(const KernelInfo &info,
                                     llvm::ArrayRef<Arg> args, const Grid &grid,
                                     const DeviceLimits &limits,
                                     bool onesAreConstant,
                                     bool nullPointers) {
  const std::string &k = info.name;
  size_t passed = 0;
  for (const Arg &a : args)
    passed += !specializedAway(a, onesAreConstant);
  if (passed != info.params.size()) {
    std::vector<std::string> names;
    for (const auto &p : info.params)
      names.push_back(p.name);
    return argumentCountError(k, names, passed);
  }
  for (size_t i = 0, argIndex = 0; i < info.params.size(); ++i, ++argIndex) {
    while (specializedAway(args[argIndex], onesAreConstant))
      ++argIndex; // Specialized away: the kernel has no such parameter.
    const KernelInfo::Param &p = info.params[i];
    const ParamSpec &s = p.spec;
    const Arg &a = args[argIndex];
    // Built only on failure: this loop runs on every launch.
    auto where = [&] {
      return "kernel `" + k + "`: " + argName(argIndex, p.name);
    };
    if (s.kind == ParamSpec::Kind::Pointer) {
      // A descriptor's header is its base pointer's argument.
      if (a.kind() != Arg::Kind::Pointer && a.kind() != Arg::Kind::TensorDesc)
        return makeError(where() + ": expected " + pointerText(s.dtype) +
                         ", got " + a.describe());
      if (a.dtype() != s.dtype)
        return makeError(where() + ": expected " + pointerText(s.dtype) +
                         ", got " + pointerText(a.dtype()));
      if (a.pointer() == 0) {
        if (nullPointers)
          continue; // Aligned to anything; the kernel must not touch it.
        return makeError(where() + ": null device pointer");
      }
      // Every access through it would fault (misaligned address) and leave
      // the context unusable.
      if (unsigned elem = dtypeBytes(s.dtype); a.pointer() % elem != 0)
        return makeError(llvm::formatv(
            "{0}: {1} is not aligned to its {2}-byte elements ({3})", where(),
            hexPtr(a.pointer()), elem, dtypeName(s.dtype)));
      if (s.divisibility > 1 && a.pointer() % s.divisibility != 0)
        return makeError(llvm::formatv(
            "{0}: the kernel was compiled for a {1}-byte aligned pointer but "
            "{2} is not",
            where(), s.divisibility, hexPtr(a.pointer())));
      continue;
    }
    if (s.kind != ParamSpec::Kind::Scalar)
      return makeError(where() + ": constexpr parameters take no launch "
                                 "argument (internal error in KernelInfo)");
    if (isIntegerType(s.dtype)) {
      if (a.kind() != Arg::Kind::Int)
        return makeError(where() + ": expected an integer (" +
                         dtypeName(s.dtype) + "), got " + a.describe());
      if (!fitsInteger(a.intValue(), s.dtype))
        return makeError(llvm::formatv("{0}: value {1} does not fit in {2}",
                                       where(), a.intValue(),
                                       dtypeName(s.dtype)));
      if (s.divisibility > 1 && a.intValue() % s.divisibility != 0)
        return makeError(llvm::formatv(
            "{0}: the kernel was compiled for a value divisible by {1} but "
            "got {2}",
            where(), s.divisibility, a.intValue()));
      continue;
    }
    if (a.kind() != Arg::Kind::Float)
      return makeError(where() + ": expected a float (" + dtypeName(s.dtype) +
                       "), got " + a.describe());
  }

  const uint32_t dims[3] = {grid.x, grid.y, grid.z};
  for (int d = 0; d < 3; ++d)
    if (dims[d] > limits.maxGrid[d])
      return makeError(llvm::formatv(
          "kernel `{0}`: grid dimension {1} is {2}, above the device limit {3}",
          k, "xyz"[d], dims[d], limits.maxGrid[d]));
  uint64_t threads = uint64_t(info.numWarps) * 32;
  if (info.numWarps == 0 || threads > limits.maxThreadsPerBlock)
    return makeError(llvm::formatv(
        "kernel `{0}`: num_warps = {1} gives {2} threads per block; the device "
        "allows 32..{3}",
        k, info.numWarps, threads, limits.maxThreadsPerBlock));
  if (info.sharedBytes > limits.maxSharedPerBlockOptin)
    return makeError(llvm::formatv(
        "kernel `{0}` needs {1} bytes of shared memory; the device allows at "
        "most {2} per block",
        k, info.sharedBytes, limits.maxSharedPerBlockOptin));
  return llvm::Error::success();
}

PackedArgs::PackedArgs(const KernelInfo &info, llvm::ArrayRef<Arg> args,
                       bool onesAreConstant)
    : storage_(info.params.size()), pointers_(info.params.size()) {
  for (size_t i = 0, argIndex = 0; i < info.params.size(); ++i, ++argIndex) {
    while (specializedAway(args[argIndex], onesAreConstant))
      ++argIndex;
    const Arg &a = args[argIndex];
    const ParamSpec &s = info.params[i].spec;
    uint64_t &slot = storage_[i];
    auto put = [&](auto value) { std::memcpy(&slot, &value, sizeof(value)); };
    if (s.kind == ParamSpec::Kind::Pointer) {
      put(uint64_t(a.pointer()));
    } else if (a.kind() == Arg::Kind::Int) {
      switch (s.dtype) {
      case DType::I1:
      case DType::I8:
      case DType::U8:
        put(int8_t(a.intValue()));
        break;
      case DType::I16:
      case DType::U16:
        put(int16_t(a.intValue()));
        break;
      case DType::I32:
        put(int32_t(a.intValue()));
        break;
      case DType::U32:
        put(uint32_t(a.intValue()));
        break;
      default:
        put(int64_t(a.intValue()));
        break;
      }
    } else {
      double v = a.floatValue();
      switch (s.dtype) {
      case DType::F16:
        put(floatToHalf(float(v)));
        break;
      case DType::BF16:
        put(floatToBF16(float(v)));
        break;
      case DType::F64:
        put(v);
        break;
      default:
        put(float(v));
        break;
      }
    }
    pointers_[i] = &slot;
  }
}

llvm::Error PackedArgs::addTensorMaps(const KernelInfo &info, const DriverAPI &drv) {
  if (info.tensorMaps.empty())
    return llvm::Error::success();
  if (!drv.cuTensorMapEncodeTiled)
    return makeError(llvm::formatv(
        "kernel `{0}` copies descriptor blocks with TMA, but the CUDA driver "
        "({1}) lacks cuTensorMapEncodeTiled",
        info.name, drv.libraryPath));
  maps_.resize(info.tensorMaps.size());
  for (auto [map, bytes] : llvm::zip(info.tensorMaps, maps_)) {
    std::memset(bytes.bytes, 0, sizeof(bytes.bytes));
    // The descriptor's base, shapes (i32) and stride (i64), as packed.
    auto value = [&](unsigned k, auto type) {
      decltype(type) v;
      std::memcpy(&v, &storage_[map.param + k], sizeof(v));
      return v;
    };
    uint64_t base = value(0, uint64_t());
    if (base == 0) // a null pointer the kernel must not touch (nullPointers)
      continue;
    const ParamSpec &spec = info.params[map.param].spec;
    unsigned elemBytes = dtypeBytes(spec.dtype);
    int dataType = spec.dtype == DType::F16    ? cu::TENSOR_MAP_FLOAT16
                   : spec.dtype == DType::BF16 ? cu::TENSOR_MAP_BFLOAT16
                   : spec.dtype == DType::F32  ? cu::TENSOR_MAP_FLOAT32
                   : elemBytes == 1            ? cu::TENSOR_MAP_UINT8
                                               : -1;
    unsigned rank = unsigned(map.box.size());
    if (dataType < 0 || rank < 2 || rank > 5)
      return makeError(llvm::formatv("kernel `{0}`: no TMA copy of {1} descriptor blocks",
                                     info.name, dtypeName(spec.dtype)));
    // The descriptor packs its shapes (i32, outermost first) after the base,
    // then its strides but the last (i64, elements); the driver takes them
    // innermost first, strides in bytes. A tensor with an empty dimension is
    // a tensor map of one element that nothing reads in bounds (every
    // element of a block outside it reads as the padding).
    unsigned long long dims[5], strides[4];
    unsigned box[5], ones[5] = {1, 1, 1, 1, 1};
    bool empty = false;
    for (unsigned d = 0; d < rank; ++d) {
      unsigned inner = rank - 1 - d;
      dims[inner] = (unsigned long long)std::max(value(1 + d, int32_t()), 0);
      empty |= dims[inner] == 0;
      box[inner] = unsigned(map.box[d]);
      if (d + 1 < rank)
        strides[inner - 1] = (unsigned long long)value(1 + rank + d, int64_t()) * elemBytes;
    }
    if (empty)
      std::fill(dims, dims + rank, 1ull);
    int swizzle = map.swizzle == 128  ? cu::TENSOR_MAP_SWIZZLE_128B
                  : map.swizzle == 64 ? cu::TENSOR_MAP_SWIZZLE_64B
                  : map.swizzle == 32 ? cu::TENSOR_MAP_SWIZZLE_32B
                                      : cu::TENSOR_MAP_SWIZZLE_NONE;
    CUresult r = drv.cuTensorMapEncodeTiled(
        bytes.bytes, dataType, rank, reinterpret_cast<void *>(uintptr_t(base)), dims, strides,
        box, ones, /*interleave=*/0, swizzle, cu::TENSOR_MAP_L2_PROMOTION_128B,
        map.nanFill ? cu::TENSOR_MAP_OOB_FILL_NAN : 0);
    if (r != cu::SUCCESS) {
      std::string shape, strideText, boxText;
      for (unsigned d = 0; d < rank; ++d) {
        shape += (d ? " x " : "") + std::to_string(value(1 + d, int32_t()));
        boxText += (d ? " x " : "") + std::to_string(map.box[d]);
        if (d + 1 < rank)
          strideText += (d ? ", " : "") + std::to_string(value(1 + rank + d, int64_t()));
      }
      return makeError(llvm::formatv(
          "kernel `{0}`: {1}: cuTensorMapEncodeTiled of the {2} descriptor "
          "(stride{3} {4} elements) at {5}, box {6}, swizzle {7}: {8}",
          info.name, info.params[map.param].name, shape, rank > 2 ? "s" : "", strideText,
          hexPtr(base), boxText, map.swizzle, drv.describe(r)));
    }
  }
  for (TensorMapBytes &bytes : maps_)
    pointers_.push_back(bytes.bytes);
  return llvm::Error::success();
}

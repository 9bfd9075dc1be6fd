//===- Types.cpp - Triton-language types and promotion rules -------------===//
#include "Types.h"

#include "kiln/Dialect/Tile/IR/Tile.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/Support/raw_ostream.h"

using namespace kiln;
using namespace kiln::fe;

int64_t TType::numel() const {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

mlir::Type kiln::fe::toMLIR(mlir::MLIRContext *ctx, DType d) {
  switch (d) {
  case DType::I1:
    return mlir::IntegerType::get(ctx, 1);
  case DType::I8:
  case DType::U8:
    return mlir::IntegerType::get(ctx, 8);
  case DType::I16:
  case DType::U16:
    return mlir::IntegerType::get(ctx, 16);
  case DType::I32:
  case DType::U32:
    return mlir::IntegerType::get(ctx, 32);
  case DType::I64:
  case DType::U64:
    return mlir::IntegerType::get(ctx, 64);
  case DType::F16:
    return mlir::Float16Type::get(ctx);
  case DType::BF16:
    return mlir::BFloat16Type::get(ctx);
  case DType::F32:
    return mlir::Float32Type::get(ctx);
  case DType::F64:
    return mlir::Float64Type::get(ctx);
  case DType::F8E4M3:
    return mlir::Float8E4M3FNType::get(ctx);
  case DType::F8E5M2:
    return mlir::Float8E5M2Type::get(ctx);
  }
  return {};
}

mlir::Type kiln::fe::toMLIR(mlir::MLIRContext *ctx, const TType &t) {
  mlir::Type elem = toMLIR(ctx, t.dtype);
  if (t.isPtr)
    elem = tile::PtrType::get(ctx, elem);
  if (t.shape.empty())
    return elem;
  return mlir::RankedTensorType::get(t.shape, elem);
}

std::string kiln::fe::typeStr(mlir::MLIRContext *ctx, const TType &t) {
  std::string s;
  llvm::raw_string_ostream os(s);
  if (isUnsigned(t.dtype) && !t.isPtr) {
    std::string elem = "ui" + std::to_string(bitWidth(t.dtype));
    if (t.shape.empty())
      return elem;
    os << "tensor<";
    for (int64_t d : t.shape)
      os << d << "x";
    os << elem << ">";
    return s;
  }
  if (t.isPtr && t.isConst)
    os << "const ";
  os << toMLIR(ctx, t);
  return s;
}

const char *kiln::fe::tritonName(DType d) {
  switch (d) {
  case DType::I1:
    return "int1";
  case DType::I8:
    return "int8";
  case DType::I16:
    return "int16";
  case DType::I32:
    return "int32";
  case DType::I64:
    return "int64";
  case DType::U8:
    return "uint8";
  case DType::U16:
    return "uint16";
  case DType::U32:
    return "uint32";
  case DType::U64:
    return "uint64";
  case DType::F16:
    return "fp16";
  case DType::BF16:
    return "bf16";
  case DType::F32:
    return "fp32";
  case DType::F64:
    return "fp64";
  case DType::F8E4M3:
    return "fp8e4nv";
  case DType::F8E5M2:
    return "fp8e5";
  }
  return "?";
}

std::string kiln::fe::shapeStr(llvm::ArrayRef<int64_t> shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i)
    s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}

bool kiln::fe::isIntDType(DType d) { return !isFloat(d); }
bool kiln::fe::isUnsigned(DType d) {
  return d == DType::U8 || d == DType::U16 || d == DType::U32 ||
         d == DType::U64;
}

unsigned kiln::fe::bitWidth(DType d) {
  switch (d) {
  case DType::I1:
    return 1;
  case DType::I8:
  case DType::U8:
  case DType::F8E4M3:
  case DType::F8E5M2:
    return 8;
  case DType::I16:
  case DType::U16:
  case DType::F16:
  case DType::BF16:
    return 16;
  case DType::I32:
  case DType::U32:
  case DType::F32:
    return 32;
  case DType::I64:
  case DType::U64:
  case DType::F64:
    return 64;
  }
  return 0;
}

TypeKind kiln::fe::kindOf(DType d) {
  if (d == DType::I1)
    return TypeKind::Bool;
  if (isIntDType(d))
    return TypeKind::Int;
  return TypeKind::Float;
}

DType kiln::fe::integerPromote(DType a, DType b) {
  unsigned ra = bitWidth(a), rb = bitWidth(b);
  bool ua = isUnsigned(a), ub = isUnsigned(b);
  if (ua == ub)
    return ra > rb ? a : b;
  if (ua)
    return ra >= rb ? a : b;
  return rb >= ra ? b : a;
}

std::optional<DType> kiln::fe::computationType(DType a, bool aIsConst, DType b,
                                               bool bIsConst, bool divOrMod,
                                               std::string &why) {
  // fp8 takes part only next to a wider float tensor (there is no fp8
  // arithmetic), which the float rules below promote it to as Triton does
  // (fp16 beside fp16, fp32 beside bf16: lightllm's `kv_fp8 * scale_bf16`);
  // two different fp8 types compute in fp16.
  bool a8 = a == DType::F8E4M3 || a == DType::F8E5M2;
  bool b8 = b == DType::F8E4M3 || b == DType::F8E5M2;
  if (a8 || b8) {
    DType other = a8 ? b : a;
    bool otherConst = a8 ? bIsConst : aIsConst;
    if (a8 && b8 && a != b && !aIsConst && !bIsConst)
      return DType::F16;
    if (otherConst || a8 == b8 || !isFloat(other)) {
      why = std::string("arithmetic on ") + tritonName(a8 ? a : b) +
            " is not supported; convert with .to(tl.float32) first";
      return std::nullopt;
    }
  }
  // A constant of a lower or equal kind does not take part in promotion.
  if (aIsConst != bIsConst) {
    DType c = aIsConst ? a : b, t = aIsConst ? b : a;
    if (static_cast<int>(kindOf(c)) <= static_cast<int>(kindOf(t))) {
      if (divOrMod && (t == DType::F16 || t == DType::BF16))
        return DType::F32;
      return t;
    }
  }
  if (a == DType::F64 || b == DType::F64)
    return DType::F64;

  if (a == DType::F32 || b == DType::F32)
    return DType::F32;
  if (a == DType::F16 || b == DType::F16)
    return divOrMod ? DType::F32
                    : DType::F16; // fp16 wins over bf16, as in Triton
  if (a == DType::BF16 && b == DType::BF16)
    return divOrMod ? DType::F32 : DType::BF16;
  if (a == DType::BF16 || b == DType::BF16)
    return DType::F32;
  if (divOrMod && isUnsigned(a) != isUnsigned(b)) {
    why = std::string("operands have different signedness (") + tritonName(a) +
          " and " + tritonName(b) + "); cast them to the same signedness";
    return std::nullopt;
  }
  return integerPromote(a, b);
}

std::optional<llvm::SmallVector<int64_t, 2>>
kiln::fe::broadcastShapes(llvm::ArrayRef<int64_t> a,
                          llvm::ArrayRef<int64_t> b) {
  size_t rank = std::max(a.size(), b.size());
  llvm::SmallVector<int64_t, 2> out(rank);
  for (size_t i = 0; i < rank; ++i) {
    int64_t da = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    int64_t db = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    if (da == db || db == 1)
      out[i] = da;
    else if (da == 1)
      out[i] = db;
    else
      return std::nullopt;
  }
  return out;
}

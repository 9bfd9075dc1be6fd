//===- Dot.cpp - tl.dot and the `@` operator ------------------------------===//
//
// Triton 3.6's checks and result types for matrix products: operands of one
// dtype (any two fp8 types may mix), int8 -> int32, fp32 and bf16 -> fp32,
// fp64 -> fp64, fp16 / fp8 -> out_dtype; 2-D or 3-D (batched) operands;
// f32 products multiply as tf32
// unless input_precision (or allow_tf32=False) says otherwise. Generates one
// tile.dot whose accumulator is `acc` or zeros; fp32 products with
// input_precision bf16x3 / bf16x6 are three / six bf16 tile.dots.
//
//===----------------------------------------------------------------------===//
#include "Registry.h"

#include "kiln/Dialect/Tile/IR/Tile.h"
#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace kiln;
using namespace kiln::fe;
namespace arith = mlir::arith;

namespace {
bool isFp8(DType d) { return d == DType::F8E4M3 || d == DType::F8E5M2; }

/// Triton's bf16x3 / bf16x6: each fp32 operand is split into `parts` bf16
/// terms (x = hi + mid [+ lo], each the bf16 rounding of what the earlier
/// ones left), and the product is the sum of the term products that matter
/// in fp32, the smallest first, on the bf16 tensor cores: hi*mid + mid*hi +
/// hi*hi for 2 parts; hi*lo + lo*hi + mid*mid + hi*mid + mid*hi + hi*hi
/// for 3.
mlir::Value bf16SplitDot(IRGen &g, mlir::Location l, mlir::Value lhs,
                         mlir::Value rhs, mlir::Value acc, unsigned parts) {
  auto split = [&](mlir::Value x) {
    auto type = llvm::cast<mlir::RankedTensorType>(x.getType());
    auto bf16 = type.clone(g.b.getBF16Type());
    llvm::SmallVector<mlir::Value, 3> terms;
    mlir::Value rest = x;
    for (unsigned i = 0; i < parts; ++i) {
      mlir::Value t = arith::TruncFOp::create(g.b, l, bf16, rest);
      terms.push_back(t);
      if (i + 1 < parts)
        rest = arith::SubFOp::create(
            g.b, l, rest, arith::ExtFOp::create(g.b, l, type, t));
    }
    return terms;
  };
  llvm::SmallVector<mlir::Value, 3> a = split(lhs), b = split(rhs);
  llvm::SmallVector<std::pair<unsigned, unsigned>, 6> products =
      parts == 2 ? llvm::SmallVector<std::pair<unsigned, unsigned>, 6>{
                       {0, 1}, {1, 0}, {0, 0}}
                 : llvm::SmallVector<std::pair<unsigned, unsigned>, 6>{
                       {0, 2}, {2, 0}, {1, 1}, {0, 1}, {1, 0}, {0, 0}};
  for (auto [i, j] : products)
    acc = tile::DotOp::create(g.b, l, a[i], b[j], acc,
                              tile::InputPrecision::tf32, 0)
              .getResult();
  return acc;
}

mlir::FailureOr<Val> dotImpl(IRGen &g, const Val &lhs, const ast::Node *lhsNode,
                             const Val &rhs, const ast::Node *rhsNode,
                             const Arg *accArg, std::optional<std::string> precisionArg,
                             const Arg *allowTf32Arg, const Arg *impreciseArg,
                             DType outDType, const ast::Node *call,
                             llvm::StringRef fn) {
  for (auto [v, node] : {std::pair{&lhs, lhsNode}, std::pair{&rhs, rhsNode}})
    if (!v->isRuntime() || !v->type.isTensor() || v->type.isPtr)
      return g.fail(node, "`" + fn + "` expects tensors of numbers, got " +
                              g.typeName(*v));
  DType da = lhs.type.dtype, db = rhs.type.dtype;
  bool fp8 = isFp8(da) && isFp8(db);
  if (!fp8) {
    auto allowed = [](DType d) {
      return d == DType::I8 || d == DType::U8 || d == DType::F16 ||
             d == DType::BF16 || d == DType::F32 || d == DType::F64;
    };
    for (auto [d, node, which] : {std::tuple{da, lhsNode, "first"},
                                  std::tuple{db, rhsNode, "second"}})
      if (!allowed(d))
        return g.fail(node, std::string("`") + fn.str() + "` does not support " +
                                which + " operands of dtype " + tritonName(d) +
                                " (expected int8, float16, bfloat16, float32, "
                                "float64 or fp8)");
    if (da != db)
      return g.fail(call, "both operands of `" + fn + "` must have the same dtype, got " +
                              tritonName(da) + " and " + tritonName(db));
  }

  // input_precision: tf32 by default, ieee when allow_tf32=False.
  std::string precision = "tf32";
  bool allowGiven = allowTf32Arg && allowTf32Arg->given &&
                    allowTf32Arg->v.kind != Val::Kind::None;
  if (precisionArg && allowGiven)
    return g.fail(call, "only one of `input_precision` and `allow_tf32` of `" + fn +
                            "` can be specified");
  if (precisionArg) {
    precision = llvm::StringRef(*precisionArg).lower();
    if (precision != "tf32" && precision != "tf32x3" && precision != "ieee" &&
        precision != "bf16x3" && precision != "bf16x6")
      return g.fail(call, "`input_precision` of `" + fn +
                              "` must be one of 'tf32', 'tf32x3', 'ieee', "
                              "'bf16x3', 'bf16x6', got '" +
                              *precisionArg + "'");
  } else if (allowGiven) {
    if (!allowTf32Arg->v.isConstexpr())
      return g.fail(allowTf32Arg->node, "`allow_tf32` of `" + fn +
                                            "` must be a constexpr bool, got " +
                                            g.typeName(allowTf32Arg->v));
    precision = allowTf32Arg->v.truthy() ? "tf32" : "ieee";
  }

  llvm::ArrayRef<int64_t> sa = lhs.type.shape, sb = rhs.type.shape;
  if (!((sa.size() == 2 && sb.size() == 2) || (sa.size() == 3 && sb.size() == 3)))
    return g.fail(call, "both operands of `" + fn + "` must be 2-D or both 3-D, got " +
                            shapeStr(sa) + " and " + shapeStr(sb));
  if (sa.back() != sb[sb.size() - 2])
    return g.fail(call, "operands of `" + fn + "` with shapes " + shapeStr(sa) +
                            " and " + shapeStr(sb) +
                            " are not compatible: the last dimension of the first (" +
                            std::to_string(sa.back()) +
                            ") must equal the second-to-last of the second (" +
                            std::to_string(sb[sb.size() - 2]) + ")");
  int64_t m = sa[sa.size() - 2], k = sa.back(), n = sb.back();
  int64_t minK = bitWidth(da) == 8 ? 32 : 16;
  // Triton 3.6's NVIDIA bounds: M and N from 1 (tile-pad-small-dot pads
  // them to the mma tile), K from 16, 32 for 8-bit operands.
  if (k < minK)
    return g.fail(call, "operands of `" + fn + "` must have K >= " +
                            std::to_string(minK) + ", got M = " + std::to_string(m) +
                            ", N = " + std::to_string(n) + ", K = " + std::to_string(k));
  // Batched: tile-decompose-batched-dot makes one 2-D product per entry.
  llvm::SmallVector<int64_t, 3> resultShape;
  if (sa.size() == 3) {
    if (sa[0] != sb[0])
      return g.fail(call, "operands of `" + fn + "` with shapes " + shapeStr(sa) +
                              " and " + shapeStr(sb) +
                              " are not compatible: the batch sizes differ (" +
                              std::to_string(sa[0]) + " and " +
                              std::to_string(sb[0]) + ")");
    resultShape.push_back(sa[0]);
  }
  resultShape.append({m, n});

  DType ret;
  if (isIntDType(da)) {
    if (da != DType::I8)
      return g.fail(call, "`" + fn + "` supports only int8 integer operands, got " +
                              tritonName(da));
    ret = DType::I32;
  } else if (outDType == DType::BF16) {
    return g.fail(call, "out_dtype=bfloat16 of `" + fn +
                            "` is unsupported: use out_dtype=float32 or float16 and "
                            "cast with `.to(tl.bfloat16)`");
  } else if (da == DType::F32 || da == DType::BF16) {
    ret = DType::F32;
  } else if (da == DType::F64) {
    ret = DType::F64;
  } else {
    if (outDType != DType::F16 && outDType != DType::F32)
      return g.fail(call, std::string("out_dtype of `") + fn.str() +
                              "` on float16 / fp8 operands must be float16 or "
                              "float32, got " + tritonName(outDType));
    ret = outDType;
  }
  if (fp8) {
    unsigned cc = archNumber(g.spec.arch);
    if (cc && cc < 89)
      return g.fail(call, "`" + fn + "` on fp8 operands needs sm_89 or newer, the "
                                     "target is " + g.spec.arch);
    if (ret == DType::F16)
      return g.fail(call, "`" + fn + "` on fp8 operands with out_dtype=float16 is not "
                                     "supported yet: use float32 and cast");
  }

  int64_t maxImprecise = 0;
  if (impreciseArg && impreciseArg->given &&
      impreciseArg->v.kind != Val::Kind::None) {
    if (impreciseArg->v.kind != Val::Kind::Int)
      return g.fail(impreciseArg->node, "`max_num_imprecise_acc` of `" + fn +
                                            "` must be a constexpr integer, got " +
                                            g.typeName(impreciseArg->v));
    maxImprecise = impreciseArg->v.i;
    if (fp8 && maxImprecise > k)
      return g.fail(impreciseArg->node,
                    "max_num_imprecise_acc (" + std::to_string(maxImprecise) +
                        ") of `" + fn + "` must be <= K (" + std::to_string(k) + ")");
  }

  TType retType{ret, false, llvm::SmallVector<int64_t, 2>(resultShape.begin(), resultShape.end())};
  mlir::Location l = g.loc(call);
  mlir::Value acc;
  if (accArg && accArg->given && accArg->v.kind != Val::Kind::None) {
    const Val &a = accArg->v;
    if (!a.isRuntime() || a.type.isPtr || a.type.shape != retType.shape ||
        a.type.dtype != outDType || a.type.dtype != ret)
      return g.fail(accArg->node,
                    "`acc` of `" + fn + "` must be a tensor of shape " +
                        shapeStr(retType.shape) + " and dtype " + tritonName(ret) +
                        (outDType != ret ? std::string(" (pass out_dtype=") +
                                               tritonName(ret) + ")"
                                         : std::string()) +
                        ", got " + g.typeName(a));
    acc = a.value;
  } else {
    mlir::Type elem = toMLIR(&g.ctx, ret);
    mlir::TypedAttr zero =
        isIntDType(ret) ? mlir::TypedAttr(g.b.getIntegerAttr(elem, 0))
                        : mlir::TypedAttr(g.b.getFloatAttr(elem, 0.0));
    auto type = mlir::RankedTensorType::get(resultShape, elem);
    acc = arith::ConstantOp::create(g.b, l, mlir::DenseElementsAttr::get(type, zero));
  }
  if ((precision == "bf16x3" || precision == "bf16x6") && da == DType::F32)
    return Val::runtime(bf16SplitDot(g, l, lhs.value, rhs.value, acc,
                                     precision == "bf16x3" ? 2 : 3),
                        retType);
  tile::InputPrecision p = precision == "ieee"     ? tile::InputPrecision::ieee
                           : precision == "tf32x3" ? tile::InputPrecision::tf32x3
                                                   : tile::InputPrecision::tf32;
  auto dot = tile::DotOp::create(g.b, l, lhs.value, rhs.value, acc, p,
                                 int32_t(maxImprecise));
  return Val::runtime(dot.getResult(), retType);
}

mlir::FailureOr<Val> dotBuiltin(BuiltinCall &c) {
  std::optional<std::string> precision;
  if (!c.rd.isNone(c.a[3])) {
    mlir::FailureOr<std::string> s = c.rd.constStr(c.a[3], "input_precision");
    if (failed(s))
      return mlir::failure();
    precision = *s;
  }
  mlir::FailureOr<DType> out = c.rd.dtypeOr(c.a[6], "out_dtype", DType::F32);
  if (failed(out))
    return mlir::failure();
  return dotImpl(c.g, c.a[0].v, c.a[0].node, c.a[1].v, c.a[1].node, &c.a[2],
                 precision, &c.a[4], &c.a[5], *out, c.e, "tl.dot");
}
} // namespace

mlir::FailureOr<Val> kiln::fe::matmulOperator(IRGen &g, const Val &lhs,
                                              const Val &rhs,
                                              const ast::Node *where) {
  return dotImpl(g, lhs, where, rhs, where, nullptr, std::nullopt, nullptr, nullptr,
                 DType::F32, where, "@");
}

llvm::ArrayRef<BuiltinDef> kiln::fe::dotBuiltins() {
  static const BuiltinDef defs[] = {
      {"dot",
       {"input", "other", "acc=None", "input_precision=None", "allow_tf32=None",
        "max_num_imprecise_acc=None", "out_dtype=float32"},
       false, false, dotBuiltin, false},
  };
  return defs;
}

//===- RaggedTma.cpp - triton.tools.ragged_tma's device functions ---------===//
//
// Triton 3.6's `triton.tools.ragged_tma`: a "ragged" descriptor (made on the
// host by create_ragged_descriptor) views a tensor T as a concatenation of
// batches along one dimension. It has two leading dimensions ahead of T's,
// with strides s0 = 2^34 - r and s1 = r (r: T's stride along the ragged
// dimension) and the ragged dimension's size set to 2^30. Addressing batch
// [off, off + size) at row `row` with the coordinates
//   (2^30, off + size, ..., 2^30 - size + row, ...)
// reaches element (off + row) * r, since 2^30 * s0 wraps to -2^30 * r in
// 64-bit addresses, and the hardware's bounds check of the ragged coordinate
// (< 2^30) is exactly row < size: rows past the batch read zeros and are not
// written. These are the functions kernels call with such a descriptor:
//   to_ragged_indices(batch_offset, batch_size, row) -> (2^30, off+size, x)
//   load_ragged(desc, batch_offset, batch_size, coords, ragged_dim=0)
//   store_ragged(desc, batch_offset, batch_size, coords, data, ragged_dim=0)
// (lookupModuleAttr resolves `triton.tools.ragged_tma`; the drop-in's module
// of that name has create_ragged_descriptor).
//
//===----------------------------------------------------------------------===//
#include "Registry.h"

using namespace kiln;
using namespace kiln::fe;
using namespace kiln::ast;

namespace {
/// Messages name the function as kernels call it (`load_ragged`).
void useShortName(BuiltinCall &c) {
  c.rd.fn = c.rd.fn.substr(c.rd.fn.rfind('.') + 1);
}

constexpr int64_t kRaggedRows = int64_t(1) << 30; // the ragged dimension's size

/// (2^30, batch_offset + batch_size, 2^30 - batch_size + row).
FailureOr<Val> raggedIndices(IRGen &g, const Val &offset, const Val &size,
                             const Val &row, const ast::CallExpr *e) {
  FailureOr<Val> end = g.binary(BinOpKind::Add, offset, size, e);
  if (failed(end))
    return failure();
  FailureOr<Val> first = g.binary(BinOpKind::Sub, Val::integer(kRaggedRows), size, e);
  if (failed(first))
    return failure();
  FailureOr<Val> x = g.binary(BinOpKind::Add, *first, row, e);
  if (failed(x))
    return failure();
  return Val::tuple({Val::integer(kRaggedRows), *end, *x});
}

FailureOr<Val> toRaggedIndices(BuiltinCall &c) {
  useShortName(c);
  return raggedIndices(c.g, c.a[0].v, c.a[1].v, c.a[2].v, c.e);
}

/// The descriptor of a ragged access: two dimensions more than `coords`.
LogicalResult checkRaggedDescriptor(BuiltinCall &c, size_t numCoords) {
  const Val &d = c.a[0].v;
  if (d.kind != Val::Kind::BlockPtr || !d.descriptor)
    return c.g.fail(c.a[0].node, "`TMA` of `" + c.rd.fn +
                                     "` must be a tensor descriptor made by "
                                     "create_ragged_descriptor, got " +
                                     c.g.typeName(d));
  if (d.bpRank() != numCoords + 2)
    return c.g.fail(c.a[0].node,
                    "`" + c.rd.fn + "`: TMA must be a read-write ragged descriptor (" +
                        std::to_string(numCoords) + " coordinates need a rank-" +
                        std::to_string(numCoords + 2) + " descriptor, got rank " +
                        std::to_string(d.bpRank()) + ")");
  return success();
}

/// The descriptor offsets of batch (`a[1]`, `a[2]`) at `coords` (`a[3]`),
/// the ragged dimension `raggedArg`'s constexpr (0 by default).
FailureOr<Val> raggedOffsets(BuiltinCall &c, const Arg &raggedArg) {
  const Val &coords = c.a[3].v;
  if (coords.kind != Val::Kind::Tuple || coords.elems.empty())
    return c.g.fail(c.a[3].node, "`coords` of `" + c.rd.fn +
                                     "` must be a list of coordinates, got " +
                                     c.g.typeName(coords));
  int64_t dim = 0;
  if (!c.rd.isNone(raggedArg)) {
    FailureOr<int64_t> d = c.rd.constInt(raggedArg, "ragged_dim");
    if (failed(d))
      return failure();
    dim = *d;
  }
  int64_t n = int64_t(coords.elems.size());
  if (dim < 0 || dim >= n)
    return c.g.fail(raggedArg.given ? raggedArg.node : c.a[3].node,
                    "`ragged_dim` of `" + c.rd.fn + "` must be in [0, " +
                        std::to_string(n) + ") for " + std::to_string(n) +
                        " coordinates, got " + std::to_string(dim));
  if (failed(checkRaggedDescriptor(c, coords.elems.size())))
    return failure();
  FailureOr<Val> idx = raggedIndices(c.g, c.a[1].v, c.a[2].v, coords.elems[dim], c.e);
  if (failed(idx))
    return failure();
  std::vector<Val> offsets{idx->elems[0], idx->elems[1]};
  for (int64_t i = 0; i < n; ++i)
    offsets.push_back(i == dim ? idx->elems[2] : coords.elems[i]);
  return Val::tuple(std::move(offsets));
}

std::vector<Val> shapeValues(llvm::ArrayRef<int64_t> shape) {
  std::vector<Val> dims;
  for (int64_t d : shape)
    dims.push_back(Val::integer(d));
  return dims;
}

FailureOr<Val> loadRagged(BuiltinCall &c) {
  useShortName(c);
  FailureOr<Val> offsets = raggedOffsets(c, c.a[4]);
  if (failed(offsets))
    return failure();
  FailureOr<Val> data =
      callWith(c.g, "tl.load_tensor_descriptor", {c.a[0].v, *offsets}, c.e);
  if (failed(data))
    return failure();
  // [1, 1, *block] -> block
  llvm::ArrayRef<int64_t> shape = data->type.shape;
  return callWith(c.g, "tl.reshape",
                  {*data, Val::tuple(shapeValues(shape.drop_front(2)))}, c.e);
}

FailureOr<Val> storeRagged(BuiltinCall &c) {
  useShortName(c);
  FailureOr<Val> offsets = raggedOffsets(c, c.a[5]);
  if (failed(offsets))
    return failure();
  const Val &data = c.a[4].v;
  if (!data.type.isTensor())
    return c.g.fail(c.a[4].node, "`data` of `" + c.rd.fn +
                                     "` must be a tensor, got " + c.g.typeName(data));
  std::vector<Val> shape{Val::integer(1), Val::integer(1)};
  for (int64_t d : data.type.shape)
    shape.push_back(Val::integer(d));
  FailureOr<Val> lifted = callWith(c.g, "tl.reshape", {data, Val::tuple(shape)}, c.e);
  if (failed(lifted))
    return failure();
  return callWith(c.g, "tl.store_tensor_descriptor", {c.a[0].v, *offsets, *lifted},
                  c.e);
}
} // namespace

llvm::ArrayRef<BuiltinDef> kiln::fe::raggedTmaBuiltins() {
  static const BuiltinDef defs[] = {
      {"ragged_tma.to_ragged_indices", {"batch_offset", "batch_size", "row"}, false,
       false, toRaggedIndices, false},
      {"ragged_tma.load_ragged",
       {"TMA", "batch_offset", "batch_size", "coords", "ragged_dim=0"}, false, false,
       loadRagged, false},
      {"ragged_tma.store_ragged",
       {"TMA", "batch_offset", "batch_size", "coords", "data", "ragged_dim=0"}, false,
       false, storeRagged, false},
  };
  return defs;
}

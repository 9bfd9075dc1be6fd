//===- LayerNormFused.cpp - Launching the fused LayerNorm / RMSNorm -------===//
//
// Checks the operands of normForward / normBackward and launches the kernels
// of examples/layernorm/layer_norm_fast.py (embedded in the runtime) with the
// parameters planNorm chose. Pointer parameters that an option turns off are
// passed a valid pointer of the right dtype (x, or rstd for fp32 ones): the
// kernels never dereference them.
//
//===----------------------------------------------------------------------===//
#include "RuntimeError.h"
#include "kiln/Runtime/LayerNorm.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"
#include <functional>
#include <optional>

using namespace kiln;
using namespace kiln::rt;

extern const char kilnLayerNormFastSourceBytes[];
extern const char kilnLayerNormCoopSourceBytes[];

namespace kiln::rt {
struct NormKernelSet {
  std::optional<Kernel> fwd, fwdPipelined, fwdChunked, fwdChunkedPipelined,
      bwd, bwdPipelined, bwdCols, bwdRowStats, bwdChunked, bwdReduce, bwdCoop,
      fwdCoop;
};
} // namespace kiln::rt

namespace {
constexpr const char *kFastName = "examples/layernorm/layer_norm_fast.py";
constexpr const char *kCoopName = "examples/layernorm/layer_norm_coop.py";

std::string describe(const DeviceMatrix &m) {
  return llvm::formatv("[{0}, {1}] {2} (stride {3})", m.rows, m.cols,
                       dtypeName(m.dtype), m.stride)
      .str();
}

llvm::Error checkMat(const DeviceMatrix &m, const char *name, int64_t rows,
                     int64_t cols, DType dtype) {
  if (m.rows != rows || m.cols != cols || m.dtype != dtype)
    return makeError(llvm::formatv("norm: `{0}` is {1}; expected [{2}, {3}] "
                                   "{4}",
                                   name, describe(m), rows, cols,
                                   dtypeName(dtype)));
  if (m.stride < cols)
    return makeError(llvm::formatv("norm: `{0}` has row stride {1} < N = {2}",
                                   name, m.stride, cols));
  if (m.ptr == 0 && rows > 0)
    return makeError(llvm::formatv("norm: `{0}` is a null pointer", name));
  return llvm::Error::success();
}

llvm::Error checkVec(const DeviceVector &v, const char *name, int64_t size,
                     DType dtype) {
  if (v.size != size || v.dtype != dtype)
    return makeError(
        llvm::formatv("norm: `{0}` is [{1}] {2}; expected [{3}] {4}", name,
                      v.size, dtypeName(v.dtype), size, dtypeName(dtype)));
  if (v.ptr == 0 && size > 0)
    return makeError(llvm::formatv("norm: `{0}` is a null pointer", name));
  return llvm::Error::success();
}

llvm::Error sameStride(const DeviceMatrix &a, const char *an,
                       const DeviceMatrix &b, const char *bn) {
  if (a.stride == b.stride)
    return llvm::Error::success();
  return makeError(llvm::formatv("norm: `{0}` has row stride {1} but `{2}` "
                                 "has {3}; the kernels address them with one "
                                 "stride",
                                 an, a.stride, bn, b.stride));
}

/// The optional second matrix `m` (y1, dy1) when `enabled`: M x N of dtype
/// `t`, with the row stride of the first one (`first`), which it shares.
llvm::Error checkSecondMat(bool enabled, const DeviceMatrix &m, const char *name,
                           const DeviceMatrix &first, const char *firstName,
                           int64_t rows, int64_t cols, DType t) {
  if (!enabled)
    return llvm::Error::success();
  if (auto err = checkMat(m, name, rows, cols, t))
    return err;
  return sameStride(m, name, first, firstName);
}

/// Runs checks in order; the first failure wins.
llvm::Error firstError(std::initializer_list<std::function<llvm::Error()>> cs) {
  for (auto &c : cs)
    if (auto err = c())
      return err;
  return llvm::Error::success();
}

llvm::Error grow(Device &dev, DeviceBuffer &buf, size_t bytes) {
  if (buf && buf.size() >= bytes)
    return llvm::Error::success();
  buf = DeviceBuffer();
  auto b = DeviceBuffer::alloc(dev, std::max<size_t>(bytes, 16));
  if (!b)
    return b.takeError();
  buf = std::move(*b);
  return llvm::Error::success();
}

LaunchOptions options(int device, CUstream stream, unsigned warps,
                      std::map<std::string, ConstexprValue> constexprs) {
  LaunchOptions o;
  o.device = device;
  o.stream = stream;
  o.numWarps = warps;
  o.constexprs = std::move(constexprs);
  return o;
}

llvm::Error context(llvm::Error err, const char *what) {
  if (!err)
    return err;
  return makeError(llvm::Twine("norm ") + what + ": " +
                   llvm::toString(std::move(err)));
}

Arg ptrOr(CUdeviceptr p, DType t, CUdeviceptr fallback) {
  return Arg::ptr(p ? p : fallback, t);
}

/// The Cooperative kernels' exchange in `ws`, zeroed on `stream`: the
/// ticket (16 bytes, so that the words stay 16-byte aligned), then
/// [M, chunks, 2] 64-bit words (zero: "not published yet").
llvm::Expected<CUdeviceptr> zeroedExchange(Device &dev, NormWorkspace &ws,
                                           int64_t M, uint32_t chunks,
                                           CUstream stream, const char *what) {
  const size_t bytes = 16 + size_t(M) * chunks * 16;
  if (auto err = grow(dev, ws.exchange, bytes))
    return std::move(err);
  if (auto err = ws.exchange.fill32(0, stream, bytes))
    return makeError(llvm::Twine("norm ") + what +
                     " (zeroing the cooperative exchange): " +
                     llvm::toString(std::move(err)));
  return ws.exchange.ptr();
}
} // namespace

llvm::Expected<NormPlan> LayerNorm::plan(int64_t M, int64_t N, DType dtype,
                                         const NormOptions &o) const {
  return planNorm(M, N, dtype, o, device_->multiprocessors());
}

llvm::Error LayerNorm::normForward(const NormForwardArgs &a,
                                   const NormOptions &o, CUstream stream) {
  return normForwardIn(a, o, nullptr, stream);
}

llvm::Error LayerNorm::normForward(const NormForwardArgs &a,
                                   const NormOptions &o, NormWorkspace &ws,
                                   CUstream stream) {
  return normForwardIn(a, o, &ws, stream);
}

llvm::Error LayerNorm::normForwardIn(const NormForwardArgs &a,
                                     const NormOptions &given,
                                     NormWorkspace *ws, CUstream stream) {
  const DeviceMatrix &x = a.x;
  NormOptions o = given;
  // The Cooperative forward's exchange words live in a workspace.
  o.noCooperativeForward |= ws == nullptr;
  if (auto err = validateNormOptions(o))
    return err;
  if (o.kernels == NormKernels::Tutorial)
    return forwardInto(x, a.w, a.b, o.eps, a.y, a.mean, a.rstd, stream);
  const int64_t M = x.rows, N = x.cols;
  const DType t = x.dtype;
  auto planOr = plan(M, N, t, o);
  if (!planOr)
    return planOr.takeError();
  const NormPlan &p = *planOr;
  const bool writesRes = o.writesResidualOut();
  if (auto err = firstError({
          [&]() -> llvm::Error { return checkMat(x, "x", M, N, t); },
          [&]() -> llvm::Error { return checkVec(a.w, "w", N, t); },
          [&]() -> llvm::Error {
            return o.bias ? checkVec(a.b, "b", N, t) : llvm::Error::success();
          },
          [&]() -> llvm::Error {
            return o.residual ? checkMat(a.residual, "residual", M, N, t)
                              : llvm::Error::success();
          },
          [&]() -> llvm::Error {
            return o.rowScale ? checkVec(a.rowScale, "rowScale", M, DType::F32)
                              : llvm::Error::success();
          },
          [&]() -> llvm::Error {
            return o.secondOutput ? checkVec(a.w1, "w1", N, t)
                                  : llvm::Error::success();
          },
          [&]() -> llvm::Error {
            return o.secondBias ? checkVec(a.b1, "b1", N, t)
                                : llvm::Error::success();
          },
          [&]() -> llvm::Error { return checkMat(a.y, "y", M, N, t); },
          [&]() -> llvm::Error {
            return checkSecondMat(o.secondOutput, a.y1, "y1", a.y, "y", M, N, t);
          },
          [&]() -> llvm::Error {
            return writesRes ? checkMat(a.residualOut, "residualOut", M, N, t)
                             : llvm::Error::success();
          },
          [&]() -> llvm::Error {
            return o.rms ? llvm::Error::success()
                         : checkVec(a.mean, "mean", M, DType::F32);
          },
          [&]() -> llvm::Error {
            return checkVec(a.rstd, "rstd", M, DType::F32);
          },
      }))
    return err;
  if (M == 0)
    return llvm::Error::success();

  const CUdeviceptr xp = x.ptr, f32 = a.rstd.ptr;
  llvm::SmallVector<Arg, 24> args = {
      Arg::ptr(x.ptr, t),
      Arg::ptr(a.y.ptr, t),
      Arg::ptr(a.w.ptr, t),
      ptrOr(o.bias ? a.b.ptr : 0, t, xp),
      ptrOr(o.residual ? a.residual.ptr : 0, t, xp),
      ptrOr(writesRes ? a.residualOut.ptr : 0, t, xp),
      ptrOr(o.rowScale ? a.rowScale.ptr : 0, DType::F32, f32),
      ptrOr(o.secondOutput ? a.w1.ptr : 0, t, xp),
      ptrOr(o.secondBias ? a.b1.ptr : 0, t, xp),
      ptrOr(o.secondOutput ? a.y1.ptr : 0, t, xp),
      ptrOr(o.rms ? 0 : a.mean.ptr, DType::F32, f32),
      Arg::ptr(a.rstd.ptr, DType::F32),
      Arg::integer(x.stride),
      Arg::integer(a.y.stride),
      Arg::integer(o.residual ? a.residual.stride : 0),
      Arg::integer(writesRes ? a.residualOut.stride : 0),
      Arg::integer(M),
      Arg::integer(N),
      Arg::f32(o.eps),
      Arg::f32(o.dropoutP),
      Arg::integer(int64_t(o.seed)),
  };
  const bool coop = p.forward == NormPlan::Variant::Cooperative;
  if (coop) {
    // STATS and TICKET after RSTD, rows_per_program after N.
    auto exchange = zeroedExchange(*device_, *ws, M, p.fwdChunks, stream,
                                   "forward");
    if (!exchange)
      return exchange.takeError();
    args.insert(args.begin() + 12,
                {Arg::ptr(*exchange + 16, DType::I64),
                 Arg::ptr(*exchange, DType::I32)});
    args.insert(args.begin() + 20, Arg::integer(p.fwdRowsPerProgram));
  }
  std::map<std::string, ConstexprValue> cx = {{"BLOCK_N", p.fwdBlockN},
                                              {"ROWS", p.fwdRows},
                                              {"IS_RMS", o.rms},
                                              {"HAS_BIAS", o.bias},
                                              {"HAS_RES", o.residual},
                                              {"STORE_RES_OUT", writesRes},
                                              {"HAS_DROPOUT", o.dropoutP > 0.f},
                                              {"HAS_ROWSCALE", o.rowScale},
                                              {"HAS_W1", o.secondOutput},
                                              {"HAS_B1", o.secondBias}};
  const bool rows = p.forward == NormPlan::Variant::Rows;
  Kernel &k = coop ? *fast_->fwdCoop
              : p.fwdPipelined
                  ? (rows ? *fast_->fwdPipelined : *fast_->fwdChunkedPipelined)
                  : (rows ? *fast_->fwd : *fast_->fwdChunked);
  if (coop) {
    cx.emplace("CHUNKS_P2", unsigned(llvm::PowerOf2Ceil(p.fwdChunks)));
    cx.emplace("AHEAD", true);
  }
  LaunchOptions lo =
      options(device_->index(), stream, p.fwdWarps, std::move(cx));
  lo.cooperative = coop;
  return context(k.launch(Grid(p.fwdGrid), args, lo), "forward");
}

llvm::Error LayerNorm::normBackward(const NormBackwardArgs &a,
                                    const NormOptions &o, NormWorkspace &ws,
                                    CUstream stream) {
  const DeviceMatrix &x = a.x;
  if (auto err = validateNormOptions(o))
    return err;
  if (o.kernels == NormKernels::Tutorial)
    return backwardInto(a.dy, x, a.w, a.b, a.mean, a.rstd, a.dx, a.dw, a.db,
                        ws.tutorial, stream);
  const int64_t M = x.rows, N = x.cols;
  const DType t = x.dtype;
  auto planOr = plan(M, N, t, o);
  if (!planOr)
    return planOr.takeError();
  const NormPlan &p = *planOr;
  const bool hasDres = o.residual && a.dresidual.ptr != 0;
  if (auto err = firstError({
          [&]() -> llvm::Error { return checkMat(x, "x", M, N, t); },
          [&]() -> llvm::Error { return checkMat(a.dy, "dy", M, N, t); },
          [&]() -> llvm::Error { return checkVec(a.w, "w", N, t); },
          [&]() -> llvm::Error {
            return o.secondOutput ? checkVec(a.w1, "w1", N, t)
                                  : llvm::Error::success();
          },
          [&]() -> llvm::Error {
            return checkSecondMat(o.secondOutput, a.dy1, "dy1", a.dy, "dy", M, N,
                                  t);
          },
          [&]() -> llvm::Error {
            return hasDres ? checkMat(a.dresidual, "dresidual", M, N, t)
                           : llvm::Error::success();
          },
          [&]() -> llvm::Error {
            return o.rowScale ? checkVec(a.rowScale, "rowScale", M, DType::F32)
                              : llvm::Error::success();
          },
          [&]() -> llvm::Error {
            return o.rms ? llvm::Error::success()
                         : checkVec(a.mean, "mean", M, DType::F32);
          },
          [&]() -> llvm::Error {
            return checkVec(a.rstd, "rstd", M, DType::F32);
          },
          [&]() -> llvm::Error { return checkMat(a.dx, "dx", M, N, t); },
          [&]() -> llvm::Error {
            return o.residual ? checkMat(a.dresidualIn, "dresidualIn", M, N, t)
                              : llvm::Error::success();
          },
          [&]() -> llvm::Error { return checkVec(a.dw, "dw", N, t); },
          [&]() -> llvm::Error {
            return o.bias ? checkVec(a.db, "db", N, t) : llvm::Error::success();
          },
          [&]() -> llvm::Error {
            return o.secondOutput ? checkVec(a.dw1, "dw1", N, t)
                                  : llvm::Error::success();
          },
          [&]() -> llvm::Error {
            return o.secondBias ? checkVec(a.db1, "db1", N, t)
                                : llvm::Error::success();
          },
      }))
    return err;

  // Partial rows: one [programs, N] fp32 region per gradient that is on, in
  // the order dw, db, dw1, db1 (one reduction launch covers them all), each
  // 256-byte aligned so the kernels' stores stay 16-byte vectors. A gradient
  // that is off gets the first region: its kernel never writes it.
  const size_t P = std::max<uint32_t>(p.programs, 1);
  const size_t region = (P * size_t(N) * 4 + 255) / 256 * 256;
  if (auto err = grow(*device_, ws.partials, 4 * region))
    return err;
  const CUdeviceptr part = ws.partials.ptr();
  struct Gradient {
    bool on;
    const DeviceVector *out;
    CUdeviceptr part = 0;
  };
  Gradient grads[] = {{true, &a.dw},
                      {o.bias, &a.db},
                      {o.secondOutput, &a.dw1},
                      {o.secondBias, &a.db1}};
  unsigned gradsOn = 0;
  for (Gradient &g : grads)
    g.part = g.on ? part + region * gradsOn++ : part;
  const CUdeviceptr dwPart = grads[0].part, dbPart = grads[1].part,
                    dw1Part = grads[2].part, db1Part = grads[3].part;
  const CUdeviceptr xp = x.ptr, f32 = a.rstd.ptr;
  const int dev = device_->index();

  if (M > 0) {
    llvm::SmallVector<Arg, 32> args = {
        Arg::ptr(x.ptr, t),
        Arg::ptr(a.w.ptr, t),
        Arg::ptr(xp, t), // B: unused by the backward
        Arg::ptr(a.dy.ptr, t),
        Arg::ptr(a.dx.ptr, t),
        ptrOr(o.secondOutput ? a.w1.ptr : 0, t, xp),
        ptrOr(o.secondOutput ? a.dy1.ptr : 0, t, xp),
        ptrOr(hasDres ? a.dresidual.ptr : 0, t, xp),
        ptrOr(o.residual ? a.dresidualIn.ptr : 0, t, xp),
        ptrOr(o.rowScale ? a.rowScale.ptr : 0, DType::F32, f32),
        ptrOr(o.rms ? 0 : a.mean.ptr, DType::F32, f32),
        Arg::ptr(a.rstd.ptr, DType::F32),
    };
    if (p.backward == NormPlan::Variant::Chunked) {
      if (auto err = grow(*device_, ws.rowStats, size_t(M) * 8 + 256))
        return err;
      CUdeviceptr c1 = ws.rowStats.ptr();
      CUdeviceptr c2 = c1 + (size_t(M) * 4 + 255) / 256 * 256;
      std::map<std::string, ConstexprValue> sx = {{"BLOCK_N", p.statsBlockN},
                                                  {"IS_RMS", o.rms},
                                                  {"HAS_W1", o.secondOutput}};
      if (auto err = context(
              fast_->bwdRowStats->launch(
                  Grid(uint32_t(M)),
                  {args[0], args[1], args[3], args[5], args[6], args[10],
                   args[11], Arg::ptr(c1, DType::F32), Arg::ptr(c2, DType::F32),
                   Arg::integer(x.stride), Arg::integer(a.dy.stride),
                   Arg::integer(M), Arg::integer(N)},
                  options(dev, stream, p.statsWarps, std::move(sx))),
              "backward (row statistics)"))
        return err;
      args.push_back(Arg::ptr(c1, DType::F32));
      args.push_back(Arg::ptr(c2, DType::F32));
    }
    for (CUdeviceptr q : {dwPart, dbPart, dw1Part, db1Part})
      args.push_back(Arg::ptr(q, DType::F32));
    const bool coop = p.backward == NormPlan::Variant::Cooperative;
    if (coop) {
      auto exchange =
          zeroedExchange(*device_, ws, M, p.columnChunks, stream, "backward");
      if (!exchange)
        return exchange.takeError();
      args.push_back(Arg::ptr(*exchange + 16, DType::I64));
      args.push_back(Arg::ptr(*exchange, DType::I32));
    }
    for (int64_t v : {x.stride, a.dy.stride, a.dx.stride,
                      hasDres ? a.dresidual.stride : int64_t(0),
                      o.residual ? a.dresidualIn.stride : int64_t(0), M, N,
                      p.rowsPerProgram})
      args.push_back(Arg::integer(v));
    args.push_back(Arg::f32(o.dropoutP));
    args.push_back(Arg::integer(int64_t(o.seed)));
    std::map<std::string, ConstexprValue> cx = {
        {"BLOCK_N", p.bwdBlockN},
        {"ROWS", p.bwdRows},
        {"IS_RMS", o.rms},
        {"HAS_BIAS", o.bias},
        {"HAS_DRES", hasDres},
        {"STORE_DRES_IN", o.residual},
        {"HAS_DROPOUT", o.dropoutP > 0.f},
        {"HAS_ROWSCALE", o.rowScale},
        {"HAS_W1", o.secondOutput},
        {"HAS_B1", o.secondBias}};
    Kernel *k = p.bwdPipelined ? &*fast_->bwdPipelined : &*fast_->bwd;
    Grid grid(p.programs);
    if (coop) {
      k = &*fast_->bwdCoop;
      grid = Grid(p.columnChunks * p.programs);
      cx.emplace("CHUNKS_P2", unsigned(llvm::PowerOf2Ceil(p.columnChunks)));
      cx.emplace("AHEAD", true);
    } else if (p.backward == NormPlan::Variant::Chunked) {
      k = &*fast_->bwdChunked;
      grid = Grid(p.programs, p.columnChunks);
    } else if (p.backward == NormPlan::Variant::Columns) {
      k = &*fast_->bwdCols;
      grid = Grid(p.columnChunks, p.programs);
    }
    LaunchOptions lo = options(dev, stream, p.bwdWarps, std::move(cx));
    lo.cooperative = coop;
    if (auto err = context(k->launch(grid, args, lo), "backward (dx)"))
      return err;
  }

  llvm::SmallVector<Arg, 8> rargs = {Arg::ptr(part, DType::F32)};
  for (const Gradient &g : grads)
    if (g.on)
      rargs.push_back(Arg::ptr(g.out->ptr, t));
  while (rargs.size() < 5) // OUTg past the grid: never dereferenced
    rargs.push_back(Arg::ptr(a.dw.ptr, t));
  rargs.push_back(Arg::integer(int64_t(p.programs)));
  rargs.push_back(Arg::integer(N));
  rargs.push_back(Arg::integer(int64_t(region / 4)));
  std::map<std::string, ConstexprValue> rx = {{"BLOCK_P", p.reduceBlockP},
                                              {"BLOCK_N", p.reduceBlockN}};
  if (auto err = context(
          fast_->bwdReduce->launch(
              Grid(p.reduceGrid, gradsOn), rargs,
              options(dev, stream, p.reduceWarps, std::move(rx))),
          "backward (dw/db reduction)"))
    return err;
  return llvm::Error::success();
}

namespace kiln::rt {
/// The fused kernels of `module` (layer_norm_fast.py or a file with the
/// same kernels) and the cooperative backward of `coop`
/// (layer_norm_coop.py).
llvm::Expected<std::shared_ptr<NormKernelSet>>
loadNormKernels(const Module &module, const Module &coop) {
  auto set = std::make_shared<NormKernelSet>();
  std::pair<std::optional<Kernel> *, const char *> names[] = {
      {&set->fwd, "_norm_fwd"},
      {&set->fwdPipelined, "_norm_fwd_pipelined"},
      {&set->fwdChunked, "_norm_fwd_chunked"},
      {&set->fwdChunkedPipelined, "_norm_fwd_chunked_pipelined"},
      {&set->bwd, "_norm_bwd"},
      {&set->bwdPipelined, "_norm_bwd_pipelined"},
      {&set->bwdCols, "_norm_bwd_cols"},
      {&set->bwdRowStats, "_norm_bwd_row_stats"},
      {&set->bwdChunked, "_norm_bwd_chunked"},
      {&set->bwdReduce, "_norm_bwd_reduce"}};
  for (auto [slot, name] : names) {
    auto k = module.kernel(name);
    if (!k)
      return k.takeError();
    slot->emplace(std::move(*k));
  }
  for (auto [slot, name] :
       {std::pair{&set->bwdCoop, "_norm_bwd_coop"},
        std::pair{&set->fwdCoop, "_norm_fwd_coop"}}) {
    auto k = coop.kernel(name);
    if (!k)
      return k.takeError();
    slot->emplace(std::move(*k));
  }
  return set;
}

Module builtinNormModule(ModuleOptions options) {
  return Module::fromSource(kilnLayerNormFastSourceBytes, kFastName,
                            std::move(options));
}

Module builtinNormCoopModule(ModuleOptions options) {
  return Module::fromSource(kilnLayerNormCoopSourceBytes, kCoopName,
                            std::move(options));
}
} // namespace kiln::rt

llvm::Expected<RMSNorm> RMSNorm::create(int device, ModuleOptions options) {
  auto ln = LayerNorm::create(device, std::move(options));
  if (!ln)
    return ln.takeError();
  return RMSNorm(std::move(*ln));
}

llvm::Error RMSNorm::forward(const NormForwardArgs &args, NormOptions options,
                             CUstream stream) {
  options.rms = true;
  return ln_.normForward(args, options, stream);
}

llvm::Error RMSNorm::forward(const NormForwardArgs &args, NormOptions options,
                             NormWorkspace &ws, CUstream stream) {
  options.rms = true;
  return ln_.normForward(args, options, ws, stream);
}

llvm::Error RMSNorm::backward(const NormBackwardArgs &args, NormOptions options,
                              NormWorkspace &ws, CUstream stream) {
  options.rms = true;
  return ln_.normBackward(args, options, ws, stream);
}

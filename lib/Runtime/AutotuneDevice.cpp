//===- AutotuneDevice.cpp - Timing runs, tuning buffers, decorator layers -===//
#include "kiln/Runtime/Autotune.h"
#include "RuntimeError.h"
#include "llvm/Support/FormatVariadic.h"
#include <algorithm>
#include <cmath>

using namespace kiln;
using namespace kiln::rt;

//===----------------------------------------------------------------------===//
// Decorator layers
//===----------------------------------------------------------------------===//

llvm::Expected<std::shared_ptr<const KernelLayers>>
kiln::rt::readKernelLayers(llvm::StringRef source, llvm::StringRef filename,
                           llvm::StringRef kernel) {
  auto decorators = KernelDecorators::parse(source, filename, kernel);
  if (!decorators)
    return decorators.takeError();
  if (!decorators->autotune() && !decorators->hasHeuristics())
    return nullptr;
  auto layers = std::make_shared<KernelLayers>();
  if (const AutotuneSpec *spec = decorators->autotune())
    layers->autotune = *spec;
  layers->autotuneIsOutermost = decorators->autotuneIsOutermost();
  if (decorators->autotune() && decorators->autotune()->earlyConfigPrune)
    layers->prune = [d = *decorators](const LaunchArgs &args) { return d.pruneConfigs(args); };
  if (decorators->hasHeuristics())
    layers->heuristics = [d = std::move(*decorators)](LaunchArgs &args) {
      return d.applyHeuristics(args);
    };
  return layers;
}

//===----------------------------------------------------------------------===//
// Benchmark
//===----------------------------------------------------------------------===//

llvm::Expected<double> kiln::rt::benchmarkOnStream(
    Device &device, CUstream stream, unsigned warmupMs, unsigned repMs,
    const std::function<llvm::Error()> &beforeEachRun,
    const std::function<llvm::Error()> &run) {
  const Driver &drv = device.driver();
  auto sync = [&]() -> llvm::Error {
    return drv.check(drv.cuStreamSynchronize(stream),
                     "cuStreamSynchronize while autotuning");
  };
  auto once = [&]() -> llvm::Error {
    if (beforeEachRun)
      if (auto err = beforeEachRun())
        return err;
    return run();
  };
  if (auto err = device.makeCurrent())
    return err;
  auto start = Event::create(device);
  if (!start)
    return start.takeError();
  auto end = Event::create(device);
  if (!end)
    return end.takeError();
  auto timedOnce = [&]() -> llvm::Expected<float> {
    if (beforeEachRun)
      if (auto err = beforeEachRun())
        return std::move(err);
    if (auto err = start->record(stream))
      return std::move(err);
    if (auto err = run())
      return std::move(err);
    if (auto err = end->record(stream))
      return std::move(err);
    if (auto err = sync())
      return std::move(err);
    return Event::elapsedMs(*start, *end);
  };
  // First run: a failing config (out of resources) stops here. A run longer
  // than the whole timed budget needs no estimate: one more run is its time
  // (2 runs where do_bench makes 8; slow configs are what make tuning slow).
  auto first = timedOnce();
  if (!first)
    return first.takeError();
  if (*first > repMs) {
    auto second = timedOnce();
    if (!second)
      return second.takeError();
    return double(*second);
  }
  // Estimate from 5 back-to-back runs.
  if (auto err = start->record(stream))
    return err;
  for (int i = 0; i < 5; ++i)
    if (auto err = once())
      return err;
  if (auto err = end->record(stream))
    return err;
  auto estimate = Event::elapsedMs(*start, *end);
  if (!estimate)
    return estimate.takeError();
  double per = std::max(double(*estimate) / 5, 1e-6);
  unsigned warmups = unsigned(std::clamp(warmupMs / per, 1.0, 1e5));
  // At least 5 timed runs: a median of fewer is one noisy sample.
  unsigned reps = per > repMs ? 1u
                              : unsigned(std::clamp(repMs / per, 5.0, 1000.0));

  for (unsigned i = 0; i < warmups; ++i)
    if (auto err = once())
      return err;
  std::vector<Event> starts, ends;
  for (unsigned i = 0; i < reps; ++i) {
    auto s = Event::create(device);
    if (!s)
      return s.takeError();
    auto e = Event::create(device);
    if (!e)
      return e.takeError();
    starts.push_back(std::move(*s));
    ends.push_back(std::move(*e));
  }
  for (unsigned i = 0; i < reps; ++i) {
    if (beforeEachRun)
      if (auto err = beforeEachRun())
        return err;
    if (auto err = starts[i].record(stream))
      return err;
    if (auto err = run())
      return err;
    if (auto err = ends[i].record(stream))
      return err;
  }
  if (auto err = sync())
    return err;
  std::vector<double> times;
  for (unsigned i = 0; i < reps; ++i) {
    auto ms = Event::elapsedMs(starts[i], ends[i]);
    if (!ms)
      return ms.takeError();
    times.push_back(*ms);
  }
  std::sort(times.begin(), times.end());
  size_t mid = times.size() / 2;
  return times.size() % 2 ? times[mid] : (times[mid - 1] + times[mid]) / 2;
}

//===----------------------------------------------------------------------===//
// Tuning buffers
//===----------------------------------------------------------------------===//

llvm::Expected<TuningBuffers>
TuningBuffers::create(Device &device, CUstream stream, const AutotuneSpec &spec,
                      llvm::StringRef kernelName,
                      llvm::ArrayRef<KernelParameter> params,
                      llvm::ArrayRef<Arg> args) {
  TuningBuffers tb;
  tb.device_ = &device;
  tb.stream_ = stream;
  auto lookup = [&](const std::string &name,
                    llvm::StringRef role) -> llvm::Expected<Buffer> {
    size_t argIndex = 0;
    for (const KernelParameter &p : params) {
      if (p.isConstexpr)
        continue;
      if (argIndex >= args.size())
        break;
      if (p.name == name) {
        const Arg &a = args[argIndex];
        if (a.isNone())
          return Buffer{};
        if (a.kind() != Arg::Kind::Pointer)
          return makeError(llvm::formatv(
              "kernel `{0}`: {1} names `{2}`, which is {3}, not a pointer",
              kernelName, role, name, a.describe()));
        if (a.pointer() == 0) // An empty tensor: nothing to save or zero.
          return Buffer{};
        if (a.bytes() == 0)
          return makeError(llvm::formatv(
              "kernel `{0}`: {1} names `{2}`, but its size is unknown: pass "
              "it as Arg::ptr(pointer, dtype, bytes)",
              kernelName, role, name));
        return Buffer{a.pointer(), a.bytes(), 0};
      }
      // A descriptor's parts and a tuple's elements are one parameter's.
      argIndex += argSpan(args, argIndex);
    }
    return makeError(llvm::formatv(
        "kernel `{0}`: {1} names `{2}`, which is not a pointer parameter",
        kernelName, role, name));
  };
  for (const std::string &name : spec.resetToZero) {
    auto b = lookup(name, "reset_to_zero");
    if (!b)
      return b.takeError();
    if (b->ptr)
      tb.reset_.push_back(*b);
  }
  for (const std::string &name : spec.restoreValue) {
    auto b = lookup(name, "restore_value");
    if (!b)
      return b.takeError();
    if (b->ptr)
      tb.restore_.push_back(*b);
  }
  return std::move(tb);
}

TuningBuffers::~TuningBuffers() { freeSaved(); }

void TuningBuffers::freeSaved() {
  for (Buffer &b : restore_)
    if (b.saved) {
      llvm::consumeError(device_->makeCurrent());
      device_->driver().cuMemFree(b.saved);
      b.saved = 0;
    }
}

llvm::Error TuningBuffers::save() {
  if (restore_.empty())
    return llvm::Error::success();
  const Driver &drv = device_->driver();
  if (auto err = device_->makeCurrent())
    return err;
  // The user's work on the stream must land before the copy is taken.
  if (auto err = drv.check(drv.cuStreamSynchronize(stream_),
                           "cuStreamSynchronize before autotuning"))
    return err;
  for (Buffer &b : restore_) {
    if (auto err = drv.check(drv.cuMemAlloc(&b.saved, b.bytes),
                             llvm::formatv("allocating {0} bytes to save a "
                                           "restore_value buffer",
                                           b.bytes)
                                 .str()))
      return err;
    if (auto err = drv.check(drv.cuMemcpyDtoD(b.saved, b.ptr, b.bytes),
                             "saving a restore_value buffer (cuMemcpyDtoD)"))
      return err;
  }
  return llvm::Error::success();
}

llvm::Error TuningBuffers::restore() {
  if (restore_.empty())
    return llvm::Error::success();
  const Driver &drv = device_->driver();
  if (auto err = device_->makeCurrent())
    return err;
  if (auto err = drv.check(drv.cuStreamSynchronize(stream_),
                           "cuStreamSynchronize while autotuning"))
    return err;
  for (Buffer &b : restore_)
    if (b.saved)
      if (auto err = drv.check(drv.cuMemcpyDtoD(b.ptr, b.saved, b.bytes),
                               "restoring a restore_value buffer "
                               "(cuMemcpyDtoD)"))
        return err;
  return llvm::Error::success();
}

llvm::Error TuningBuffers::zero() {
  const Driver &drv = device_->driver();
  for (const Buffer &b : reset_)
    if (auto err = drv.check(drv.cuMemsetD8Async(b.ptr, 0, b.bytes, stream_),
                             "zeroing a reset_to_zero buffer "
                             "(cuMemsetD8Async)"))
      return err;
  return llvm::Error::success();
}

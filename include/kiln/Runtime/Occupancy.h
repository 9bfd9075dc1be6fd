//===- Occupancy.h - Programs per SM and the builds that raise it --------===//
//
// The driver's JIT compiles every kernel for instruction-level parallelism
// within the `.maxntid` bound Kiln's PTX carries: ptxas spends registers on
// loads in flight. That is what a grid of few programs needs (one program
// per SM walking 3000 rows: the corpus's column maxima at 32 registers run
// 4.5x slower than at 54). A grid larger than the device holds at once may
// need the opposite: more programs per SM (the corpus's LayerNorm forward
// at 54 registers fits 4 programs of 256 threads per SM, Triton's build of
// it at 40 fits 6, and runs 1.13x faster on the H200). Which wins depends
// on the kernel more than on its registers: the tuned LayerNorm of
// examples/layernorm/layer_norm_fast.py (one 4096-wide row per 4-warp
// program, its loads all in flight) runs 10 % slower capped.
// So the runtime keeps both: the kernel's own build, and for grids of more
// programs than the SMs hold at once, a second build of the same PTX that
// fits more programs per SM, built on the first such launch: under a
// `.maxnreg` cap (kept only when ptxas met it without spilling), or where no
// cap is planned or the cap spilled, the whole program compiled at once, as
// Triton's ptxas does, which allocates for occupancy by itself (Liger's
// SwiGLU forward at 16384 columns: 111 registers linked, 37 whole, 1 -> 3
// programs of 512 threads per SM, 1.16x faster on the H200). The first few
// such launches alternate between the two, timed with events, and the rest
// run the faster.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_RUNTIME_OCCUPANCY_H
#define KILN_RUNTIME_OCCUPANCY_H

#include "kiln/Runtime/Device.h"
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace kiln::rt {

/// Programs of `threads` threads, `registers` registers each and
/// `sharedBytes` of shared memory that one SM of `lim` holds at once.
unsigned residentPrograms(const DeviceLimits &lim, unsigned registers,
                          unsigned threads, uint64_t sharedBytes);

struct RegisterCap {
  unsigned registers = 0;          ///< The `.maxnreg` bound.
  /// The largest cap of the first step up, when `registers` is a further
  /// step (tried if ptxas spills at `registers`); 0 otherwise.
  unsigned firstStepRegisters = 0;
  unsigned programsPerSM = 0;      ///< Resident with the kernel's own build.
  unsigned cappedProgramsPerSM = 0; ///< Resident under the cap.
};

/// The cap for a kernel built with `registers` registers per thread: the
/// largest register count that reaches the most programs per SM without
/// going below 60 % of `registers` (further, ptxas trades loads in flight
/// for registers). Nullopt unless that fits more programs (shared memory or
/// the thread limit may bound them); whether it runs faster is measured.
std::optional<RegisterCap> planRegisterCap(const DeviceLimits &lim,
                                           unsigned registers, unsigned threads,
                                           uint64_t sharedBytes);

/// `ptx` with its kernel's `.maxnreg` set to `registers` (replacing one the
/// PTX has, else after its `.maxntid` line); nullopt without either.
std::optional<std::string> withRegisterCap(std::string_view ptx,
                                           unsigned registers);

enum class RegisterCapMode { Auto, On, Off };
/// KILN_OCCUPANCY: unset or "auto" measures, on a kernel's first large
/// grids, whether the higher-occupancy build (capped or whole-program) is
/// faster and keeps the faster; "on" always runs it for large grids; "off"
/// never builds it. Another value: false, with `error` naming it.
bool registerCapMode(RegisterCapMode &mode, std::string &error);

/// Whether this thread's launches leave undecided higher-occupancy builds
/// alone: a launch of a kernel whose choice is still being measured runs the
/// own build, neither building nor timing the other. Autotuners set it while
/// they time configs: the measurement (the capped build JIT-linked at the
/// first large launch, then builds alternating under events) otherwise runs
/// inside a config's timed launches (fla's l2norm on the H200: 17 of 25
/// configs timed at 1.3-3.9x their kernel time, none with KILN_OCCUPANCY=off;
/// docs/performance.md, session 54). Returns the previous setting.
bool setOccupancyPaused(bool paused);
bool occupancyPaused();

/// Pauses the measurement on this thread for its lifetime.
class OccupancyPause {
public:
  OccupancyPause() : previous_(setOccupancyPaused(true)) {}
  ~OccupancyPause() { setOccupancyPaused(previous_); }
  OccupancyPause(const OccupancyPause &) = delete;
  OccupancyPause &operator=(const OccupancyPause &) = delete;

private:
  bool previous_;
};

} // namespace kiln::rt

#endif // KILN_RUNTIME_OCCUPANCY_H

//===- OccupancyFakeTest.cpp - Higher-occupancy builds for large grids ----===//
//
// Programs per SM and the register cap (pure functions, checked against
// ncu's theoretical occupancy on the H200), then the launch path against the
// stand-in driver, which reports KILN_FAKE_REGISTERS registers within the
// PTX's `.maxnreg` (KILN_FAKE_WHOLE_REGISTERS for PTX loaded as a whole
// program) and spills below KILN_FAKE_SPILLS_BELOW.
//
//===----------------------------------------------------------------------===//
#include "FakeDriver.h"
#include "kiln/Runtime/Cache.h"
#include "kiln/Runtime/Module.h"
#include "kiln/Runtime/Occupancy.h"
#include "gtest/gtest.h"
#include <cstdlib>

using namespace kiln;
using namespace kiln::rt;
using namespace kiln::rt::fakedrv;

namespace {

TEST(Occupancy, ResidentProgramsFollowRegistersThreadsAndSharedMemory) {
  DeviceLimits sm90;
  // ncu, H200, 256 threads: 54 registers 50 % (4 programs), 50 the same,
  // 42 62.5 % (5), 40 75 % (6), 32 100 % (8).
  EXPECT_EQ(residentPrograms(sm90, 54, 256, 0), 4u);
  EXPECT_EQ(residentPrograms(sm90, 50, 256, 0), 4u);
  EXPECT_EQ(residentPrograms(sm90, 42, 256, 0), 5u);
  EXPECT_EQ(residentPrograms(sm90, 40, 256, 0), 6u);
  EXPECT_EQ(residentPrograms(sm90, 32, 256, 0), 8u);
  EXPECT_EQ(residentPrograms(sm90, 255, 128, 0), 2u); // ncu: 12.5 % at 4 warps
  // Threads bound small kernels, then the 32-program limit.
  EXPECT_EQ(residentPrograms(sm90, 16, 1024, 0), 2u);
  EXPECT_EQ(residentPrograms(sm90, 16, 32, 0), 32u);
  // Shared memory: 1 KB per program is the driver's.
  EXPECT_EQ(residentPrograms(sm90, 32, 128, 100 * 1024), 2u);
  EXPECT_EQ(residentPrograms(sm90, 32, 128, 227 * 1024), 1u);
  EXPECT_EQ(residentPrograms(sm90, 32, 0, 0), 0u);
}

TEST(Occupancy, CapsReachTheHighestStepWithinSixtyPercent) {
  DeviceLimits sm90;
  auto plan = [&](unsigned regs, unsigned threads, uint64_t smem = 0) {
    auto p = planRegisterCap(sm90, regs, threads, smem);
    return p ? std::to_string(p->registers) + ":" +
                   std::to_string(p->programsPerSM) + "->" +
                   std::to_string(p->cappedProgramsPerSM)
             : std::string("none");
  };
  EXPECT_EQ(plan(54, 256), "40:4->6"); // the corpus's LayerNorm forward
  EXPECT_EQ(plan(42, 256), "32:5->8"); // its online softmax
  // Its cross-entropy backward: 32 spills, so its launches fall back to the
  // first step up, 48 (H200: 1.13x faster than its own build).
  EXPECT_EQ(plan(50, 256), "32:4->8");
  EXPECT_EQ(planRegisterCap(sm90, 50, 256, 0)->firstStepRegisters, 48u);
  EXPECT_EQ(plan(56, 256), "40:4->6"); // the tutorial's, 4096 columns (34 floor)
  // Down to 60 % (timed at launch): the corpus's cross-entropy forward (the
  // floor 29), the tutorial's backward at 1024 columns.
  EXPECT_EQ(plan(47, 256), "32:5->8");
  EXPECT_EQ(plan(48, 128), "32:10->16");
  EXPECT_EQ(plan(40, 256), "32:6->8");
  EXPECT_EQ(plan(64, 128), "40:8->12");
  EXPECT_EQ(plan(80, 128), "48:6->10");
  EXPECT_EQ(plan(32, 256), "none"); // 8 programs fill 2048 threads
  // The tutorial's backward under its 128 cap: 80 fits a third program.
  EXPECT_EQ(plan(128, 256), "80:2->3");
  // lightllm's flash decoding stage 1 (1 warp; the 32-program limit) and
  // its GELU gate (255 registers, 4 warps).
  EXPECT_EQ(plan(95, 32), "64:21->32");
  EXPECT_EQ(plan(255, 128), "168:2->3");
  EXPECT_EQ(plan(24, 128), "none");
  // Liger's SwiGLU forward at 16384 columns (16 warps): 1 program per SM,
  // and the next step, 64 registers, is below 78 (the whole-program build
  // is its alternative).
  EXPECT_EQ(plan(111, 512), "none");
  // Shared memory already bounds the programs: registers cannot help.
  EXPECT_EQ(plan(54, 256, 96 * 1024), "none");
  // The first step up, tried when the cap spills: 48 fits 5 of 256 threads.
  EXPECT_EQ(planRegisterCap(sm90, 54, 256, 0)->firstStepRegisters, 48u);
  EXPECT_EQ(planRegisterCap(sm90, 56, 256, 0)->firstStepRegisters, 48u);
  EXPECT_EQ(planRegisterCap(sm90, 47, 256, 0)->firstStepRegisters, 40u);
  EXPECT_EQ(planRegisterCap(sm90, 40, 256, 0)->firstStepRegisters, 0u); // one step
}

TEST(Occupancy, CapsGoIntoThePTX) {
  std::string ptx = ".visible .entry k(\n)\n.maxntid 256, 1, 1\n.maxnreg 128\n{\n}\n";
  EXPECT_EQ(*withRegisterCap(ptx, 40),
            ".visible .entry k(\n)\n.maxntid 256, 1, 1\n.maxnreg 40\n{\n}\n");
  std::string unbounded = ".visible .entry k(\n)\n.maxntid 128, 1, 1\n{\n}\n";
  EXPECT_EQ(*withRegisterCap(unbounded, 72),
            ".visible .entry k(\n)\n.maxntid 128, 1, 1\n.maxnreg 72\n{\n}\n");
  // Only directives at the start of a line count.
  EXPECT_FALSE(withRegisterCap("// .maxntid 1\n.entry k()\n{\n}\n", 40));
}

TEST(Occupancy, TheSwitchIsCheckedByName) {
  RegisterCapMode mode = RegisterCapMode::Off;
  std::string error;
  ::unsetenv("KILN_OCCUPANCY");
  EXPECT_TRUE(registerCapMode(mode, error) && mode == RegisterCapMode::Auto);
  ::setenv("KILN_OCCUPANCY", " Off ", 1);
  EXPECT_TRUE(registerCapMode(mode, error) && mode == RegisterCapMode::Off);
  ::setenv("KILN_OCCUPANCY", "on", 1);
  EXPECT_TRUE(registerCapMode(mode, error) && mode == RegisterCapMode::On);
  ::setenv("KILN_OCCUPANCY", "AUTO", 1);
  EXPECT_TRUE(registerCapMode(mode, error) && mode == RegisterCapMode::Auto);
  ::setenv("KILN_OCCUPANCY", "1", 1);
  EXPECT_FALSE(registerCapMode(mode, error));
  EXPECT_EQ(error, "KILN_OCCUPANCY=\"1\": expected auto (time the higher-occupancy "
                   "build on the first large grids and keep the faster), on (always "
                   "that build for grids larger than the device holds at once) or off");
  ::unsetenv("KILN_OCCUPANCY");
}

/// An 8-warp kernel (PTX as Kiln emits it: `.maxntid`, `.maxnreg 128`).
CompiledKernel eightWarps(const std::string &name, unsigned warps = 8) {
  CompiledKernel k;
  k.info.name = name;
  ParamSpec p;
  p.kind = ParamSpec::Kind::Pointer;
  p.dtype = DType::F32;
  k.info.params = {KernelInfo::Param{"X", p}};
  k.info.numWarps = warps;
  k.ptx = ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry " + name +
          "(\n\t.param .u64 X\n)\n.maxntid " + std::to_string(warps * 32) +
          ", 1, 1\n.maxnreg 128\n{\n\tret;\n}\n";
  return k;
}

constexpr int kWhole = -2;

struct OccupancyFake : FakeDriver {
  void TearDown() override {
    for (const char *v : {"KILN_FAKE_REGISTERS", "KILN_FAKE_WHOLE_REGISTERS",
                          "KILN_FAKE_SPILLS_BELOW", "KILN_OCCUPANCY"})
      ::unsetenv(v);
  }
  /// The `.maxnreg` of the build each grid ran (0: none, 128: the kernel's
  /// own; kWhole: the own PTX loaded as a whole program).
  std::vector<int> capsLaunched(const CompiledKernel &k, std::vector<unsigned> grids,
                                std::string *error = nullptr) {
    auto buf = DeviceBuffer::alloc(*dev, 64);
    EXPECT_TRUE(bool(buf));
    Kernel kernel = Kernel::fromCompiled(k);
    std::vector<int> caps;
    for (unsigned g : grids) {
      int before = fake().launchCount();
      if (auto err = kernel.launch(Grid(g), {Arg::ptr(buf->ptr(), DType::F32)})) {
        if (error)
          *error = llvm::toString(std::move(err));
        else
          ADD_FAILURE() << llvm::toString(std::move(err));
        return caps;
      }
      int last = fake().launchCount() - 1;
      caps.push_back(last < before                       ? -1
                     : fake().launchWholeProgram(last) == 1 ? kWhole
                                                            : fake().launchRegisterCap(last));
    }
    return caps;
  }
};

TEST_F(OccupancyFake, GridsLargerThanTheDeviceHoldsRunTheCappedBuild) {
  // 54 registers at 256 threads: 4 programs per SM, 528 on 132 SMs; capped
  // at 40, 6. Built once, on the first grid above 528 (`on`: not timed).
  ::setenv("KILN_FAKE_REGISTERS", "54", 1);
  ::setenv("KILN_OCCUPANCY", "on", 1);
  int links = fake().calls("cuLinkCreate");
  EXPECT_EQ(capsLaunched(eightWarps("kiln_occ_large"), {100, 528, 529, 16384, 3}),
            (std::vector<int>{128, 128, 40, 40, 128}));
  EXPECT_EQ(fake().calls("cuLinkCreate"), links + 2);
}

TEST_F(OccupancyFake, ACapThatSpillsFallsBackToTheFirstStepUp) {
  // 54 registers: 40 fits 6 programs per SM but spills; 48 fits 5.
  ::setenv("KILN_FAKE_REGISTERS", "54", 1);
  ::setenv("KILN_OCCUPANCY", "on", 1);
  ::setenv("KILN_FAKE_SPILLS_BELOW", "48", 1);
  EXPECT_EQ(capsLaunched(eightWarps("kiln_occ_first_step"), {5000, 100, 5000}),
            (std::vector<int>{48, 128, 48}));
}

TEST_F(OccupancyFake, CapsThatSpillOrCannotPayAreNotUsed) {
  ::setenv("KILN_FAKE_REGISTERS", "54", 1);
  ::setenv("KILN_OCCUPANCY", "on", 1);
  ::setenv("KILN_FAKE_SPILLS_BELOW", "56", 1); // both steps spill
  EXPECT_EQ(capsLaunched(eightWarps("kiln_occ_spills"), {5000, 5000}),
            (std::vector<int>{128, 128}));
  ::unsetenv("KILN_FAKE_SPILLS_BELOW");
  ::setenv("KILN_FAKE_REGISTERS", "32", 1); // 8 programs: the SM is full
  int links = fake().calls("cuLinkCreate");
  EXPECT_EQ(capsLaunched(eightWarps("kiln_occ_full"), {5000}), (std::vector<int>{128}));
  EXPECT_EQ(fake().calls("cuLinkCreate"), links + 1);
}

TEST_F(OccupancyFake, WithoutACapLargeGridsRunTheWholeProgramBuild) {
  // Liger's SwiGLU forward: 16 warps, 111 registers through the linker (1
  // program per SM, no cap within 70 %), 37 as a whole program (3).
  ::setenv("KILN_FAKE_REGISTERS", "111", 1);
  ::setenv("KILN_FAKE_WHOLE_REGISTERS", "37", 1);
  ::setenv("KILN_OCCUPANCY", "on", 1);
  int links = fake().calls("cuLinkCreate");
  int wholes = fake().calls("cuModuleLoadDataEx(PTX)");
  EXPECT_EQ(capsLaunched(eightWarps("kiln_occ_whole", 16), {132, 133, 8192, 7}),
            (std::vector<int>{128, kWhole, kWhole, 128}));
  EXPECT_EQ(fake().calls("cuLinkCreate"), links + 1);
  EXPECT_EQ(fake().calls("cuModuleLoadDataEx(PTX)"), wholes + 1);
}

TEST_F(OccupancyFake, WholeProgramBuildsThatFitNoMoreProgramsAreDropped) {
  ::setenv("KILN_FAKE_REGISTERS", "111", 1);
  ::setenv("KILN_FAKE_WHOLE_REGISTERS", "100", 1); // still 1 program per SM
  ::setenv("KILN_OCCUPANCY", "on", 1);
  EXPECT_EQ(capsLaunched(eightWarps("kiln_occ_whole_dropped", 16), {8192, 8192}),
            (std::vector<int>{128, 128}));
}

TEST_F(OccupancyFake, ACapThatSpillsGivesWayToTheWholeProgramBuild) {
  // Capped at 40 or 48 the kernel spills; as a whole program it takes 40
  // without.
  ::setenv("KILN_FAKE_REGISTERS", "54", 1);
  ::setenv("KILN_FAKE_WHOLE_REGISTERS", "40", 1);
  ::setenv("KILN_FAKE_SPILLS_BELOW", "56", 1);
  ::setenv("KILN_OCCUPANCY", "on", 1);
  EXPECT_EQ(capsLaunched(eightWarps("kiln_occ_spill_whole"), {5000, 100}),
            (std::vector<int>{kWhole, 128}));
}

TEST_F(OccupancyFake, AutoTimesTheWholeProgramBuildToo) {
  ::setenv("KILN_FAKE_REGISTERS", "111", 1);
  ::setenv("KILN_FAKE_WHOLE_REGISTERS", "37", 1);
  fake().setKernelTime("<whole-program>", 0, 0.8f);
  EXPECT_EQ(capsLaunched(eightWarps("kiln_occ_whole_auto", 16),
                         {8192, 8192, 8192, 8192, 8192, 8192, 8192, 8192, 8192, 8192}),
            (std::vector<int>{128, kWhole, 128, kWhole, 128, kWhole, 128, kWhole, kWhole,
                              kWhole}));
  fake().reset();
  fake().setKernelTime("<whole-program>", 0, 1.5f); // the column reductions
  EXPECT_EQ(capsLaunched(eightWarps("kiln_occ_whole_slow", 16),
                         {8192, 8192, 8192, 8192, 8192, 8192, 8192, 8192, 8192}),
            (std::vector<int>{128, kWhole, 128, kWhole, 128, kWhole, 128, kWhole, 128}));
}

TEST_F(OccupancyFake, CappedCubinsAreCachedOnDisk) {
  // A kernel compiled from source (8 warps, PTX with `.maxnreg 128`): its
  // own cubin and the capped one both come from the disk cache once the
  // memory caches are gone.
  ::setenv("KILN_FAKE_REGISTERS", "54", 1);
  ::setenv("KILN_OCCUPANCY", "on", 1);
  TempDir dir;
  ModuleOptions mo;
  mo.cache = CacheConfig{true, dir.str(), /*log=*/true};
  Module m = Module::fromSource(R"(import triton
import triton.language as tl


@triton.jit
def twice(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) * 2, mask=offs < n)
)",
                                "twice.py", mo);
  Kernel k = llvm::cantFail(m.kernel("twice"));
  auto buf = DeviceBuffer::alloc(*dev, 4096);
  ASSERT_TRUE(bool(buf));
  LaunchOptions o;
  o.numWarps = 8;
  o.constexprs.emplace("BLOCK", 1024);
  std::vector<Arg> args = {Arg::ptr(buf->ptr(), DType::F32), Arg::integer(1000)};
  auto launchCap = [&](unsigned grid) {
    int before = fake().launchCount();
    if (auto err = k.launch(Grid(grid), args, o)) {
      ADD_FAILURE() << llvm::toString(std::move(err));
      return -1;
    }
    return fake().launchCount() > before ? fake().launchRegisterCap(before) : -1;
  };
  clearMemoryCaches();
  int links = fake().calls("cuLinkCreate");
  testing::internal::CaptureStderr();
  EXPECT_EQ(launchCap(5000), 40);
  std::string log = testing::internal::GetCapturedStderr();
  EXPECT_EQ(fake().calls("cuLinkCreate"), links + 2);
  EXPECT_NE(log.find("kiln[cache]: kernel twice: 54 registers, 4 programs per SM; a build "
                     "capped at 40 registers (6 per SM) for grids above 528 programs"),
            std::string::npos)
      << log;
  EXPECT_NE(log.find("kiln[cache]: kernel twice: register-capped build, 40 registers"),
            std::string::npos)
      << log;

  clearMemoryCaches();
  EXPECT_EQ(launchCap(5000), 40);
  EXPECT_EQ(launchCap(100), 128);
  EXPECT_EQ(fake().calls("cuLinkCreate"), links + 2); // both from disk
}

TEST_F(OccupancyFake, AutoKeepsTheBuildItMeasuredFaster) {
  // The first 8 large grids alternate between the builds, timed with events
  // (the stand-in driver runs PTX with `.maxnreg 40` in 0.5 ms, the rest in
  // 1 ms); then the faster runs. Small grids never take part.
  ::setenv("KILN_FAKE_REGISTERS", "54", 1);
  fake().setKernelTime(".maxnreg 40", 0, 0.5f);
  int events = fake().calls("cuEventRecord");
  EXPECT_EQ(capsLaunched(eightWarps("kiln_occ_auto_fast"),
                         {5000, 100, 5000, 5000, 5000, 5000, 5000, 5000, 5000, 5000, 5000, 100}),
            (std::vector<int>{128, 128, 40, 128, 40, 128, 40, 128, 40, 40, 40, 128}));
  EXPECT_EQ(fake().calls("cuEventRecord"), events + 16);
}

TEST_F(OccupancyFake, AutoKeepsTheOwnBuildWhenTheCapIsNotFaster) {
  ::setenv("KILN_FAKE_REGISTERS", "54", 1);
  fake().setKernelTime(".maxnreg 40", 0, 0.98f); // within 3 %: not worth it
  EXPECT_EQ(capsLaunched(eightWarps("kiln_occ_auto_close"),
                         {5000, 5000, 5000, 5000, 5000, 5000, 5000, 5000, 5000, 5000}),
            (std::vector<int>{128, 40, 128, 40, 128, 40, 128, 40, 128, 128}));
  fake().reset();
  fake().setKernelTime(".maxnreg 40", 0, 2.0f);
  EXPECT_EQ(capsLaunched(eightWarps("kiln_occ_auto_slow"),
                         {5000, 5000, 5000, 5000, 5000, 5000, 5000, 5000, 5000}),
            (std::vector<int>{128, 40, 128, 40, 128, 40, 128, 40, 128}));
}

TEST_F(OccupancyFake, AutoWaitsWhileTheLaunchingThreadIsPaused) {
  // An autotuner timing configs pauses the measurement: its launches run
  // the own build, nothing is linked or timed; the measurement starts with
  // the first large launch after.
  ::setenv("KILN_FAKE_REGISTERS", "54", 1);
  fake().setKernelTime(".maxnreg 40", 0, 0.5f);
  int links = fake().calls("cuLinkCreate"), events = fake().calls("cuEventRecord");
  {
    OccupancyPause pause;
    EXPECT_EQ(capsLaunched(eightWarps("kiln_occ_paused"), {5000, 5000, 5000}),
              (std::vector<int>{128, 128, 128}));
    EXPECT_EQ(fake().calls("cuLinkCreate"), links + 1); // the own build only
    EXPECT_EQ(fake().calls("cuEventRecord"), events);
  }
  EXPECT_FALSE(occupancyPaused());
  EXPECT_EQ(capsLaunched(eightWarps("kiln_occ_paused"),
                         {5000, 5000, 5000, 5000, 5000, 5000, 5000, 5000, 5000, 5000}),
            (std::vector<int>{128, 40, 128, 40, 128, 40, 128, 40, 40, 40}));
  EXPECT_EQ(fake().calls("cuLinkCreate"), links + 2);
  EXPECT_EQ(fake().calls("cuEventRecord"), events + 16);
}

TEST_F(OccupancyFake, TheSwitchTurnsCapsOff) {
  ::setenv("KILN_FAKE_REGISTERS", "54", 1);
  ::setenv("KILN_OCCUPANCY", "off", 1);
  EXPECT_EQ(capsLaunched(eightWarps("kiln_occ_off"), {5000}), (std::vector<int>{128}));
  ::setenv("KILN_OCCUPANCY", "most", 1);
  std::string error;
  capsLaunched(eightWarps("kiln_occ_bad_switch"), {5000}, &error);
  EXPECT_EQ(error, "KILN_OCCUPANCY=\"most\": expected auto (time the higher-occupancy "
                   "build on the first large grids and keep the faster), on (always "
                   "that build for grids larger than the device holds at once) or off");
}

} // namespace

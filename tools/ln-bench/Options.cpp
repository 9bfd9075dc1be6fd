//===- Options.cpp - ln-bench command line --------------------------------===//
#include "Options.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include <cstdlib>

using namespace kiln;

namespace kiln::lnbench {

void usage(llvm::raw_ostream &os) {
  os << "usage: ln-bench [options]\n"
        "Times Kiln's LayerNorm forward and backward kernels on a GPU.\n\n"
        "  --quick              a short run: M=4096 N=1024,4096,8192 and\n"
        "                       M=65536 N=2048 (fp16 unless --dtypes)\n"
        "  --dtypes LIST        comma list of fp16, bf16, fp32 (default: all)\n"
        "  --shapes LIST        comma list of MxN (default: M=4096 with\n"
        "                       N=512..16384 step 512, M=65536 with\n"
        "                       N=1024,2048,4096,8192)\n"
        "  --reps N             timed repetitions per measurement (>= 100)\n"
        "  --warmup N           untimed runs first (default 10)\n"
        "  --device N           CUDA device ordinal (default 0)\n"
        "  --json FILE          write the results as JSON\n"
        "  --no-compile-times   skip the cold/warm compile measurement\n"
        "  --no-launch-overhead skip the host launch-cost measurement\n"
        "  --compile-only       no GPU: compile every kernel variant the sweep\n"
        "                       needs (fresh cache) and report compile times\n"
        "  --arch sm_XY         target of --compile-only (default sm_90)\n"
        "  --plan               no GPU: print the fused norm's plan (kernels,\n"
        "                       warps, grids) for each dtype, shape and option\n"
        "                       set as JSON lines\n"
        "  --sms N              the SM count --plan assumes (default 132)\n"
        "  --help               this text\n";
}

llvm::Expected<Options> parseArgs(int argc, char **argv) {
  Options o;
  bool dtypesGiven = false, shapesGiven = false;
  auto fail = [](const llvm::Twine &t) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "ln-bench: " + t);
  };
  for (int i = 1; i < argc; ++i) {
    llvm::StringRef a = argv[i];
    auto value = [&]() -> llvm::Expected<llvm::StringRef> {
      if (a.contains('='))
        return a.split('=').second;
      if (i + 1 >= argc)
        return fail("option " + a + " needs a value");
      return llvm::StringRef(argv[++i]);
    };
    llvm::StringRef name = a.split('=').first;
    auto intValue = [&](int &out, int min) -> llvm::Error {
      auto v = value();
      if (!v)
        return v.takeError();
      if (v->getAsInteger(10, out) || out < min)
        return fail(llvm::formatv("{0} needs an integer >= {1}, got `{2}`",
                                  name, min, *v)
                        .str());
      return llvm::Error::success();
    };
    auto stringValue = [&](std::string &out) -> llvm::Error {
      auto v = value();
      if (!v)
        return v.takeError();
      out = v->str();
      return llvm::Error::success();
    };
    auto listValue =
        [&]() -> llvm::Expected<llvm::SmallVector<llvm::StringRef>> {
      auto v = value();
      if (!v)
        return v.takeError();
      llvm::SmallVector<llvm::StringRef> parts;
      v->split(parts, ',', -1, false);
      return parts;
    };
    if (name == "--help" || name == "-h") {
      usage(llvm::outs());
      std::exit(0);
    } else if (name == "--quick") {
      o.quick = true;
    } else if (name == "--no-compile-times") {
      o.compileTimes = false;
    } else if (name == "--no-launch-overhead") {
      o.launchOverhead = false;
    } else if (name == "--compile-only") {
      o.compileOnly = true;
    } else if (name == "--plan") {
      o.plan = true;
    } else if (name == "--sms") {
      if (auto e = intValue(o.multiprocessors, 1))
        return std::move(e);
    } else if (name == "--arch") {
      if (auto e = stringValue(o.arch))
        return std::move(e);
    } else if (name == "--reps") {
      if (auto e = intValue(o.reps, 100))
        return std::move(e);
    } else if (name == "--warmup") {
      if (auto e = intValue(o.warmup, 1))
        return std::move(e);
    } else if (name == "--device") {
      if (auto e = intValue(o.device, 0))
        return std::move(e);
    } else if (name == "--json") {
      if (auto e = stringValue(o.jsonPath))
        return std::move(e);
    } else if (name == "--dtypes") {
      auto parts = listValue();
      if (!parts)
        return parts.takeError();
      for (llvm::StringRef p : *parts) {
        auto t = parseDTypeName(p.trim());
        if (!t || (*t != DType::F16 && *t != DType::BF16 && *t != DType::F32))
          return fail("--dtypes: `" + p + "` is not fp16, bf16 or fp32");
        o.dtypes.push_back(*t);
      }
      dtypesGiven = true;
    } else if (name == "--shapes") {
      auto parts = listValue();
      if (!parts)
        return parts.takeError();
      for (llvm::StringRef p : *parts) {
        auto [m, n] = p.trim().split('x');
        int64_t M = 0, N = 0;
        if (m.getAsInteger(10, M) || n.getAsInteger(10, N) || M < 1 || N < 1)
          return fail("--shapes: `" + p + "` is not MxN with M, N >= 1");
        o.shapes.push_back({M, N});
      }
      shapesGiven = true;
    } else {
      return fail("unknown option `" + a + "` (see --help)");
    }
  }
  if (!dtypesGiven)
    o.dtypes = o.quick ? std::vector<DType>{DType::F16}
                       : std::vector<DType>{DType::F16, DType::BF16,
                                            DType::F32};
  if (!shapesGiven) {
    if (o.quick) {
      o.shapes = {{4096, 1024}, {4096, 4096}, {4096, 8192}, {65536, 2048}};
    } else {
      for (int64_t n = 512; n <= 16384; n += 512)
        o.shapes.push_back({4096, n});
      for (int64_t n : {1024, 2048, 4096, 8192})
        o.shapes.push_back({65536, n});
    }
  }
  return o;
}

} // namespace kiln::lnbench

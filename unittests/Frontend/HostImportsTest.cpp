//===- HostImportsTest.cpp - Host values imported from other modules ------===//
//
// The host evaluator reads names imported from the package's other modules
// in those modules (HostEvalModules.cpp): values, calls, defaults, module
// attributes, star imports, imports inside functions; and the errors that
// remain (a module not found, a value not evaluable, an import cycle).
//
//===----------------------------------------------------------------------===//
#include "HostEval.h"
#include "kiln/Frontend/Decorators.h"
#include "kiln/Frontend/Imports.h"
#include "kiln/Frontend/Syntax/Parser.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"
#include <thread>

using namespace kiln;
using namespace kiln::host;

namespace {

/// A package on disk for one test: `root/` (a package root) holding files.
class Package {
public:
  Package() {
    llvm::SmallString<128> dir;
    EXPECT_FALSE(llvm::sys::fs::createUniqueDirectory("kiln-hostimports", dir));
    root = dir.str().str();
  }
  ~Package() { llvm::sys::fs::remove_directories(root); }
  /// Writes `text` to root/`rel`, creating its directories.
  std::string write(llvm::StringRef rel, llvm::StringRef text) {
    llvm::SmallString<128> p(root);
    llvm::sys::path::append(p, rel);
    EXPECT_FALSE(llvm::sys::fs::create_directories(llvm::sys::path::parent_path(p)));
    std::error_code ec;
    llvm::raw_fd_ostream os(p, ec);
    EXPECT_FALSE(ec) << ec.message();
    os << text;
    return p.str().str();
  }
  std::string root;
};

/// Module-level `name` of the file at `path` (read from disk), evaluated
/// with `root` as the package root: its repr, or the error's
/// "LINE:COL: message" in that file.
std::string evalIn(const std::string &path, const std::string &root,
                   const char *name = "R") {
  auto buf = llvm::MemoryBuffer::getFile(path);
  if (!buf)
    return "cannot read " + path;
  std::string file = (*buf)->getBuffer().str();
  fe::ParseResult pr = fe::parse(file);
  if (pr.error)
    return "parse error: " + pr.error->message;
  ModuleScope scope(*pr.module);
  Interp in(scope, file, std::make_shared<ModuleSet>(path, std::vector<std::string>{root}));
  std::optional<Value> v = in.global(name, nullptr);
  if (v)
    return repr(*v);
  auto [line, col] = ast::LineTable(file).lineCol(in.error().offset);
  return std::to_string(line) + ":" + std::to_string(col) + ": " + in.error().message;
}

TEST(HostImports, OneStatementBindsSeveralNames) {
  // Each name its own value (they were cached by statement: `Config` then
  // read as `cdiv`).
  Package pkg;
  std::string main = pkg.write("m.py", R"(from triton import cdiv, Config
import triton
N = cdiv(100, 32)
R = (Config, N, cdiv)
)");
  EXPECT_EQ(evalIn(main, pkg.root, "Config"), "<builtin function triton.Config>");
  EXPECT_EQ(evalIn(main, pkg.root, "R"),
            "(<builtin function triton.Config>, 4, <builtin function triton.cdiv>)");
}

TEST(HostImports, ValuesOfOtherModules) {
  Package pkg;
  pkg.write("app/__init__.py", "");
  pkg.write("app/conf.py", R"(import logging
from .sizes import *
from lib.consts import SCALE

log = logging.getLogger(__name__)
WARPS = [4, 8]

def blocks(n, scale=SCALE):
    log.debug(f"blocks for {n}")
    from .sizes import SMALL
    return [SMALL * scale * k for k in range(1, n + 1)]

def name():
    return __name__
)");
  pkg.write("app/sizes.py", R"(__all__ = ["SMALL", "LARGE"]
SMALL = 16
LARGE = 256
HIDDEN = 1
)");
  pkg.write("lib/__init__.py", "VERSION = 3\n");
  pkg.write("lib/consts.py", "SCALE = 2\n");
  std::string main = pkg.write("app/main.py", R"(from .conf import WARPS, blocks, LARGE, name
from . import conf
from .conf import HIDDEN
import lib.consts
import lib as L
from .sizes import *

R = (WARPS, blocks(2), blocks(1, scale=1), LARGE, conf.SMALL, lib.consts.SCALE,
     L.VERSION, name(), conf.WARPS == WARPS)
HIDE = HIDDEN
S = SMALL * 2
)");
  EXPECT_EQ(evalIn(main, pkg.root),
            "([4, 8], [32, 64], [16], 256, 16, 2, 3, 'app.conf', True)");
  EXPECT_EQ(evalIn(main, pkg.root, "S"), "32");
  // `__all__` of sizes.py leaves HIDDEN out of conf's star import.
  std::string hidden = evalIn(main, pkg.root, "HIDE");
  EXPECT_NE(hidden.find("`HIDDEN` is imported from module `.conf` (line 3), which does "
                        "not bind it at its top level"),
            std::string::npos)
      << hidden;
}

TEST(HostImports, WhatStaysAnError) {
  Package pkg;
  pkg.write("p/__init__.py", "");
  pkg.write("p/a.py", "from .b import V\n");
  pkg.write("p/b.py", "from .a import V\n");
  pkg.write("p/host.py", R"(import torch
from vendor import TUNED

def sms():
    return torch.cuda.get_device_properties(0).multi_processor_count
)");
  pkg.write("p/bad.py", "X = (\n");
  std::string main = pkg.write("p/main.py", R"(from .a import V
from .missing import M
from vendor2 import N
from .host import sms, TUNED
from .bad import X
R1 = V
R2 = [M][0] if M else 0
R3 = N + 1
R4 = sms()
R5 = len(TUNED)
R6 = X
)");
  auto err = [&](const char *name) { return evalIn(main, pkg.root, name); };
  std::string cycle = err("R1");
  EXPECT_NE(cycle.find("6:6: `V` is imported from module `.a` (line 1), whose value "
                       "Kiln cannot evaluate: "),
            std::string::npos)
      << cycle;
  EXPECT_NE(cycle.find("a.py imports `V` from "), std::string::npos) << cycle;
  EXPECT_NE(cycle.find("b.py, which imports `V` from "), std::string::npos) << cycle;
  EXPECT_EQ(err("R2"), "7:16: `M` is imported from module `.missing` (line 2), which Kiln "
                       "cannot find (searched: " + pkg.root + "/p), so Kiln cannot tell "
                       "whether it is true");
  EXPECT_EQ(err("R3"), "8:6: `N` is imported from module `vendor2` (line 3), which Kiln "
                       "cannot find (searched: " + pkg.root + "), so Kiln cannot compute "
                       "`N + 1`");
  EXPECT_EQ(err("R4"), "9:6: in `sms` of module `.host`, called here: " + pkg.root +
                           "/p/host.py:5:12: `torch.cuda.get_device_properties(0)."
                           "multi_processor_count`: Kiln cannot query device property "
                           "`multi_processor_count` (it knows only `warp_size`, which "
                           "is 32)");
  EXPECT_EQ(err("R5"), "10:6: `len(TUNED)` is `vendor.TUNED`, which module `.host` "
                       "imports (line 2 of " + pkg.root + "/p/host.py) from module "
                       "`vendor`, which Kiln cannot find (searched: " + pkg.root +
                       "), so Kiln cannot evaluate `len()` of it");
  EXPECT_EQ(err("R6"), "11:6: `X` is imported from module `.bad` (line 5), whose file "
                       "does not parse: " + pkg.root + "/p/bad.py:1:5: '(' was never closed");
}

TEST(HostImports, DecoratorsAtLaunch) {
  Package pkg;
  pkg.write("k/__init__.py", "");
  pkg.write("k/tuning.py", R"(import logging
import triton

logger = logging.getLogger(__name__)
MIN_BLOCK = 32

def configs(blocks=(32, 64, 128)):
    return [triton.Config({"BLOCK": b}, num_warps=4 if b < 128 else 8) for b in blocks]

def prune(configs, named_args, **kwargs):
    logger.debug(f"pruning {len(configs)} configs")
    return [c for c in configs if c.kwargs["BLOCK"] <= max(MIN_BLOCK, named_args["n"])]

HEURISTICS = {"EVEN": lambda args: args["n"] % MIN_BLOCK == 0,
              "WIDE": lambda args: args["m"] > MIN_BLOCK}
)");
  std::string main = pkg.write("k/kern.py", R"(import triton
import triton.language as tl
from .tuning import configs, prune, HEURISTICS

@triton.autotune(configs=configs(), key=["n"], prune_configs_by={"early_config_prune": prune})
@triton.heuristics(HEURISTICS)
@triton.jit
def kern(X, n, m, BLOCK: tl.constexpr, EVEN: tl.constexpr, WIDE: tl.constexpr):
    pass
)");
  auto buf = llvm::MemoryBuffer::getFile(main);
  ASSERT_TRUE(static_cast<bool>(buf));
  FrontendOptions fo;
  fo.includeDirs = {pkg.root};
  ScopedFrontendOptions scoped(fo);
  auto d = KernelDecorators::parse((*buf)->getBuffer(), main, "kern");
  ASSERT_TRUE(static_cast<bool>(d)) << llvm::toString(d.takeError());
  ASSERT_TRUE(d->autotune());
  EXPECT_EQ(d->autotune()->configs.size(), 3u);
  EXPECT_EQ(d->autotune()->configs[2].numWarps, 8u);

  LaunchArgs args;
  args["X"] = LaunchValue::pointer(DType::F32, 0x1000);
  args["n"] = LaunchValue::integer(64);
  args["m"] = LaunchValue::integer(100);
  auto kept = d->pruneConfigs(args);
  ASSERT_TRUE(static_cast<bool>(kept)) << llvm::toString(kept.takeError());
  EXPECT_EQ(*kept, (std::vector<size_t>{0, 1}));

  // The module's heuristics, from several threads at once.
  std::vector<std::thread> threads;
  std::vector<std::string> results(4);
  for (size_t t = 0; t < results.size(); ++t)
    threads.emplace_back([&, t] {
      LaunchArgs a = args;
      if (llvm::Error e = d->applyHeuristics(a))
        results[t] = llvm::toString(std::move(e));
      else
        results[t] = *a["EVEN"].literal() + " " + *a["WIDE"].literal();
    });
  for (std::thread &t : threads)
    t.join();
  for (const std::string &r : results)
    EXPECT_EQ(r, "True True");

  // A launch argument the module's lambda needs: reported where this file
  // names the heuristics, with the lambda's place.
  args.erase("m");
  llvm::Error e = d->applyHeuristics(args);
  ASSERT_TRUE(static_cast<bool>(e));
  std::string msg;
  llvm::handleAllErrors(std::move(e), [&](const MissingLaunchArgError &m) {
    EXPECT_EQ(m.argument, "m");
    msg = m.message;
  });
  EXPECT_NE(msg.find("kern.py:6:20: error: heuristic `WIDE`: in `<lambda>` of module "
                     "`.tuning`, called here: " + pkg.root + "/k/tuning.py:15:36: "
                     "`args[\"m\"]`: no value for launch argument `m`"),
            std::string::npos)
      << msg;
}

} // namespace

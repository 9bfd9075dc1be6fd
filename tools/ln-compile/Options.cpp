//===- Options.cpp - ln-compile: command-line flags
//------------------------===//
#include "Options.h"

#include "llvm/Support/FileSystem.h"
#include "CLI.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

using namespace kiln;
using namespace kiln::cli;

namespace {
const char *kUsage = R"(OVERVIEW: Kiln's compiler for Triton-language kernels

USAGE:
  ln-compile FILE.py --kernel NAME --signature SIG [-D NAME=VALUE]... [options]
  ln-compile FILE.mlir [--kernel NAME] [options]
  ln-compile [--dtype fp16|bf16|fp32] [-o DIR] [options]

With FILE, compiles the @triton.jit kernel NAME of FILE for one
specialization and prints the stage chosen with --emit (to -o OUT if given).
Without FILE, compiles the three built-in LayerNorm kernels
(examples/layernorm/layer_norm.py) for N = 8192 with the Triton tutorial's
heuristics, writing NAME.ptx and NAME.json for each into -o DIR (default
kiln-out/). A FILE ending in .mlir holds a tile-dialect module (as kiln-opt
reads, e.g. an --emit=tile output): its one func.func is compiled from the
tile-layout stage on, with num_warps and arch from the module attributes
tile.num_warps, tile.num_stages and tile.arch unless --num-warps /
--num-stages / --arch are given.
FILE `-` reads Triton source from stdin (named <stdin> in diagnostics).

EXIT CODES:
  0 success, 1 error (compile error, unreadable input, unwritable output,
  --verify-diagnostics mismatch), 2 usage error (bad or conflicting flags).

OPTIONS:
  --kernel NAME            kernel (a @triton.jit function) to compile; for
                           .mlir input optional, must name its func.func
  --signature SIG          comma-separated AOT signature: *fp16:16 (pointer,
                           16-byte aligned), *fp32, i32, i32:16 (divisible by
                           16), i64, fp32, ...; none (the argument is None:
                           a constexpr None); constexprs may be given inline
                           as literals or left out and passed with -D
  -D NAME=VALUE            value of a tl.constexpr parameter (repeatable;
                           bools as True/False/1/0, dtypes as tl.float16);
                           for a kernel with @triton.heuristics also the
                           value of an integer parameter a heuristic reads,
                           or a heuristic's own name (overriding it)
  -I DIR                   package root for the kernel file's imports
                           (`from mylib.ops import helper`; repeatable;
                           relative imports resolve beside FILE)
  --bind [PATH::]NAME=EXPR the value of module-level NAME when the file
                           binds it inside an `if`/`try`/`with`/loop (Kiln
                           cannot tell which branch runs) or by host code
                           Kiln cannot evaluate (`rsqrt = find("rsqrt")`,
                           for NAME's last binding): EXPR is Python
                           with `triton` in scope, e.g.
                           rsqrt=triton.language.extra.libdevice.rsqrt,
                           BLOCK=128; used only for such names; PATH::
                           binds in the imported file PATH (repeatable)
  --host-decorators        leave the decorators above @triton.jit to the
                           host, as Python's drop-in `triton` does: the
                           kernel compiles as plain @triton.jit, and a
                           library's own decorators (an autotune wrapper)
                           are not an error; pass the configs' values
                           with -D, --num-warps and --num-stages
  --list-configs           print the @triton.autotune configs of --kernel,
                           numbered from 0 (Triton's Config text)
  --config N               compile autotune config N: its kwargs become -D
                           values, its num_warps and num_stages the warp
                           count and pipelining depth (a different explicit
                           -D, --num-warps or --num-stages is an error)
  --num-warps N            warps per program: 1, 2, 4, 8, 16 or 32 (default 4)
  --num-stages N           buffers of the software-pipelined K loops feeding
                           tl.dot, 1 to 16 (default 3; 1: no pipelining)
  --arch ARCH[,ARCH...]    sm_80, sm_86, sm_89 or sm_90 (default sm_90);
                           several only with the AOT emits
  --emit STAGE             ast, tile, tile-layout, llvm-dialect, llvm or ptx
                           (default ptx); or C++ for ahead-of-time use:
                           aot-header (NAME.h), aot-source (NAME.cpp), aot
                           (both: -o PREFIX writes PREFIX.h and PREFIX.cpp)
  --aot-name NAME          C++ launch function kiln::aot::NAME (default: the
                           kernel's name)
  --ptxas PATH|none        ptxas for the AOT cubins (default: ptxas on PATH,
                           in $CUDA_HOME/bin or /usr/local/cuda/bin; none
                           found or `none`: PTX only)
  -o OUT                   output file (FILE mode; `-` is stdout) or
                           directory (built-in mode)
  --dump-dir DIR           also write every stage to DIR
  --time                   print the time of each stage (to stderr)
  --verify-each            run MLIR's verifier after every backend pass (off
                           by default: it costs about 3 % of a compile)
  --verify-diagnostics     check `# expected-error {{...}}` comments in FILE
                           against the diagnostics instead of printing output
  --split-input-file       process the parts of FILE separated by `# -----`
                           lines independently
  --print-debuginfo        with --emit=tile: print each op's .py location
  --debug                  compile tl.device_assert and runtime `assert` in
                           (Triton's debug=True; also KILN_DEBUG=1)
  --no-fp-fusion           never fuse a multiply and an add into an FMA
                           (Triton's enable_fp_fusion=False)
  --dtype DT               built-in mode: fp16 (default), bf16 or fp32
  --color WHEN             color diagnostics: auto (default: when stderr is
                           a terminal), always or never
  --help                   print this help
  --version                print the version
)";

} // namespace

std::optional<int> kiln::cli::parseArgs(int argc, char **argv, Options &o) {
  std::vector<std::string> args(argv + 1, argv + argc);
  for (size_t i = 0; i < args.size(); ++i) {
    std::string a = args[i];
    // Split `--flag=value`.
    std::optional<std::string> inlineValue;
    if (llvm::StringRef(a).starts_with("--") &&
        a.find('=') != std::string::npos) {
      inlineValue = a.substr(a.find('=') + 1);
      a = a.substr(0, a.find('='));
    }
    auto value = [&](const char *flag) -> std::optional<std::string> {
      if (inlineValue)
        return inlineValue;
      if (i + 1 >= args.size()) {
        usageError(llvm::Twine(flag) + ": missing value");
        return std::nullopt;
      }
      return args[++i];
    };
    // Flags that take no value.
    static constexpr std::pair<const char *, bool Options::*> kSwitches[] = {
        {"--time", &Options::time},
        {"--verify-diagnostics", &Options::verify},
        {"--print-debuginfo", &Options::debugInfo},
        {"--debug", &Options::debug},
        {"--no-fp-fusion", &Options::noFpFusion},
        {"--split-input-file", &Options::split},
        {"--list-configs", &Options::listConfigs},
        {"--host-decorators", &Options::hostDecorators},
        {"--verify-each", &Options::verifyEach}};
    if (const auto *sw = llvm::find_if(
            kSwitches, [&](const auto &sw) { return a == sw.first; });
        sw != std::end(kSwitches)) {
      if (inlineValue)
        return usageError(a + ": takes no value");
      o.*(sw->second) = true;
      continue;
    }
    if (a == "--help" || a == "-help" || a == "-h") {
      llvm::outs() << kUsage;
      return 0;
    }
    if (a == "--version") {
      llvm::outs() << "ln-compile (Kiln) " KILN_VERSION "\n";
      return 0;
    }
    if (a == "--kernel") {
      auto v = value("--kernel");
      if (!v)
        return cli::kExitUsage;
      if (v->empty())
        return usageError("--kernel: empty kernel name");
      o.kernel = *v;
    } else if (a == "--signature") {
      auto v = value("--signature");
      if (!v)
        return cli::kExitUsage;
      o.signature = *v;
    } else if (a == "-D" ||
               (llvm::StringRef(a).starts_with("-D") && a.size() > 2)) {
      std::string def;
      if (a == "-D") {
        if (i + 1 >= args.size())
          return usageError("-D: missing NAME=VALUE");
        def = args[++i];
      } else {
        def = a.substr(2);
      }
      o.defines.push_back(def);
    } else if (a == "-I" ||
               (llvm::StringRef(a).starts_with("-I") && a.size() > 2)) {
      std::string dir;
      if (a == "-I") {
        if (i + 1 >= args.size())
          return usageError("-I: missing DIR");
        dir = args[++i];
      } else {
        dir = a.substr(2);
      }
      if (!llvm::sys::fs::is_directory(dir))
        return usageError("-I " + dir + ": not a directory");
      o.includeDirs.push_back(dir);
    } else if (a == "--bind") {
      auto v = value("--bind");
      if (!v)
        return cli::kExitUsage;
      llvm::Expected<HostBinding> b = parseHostBinding(*v);
      if (!b)
        return usageError("--bind: " + llvm::toString(b.takeError()));
      for (const HostBinding &prev : o.bindings)
        if (prev.path == b->path && prev.name == b->name)
          return usageError("--bind: `" + b->name + "` is bound twice");
      o.bindings.push_back(std::move(*b));
    } else if (a == "--num-warps") {
      auto v = value("--num-warps");
      if (!v)
        return cli::kExitUsage;
      unsigned n = 0;
      if (llvm::StringRef(*v).getAsInteger(10, n) || n == 0 || n > 32 ||
          (n & (n - 1)) != 0)
        return usageError("--num-warps: expected 1, 2, 4, 8, 16 or 32, got `" +
                          *v + "`");
      o.numWarps = n;
    } else if (a == "--num-stages") {
      auto v = value("--num-stages");
      if (!v)
        return cli::kExitUsage;
      unsigned n = 0;
      if (llvm::StringRef(*v).getAsInteger(10, n) || n == 0 || n > 16)
        return usageError("--num-stages: expected 1 to 16, got `" + *v + "`");
      o.numStages = n;
    } else if (a == "--config") {
      auto v = value("--config");
      if (!v)
        return cli::kExitUsage;
      unsigned n = 0;
      if (llvm::StringRef(*v).getAsInteger(10, n))
        return usageError("--config: expected a config number (see "
                          "--list-configs), got `" +
                          *v + "`");
      o.config = n;
    } else if (a == "--arch") {
      auto v = value("--arch");
      if (!v)
        return cli::kExitUsage;
      llvm::SmallVector<llvm::StringRef> list;
      llvm::StringRef(*v).split(list, ',');
      for (llvm::StringRef arch : list) {
        if (arch != "sm_80" && arch != "sm_86" && arch != "sm_89" &&
            arch != "sm_90")
          return usageError("--arch: unsupported architecture `" + arch +
                            "` (expected sm_80, sm_86, sm_89 or sm_90)");
        if (llvm::is_contained(o.archs, arch))
          return usageError("--arch: `" + arch + "` given more than once");
        o.archs.push_back(arch.str());
      }
      o.arch = o.archs.front();
    } else if (a == "--emit") {
      auto v = value("--emit");
      if (!v)
        return cli::kExitUsage;
      o.aot = llvm::StringSwitch<AOTEmit>(*v)
                  .Case("aot-header", AOTEmit::Header)
                  .Case("aot-source", AOTEmit::Source)
                  .Case("aot", AOTEmit::Both)
                  .Default(AOTEmit::None);
      std::optional<Stage> s = parseStageName(*v);
      if (!s && o.aot == AOTEmit::None)
        return usageError("--emit: unknown stage `" + *v +
                          "` (expected ast, tile, tile-layout, llvm-dialect, "
                          "llvm, ptx, aot-header, aot-source or aot)");
      o.emit = s.value_or(Stage::PTX);
    } else if (a == "--aot-name") {
      auto v = value("--aot-name");
      if (!v)
        return cli::kExitUsage;
      o.aotName = *v;
    } else if (a == "--ptxas") {
      auto v = value("--ptxas");
      if (!v)
        return cli::kExitUsage;
      o.ptxas = *v;
    } else if (a == "--color") {
      auto v = value("--color");
      if (!v)
        return cli::kExitUsage;
      if (*v == "auto")
        cli::setColorMode(cli::ColorMode::Auto);
      else if (*v == "always")
        cli::setColorMode(cli::ColorMode::Always);
      else if (*v == "never")
        cli::setColorMode(cli::ColorMode::Never);
      else
        return usageError("--color: expected auto, always or never, got `" +
                          *v + "`");
    } else if (a == "-o") {
      if (i + 1 >= args.size())
        return usageError("-o: missing output path");
      o.output = args[++i];
    } else if (a == "--dump-dir") {
      auto v = value("--dump-dir");
      if (!v)
        return cli::kExitUsage;
      o.dumpDir = *v;
    } else if (a == "--dtype") {
      auto v = value("--dtype");
      if (!v)
        return cli::kExitUsage;
      if (*v != "fp16" && *v != "bf16" && *v != "fp32")
        return usageError("--dtype: expected fp16, bf16 or fp32, got `" + *v +
                          "`");
      o.dtype = *v;
    } else if (llvm::StringRef(a).starts_with("-") && a != "-") {
      return usageError("unknown option `" + a + "` (see --help)");
    } else {
      if (o.file)
        return usageError("more than one input file (`" + *o.file + "` and `" +
                          a + "`)");
      o.file = a;
    }
  }
  return std::nullopt;
}

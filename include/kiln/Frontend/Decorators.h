//===- Decorators.h - @triton.autotune / @triton.heuristics of a kernel ---===//
//
// The decorators stacked on a @triton.jit kernel, as data the runtime can act
// on without Python:
//   * `@triton.autotune(configs=[triton.Config({...}, num_warps=...)],
//     key=[...], reset_to_zero=[...], restore_value=[...], warmup=, rep=,
//     prune_configs_by=)` -> AutotuneSpec (configs evaluated by Kiln's own
//     evaluator of the file's module-level Python);
//   * `@triton.heuristics({"NAME": lambda args: ...})` -> a layer whose
//     lambdas Kiln evaluates over the launch arguments at specialization time.
// Layers are kept outermost first, as Triton applies them: a call goes through
// the outermost decorator first (autotune adds a config's kwargs, then the
// heuristics below it see them, then the jit function is specialized).
//
// This header is the contract between the frontend (which parses and
// evaluates decorators) and the runtime (which tunes and launches).
//
//===----------------------------------------------------------------------===//
#ifndef KILN_FRONTEND_DECORATORS_H
#define KILN_FRONTEND_DECORATORS_H

#include "kiln/Frontend/Spec.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace kiln {

/// One `triton.Config(kwargs, num_warps=, num_stages=, num_ctas=, maxnreg=)`.
struct AutotuneConfig {
  /// Meta-parameter name -> literal text as a constexpr is given ("128",
  /// "True", "tl.float16").
  std::map<std::string, std::string> constexprs;
  unsigned numWarps = 4;
  unsigned numStages = 3;
  unsigned numCtas = 1;
  std::optional<unsigned> maxnreg;

  bool operator==(const AutotuneConfig &) const = default;
  /// Triton's Config.__str__: `BLOCK: 128, num_warps: 4, num_ctas: 1,
  /// num_stages: 3, maxnreg: None` (kwargs in name order, values as str()
  /// prints them), for logs and --list-configs.
  std::string toString() const;
};

/// The arguments of @triton.autotune, evaluated.
struct AutotuneSpec {
  std::vector<AutotuneConfig> configs;
  /// Parameter names whose launch values select a tuning result.
  std::vector<std::string> key;
  /// Pointer parameters zeroed before each timed run (Triton's reset_to_zero).
  std::vector<std::string> resetToZero;
  /// Pointer parameters saved before tuning and restored after it.
  std::vector<std::string> restoreValue;
  /// Benchmark budget per config in milliseconds when the decorator gives
  /// one (warmup= / rep=); otherwise the runtime's (AutotuneSettings).
  std::optional<unsigned> warmupMs;
  std::optional<unsigned> repMs;
  /// prune_configs_by={"top_k": ...}: keep only the first top_k configs
  /// (a perf_model is not supported: it is an error).
  std::optional<unsigned> pruneTopK;
  /// prune_configs_by={"early_config_prune": f}: before a new key is tuned,
  /// f(configs, named_args, **kwargs) chooses the configs tuned
  /// (KernelDecorators::pruneConfigs).
  bool earlyConfigPrune = false;
  /// Source location of the decorator ("k.py:12:1"), for messages.
  std::string where;
};

/// What a heuristics lambda sees of one launch argument (`args["X"]`).
struct LaunchValue {
  enum class Kind { None, Bool, Int, Float, Str, Pointer, DType, Tuple };
  Kind kind = Kind::None;
  int64_t i = 0;  ///< Bool (0/1), Int
  double f = 0;   ///< Float
  std::string s;  ///< Str; DType: its Triton name ("fp16")
  DType dtype = DType::F32; ///< Pointer: element dtype; DType
  uint64_t address = 0;     ///< Pointer
  std::vector<LaunchValue> elems;  ///< Tuple: its elements
  std::vector<std::string> fields; ///< Tuple: a namedtuple's field names

  static LaunchValue none() { return {}; }
  static LaunchValue boolean(bool v) {
    LaunchValue r;
    r.kind = Kind::Bool;
    r.i = v;
    return r;
  }
  static LaunchValue integer(int64_t v) {
    LaunchValue r;
    r.kind = Kind::Int;
    r.i = v;
    return r;
  }
  static LaunchValue flt(double v) {
    LaunchValue r;
    r.kind = Kind::Float;
    r.f = v;
    return r;
  }
  static LaunchValue tuple(std::vector<LaunchValue> elems,
                           std::vector<std::string> fields = {}) {
    LaunchValue r;
    r.kind = Kind::Tuple;
    r.elems = std::move(elems);
    r.fields = std::move(fields);
    return r;
  }
  static LaunchValue pointer(DType elem, uint64_t address) {
    LaunchValue r;
    r.kind = Kind::Pointer;
    r.dtype = elem;
    r.address = address;
    return r;
  }
  /// The constexpr literal text for this value ("None", "True", "128",
  /// "0.5", "'s'", "tl.float16"); pointers have none.
  std::optional<std::string> literal() const;
};

/// Launch arguments by parameter name (positional ones and keyword
/// meta-parameters alike), as Triton's `args` dict holds them.
using LaunchArgs = std::map<std::string, LaunchValue>;

/// applyHeuristics failed because a heuristic read `args["NAME"]` and `args`
/// has no value for NAME (ln-compile turns it into "pass -D NAME=value").
class MissingLaunchArgError : public llvm::ErrorInfo<MissingLaunchArgError> {
public:
  static char ID;
  MissingLaunchArgError(std::string heuristic, std::string argument,
                        std::string message)
      : heuristic(std::move(heuristic)), argument(std::move(argument)),
        message(std::move(message)) {}
  std::string heuristic, argument;
  std::string message; ///< rendered FILE:LINE:COL: error: ...
  void log(llvm::raw_ostream &os) const override { os << message; }
  std::error_code convertToErrorCode() const override {
    return llvm::inconvertibleErrorCode();
  }
};

/// The decorator layers of one kernel, outermost first. Holds the parsed file
/// (the lambdas refer to it); cheap to share, safe to use from several
/// threads.
class KernelDecorators {
public:
  /// Parses `source` and reads the decorators of @triton.jit `kernelName`.
  /// Errors are rendered `FILE:LINE:COL: error: ...`: an unsupported
  /// decorator, a malformed Config, configs that Kiln cannot evaluate (the
  /// message names the expression and why).
  static llvm::Expected<KernelDecorators>
  parse(llvm::StringRef source, llvm::StringRef filename,
        llvm::StringRef kernelName);

  /// The @triton.autotune spec, if the kernel has one.
  const AutotuneSpec *autotune() const;
  /// True when a @triton.heuristics decorator is present.
  bool hasHeuristics() const;
  /// True when @triton.autotune is applied outside (above) every
  /// @triton.heuristics, so heuristics see the config's kwargs (the usual
  /// order; otherwise heuristics run first).
  bool autotuneIsOutermost() const;
  /// Runs every heuristics layer in Triton's order over `args`, adding each
  /// computed value under its name (a later layer sees earlier results).
  /// Errors name the lambda's FILE:LINE:COL and what could not be evaluated.
  llvm::Error applyHeuristics(LaunchArgs &args) const;
  /// As above, but the heuristics named in `fixed` are not run: their
  /// values in `args` stand (ln-compile's -D for a heuristic's own name).
  llvm::Error applyHeuristics(LaunchArgs &args,
                              const std::set<std::string> &fixed) const;
  /// Names the heuristics compute, in the order they run.
  std::vector<std::string> heuristicNames() const;
  /// The indices of the autotune configs that the decorator's
  /// early_config_prune keeps for a launch with `args` (every config when
  /// it has none), in the order it returns them. Errors name the function's
  /// FILE:LINE:COL: what it could not evaluate, a return value that is not
  /// a list of the decorator's own configs, an empty one.
  llvm::Expected<std::vector<size_t>> pruneConfigs(const LaunchArgs &args) const;

  struct State;

private:
  explicit KernelDecorators(std::shared_ptr<const State> s)
      : state_(std::move(s)) {}
  std::shared_ptr<const State> state_;
};

} // namespace kiln

#endif // KILN_FRONTEND_DECORATORS_H

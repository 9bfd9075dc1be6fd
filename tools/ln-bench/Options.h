//===- Options.h - ln-bench command line -------------------------*- C++ -*-===//
#ifndef KILN_TOOLS_LN_BENCH_OPTIONS_H
#define KILN_TOOLS_LN_BENCH_OPTIONS_H

#include "kiln/Frontend/Spec.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"
#include <string>
#include <utility>
#include <vector>

namespace kiln::lnbench {

struct Options {
  bool quick = false;
  std::vector<DType> dtypes;
  std::vector<std::pair<int64_t, int64_t>> shapes;
  int reps = 100;
  int warmup = 10;
  int device = 0;
  std::string jsonPath;
  bool compileTimes = true;
  bool launchOverhead = true;
  bool compileOnly = false;
  std::string arch = "sm_90";
  bool plan = false;          ///< --plan: print planNorm's choices, no GPU
  int multiprocessors = 132;  ///< --sms: the SM count --plan assumes
};

void usage(llvm::raw_ostream &os);
/// The options, or an error naming the bad flag; --help prints the usage
/// and exits.
llvm::Expected<Options> parseArgs(int argc, char **argv);
/// --plan: planNorm's choice for every dtype, shape and option set, one
/// JSON object per line on stdout; 1 if any plan is an error.
int runPlan(const Options &o);

} // namespace kiln::lnbench

#endif // KILN_TOOLS_LN_BENCH_OPTIONS_H

//===- Plan.cpp - ln-bench --plan: the fused norm's plans as JSON ---------===//
//
// One JSON object per line for each (dtype, shape, option set): what planNorm
// chooses for layer_norm_fast.py's kernels. No GPU. bench/layernorm_host.py
// keeps a Python copy of these rules for the benchmarks; its test
// (bench/test_layernorm_plan.py) compares the two line by line.
//
//===----------------------------------------------------------------------===//
#include "Options.h"
#include "kiln/Runtime/LayerNorm.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

using namespace kiln;
using namespace kiln::rt;

namespace kiln::lnbench {
namespace {

const char *variantName(NormPlan::Variant v) {
  switch (v) {
  case NormPlan::Variant::Rows: return "rows";
  case NormPlan::Variant::Columns: return "cols";
  case NormPlan::Variant::Chunked: return "chunked";
  case NormPlan::Variant::Cooperative: return "coop";
  case NormPlan::Variant::Tutorial: return "tutorial";
  }
  return "?";
}

/// The forward kernel layer_norm_fast.py / layer_norm_coop.py launches.
const char *forwardKernel(const NormPlan &p) {
  switch (p.forward) {
  case NormPlan::Variant::Rows:
    return p.fwdPipelined ? "_norm_fwd_pipelined" : "_norm_fwd";
  case NormPlan::Variant::Chunked:
    return p.fwdPipelined ? "_norm_fwd_chunked_pipelined" : "_norm_fwd_chunked";
  case NormPlan::Variant::Cooperative: return "_norm_fwd_coop";
  default: return variantName(p.forward);
  }
}

/// The option sets whose plans differ: none, a stored pre-norm value (lean
/// off), a residual (also a dx option), a second output.
const std::pair<const char *, NormOptions> kOptionSets[] = {
    {"plain", NormOptions{}},
    {"store_residual", [] { NormOptions o; o.storeResidualOut = true; return o; }()},
    {"residual", [] { NormOptions o; o.residual = true; return o; }()},
    {"second_output", [] { NormOptions o; o.secondOutput = true; return o; }()},
};

} // namespace

int runPlan(const Options &o) {
  int failures = 0;
  for (DType dtype : o.dtypes)
    for (auto [M, N] : o.shapes)
      for (const auto &[name, options] : kOptionSets) {
        llvm::json::Object line{{"dtype", dtypeName(dtype)},
                                {"M", M},
                                {"N", N},
                                {"options", name},
                                {"sms", o.multiprocessors}};
        auto plan = planNorm(M, N, dtype, options, o.multiprocessors);
        if (!plan) {
          line["error"] = llvm::toString(plan.takeError());
          ++failures;
        } else {
          const NormPlan &p = *plan;
          line["forward"] = llvm::json::Object{
              {"kernel", forwardKernel(p)},     {"BLOCK_N", p.fwdBlockN},
              {"ROWS", p.fwdRows},              {"num_warps", p.fwdWarps},
              {"grid", p.fwdGrid},              {"chunks", p.fwdChunks},
              {"rows_per_program", p.fwdRowsPerProgram}};
          line["backward"] = llvm::json::Object{
              {"variant", variantName(p.backward)},
              {"pipelined", p.bwdPipelined},
              {"BLOCK_N", p.bwdBlockN},
              {"ROWS", p.bwdRows},
              {"num_warps", p.bwdWarps},
              {"programs", p.programs},
              {"column_chunks", p.columnChunks},
              {"rows_per_program", p.rowsPerProgram},
              {"reduce_block_n", p.reduceBlockN},
              {"reduce_grid", p.reduceGrid}};
        }
        llvm::outs() << llvm::json::Value(std::move(line)) << "\n";
      }
  return failures ? 1 : 0;
}

} // namespace kiln::lnbench

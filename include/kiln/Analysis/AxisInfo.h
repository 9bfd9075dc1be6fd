//===- AxisInfo.h - Contiguity, divisibility and constancy of values ------===//
//
// For every integer, pointer or i1 value (scalar or tensor) and every tensor
// dimension d, the analysis bounds three properties, each a power of two:
//
//  * contiguity[d]: the values come in aligned runs of this length along d
//    whose elements increase by one (pointers: by one element);
//  * divisibility[d]: the first value of each such run is a multiple of it
//    (pointers: the address, in bytes); when contiguity is 1 every value is;
//  * constancy[d]: the values come in aligned runs of this length along d
//    that are all equal.
//
// Together they prove that a thread's vector of consecutive elements is one
// aligned memory access, and that a mask is uniform over it. Seeds: function
// arguments' `tile.divisibility` / `tile.multiple_of` / `tile.max_contiguous`
// attributes, constants, tile.arange and the tile.multiple_of /
// tile.max_contiguous hints.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_ANALYSIS_AXISINFO_H
#define KILN_ANALYSIS_AXISINFO_H

#include "mlir/Analysis/DataFlow/SparseAnalysis.h"
#include "mlir/Analysis/DataFlowFramework.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>

namespace kiln {

class AxisInfo {
public:
  /// Cap for divisibility (a value known to be 0 is divisible by anything).
  static constexpr int64_t kMaxDivisibility = int64_t(1) << 30;

  AxisInfo() = default;
  AxisInfo(llvm::ArrayRef<int64_t> contiguity, llvm::ArrayRef<int64_t> divisibility,
           llvm::ArrayRef<int64_t> constancy,
           std::optional<int64_t> constant = std::nullopt)
      : contiguity(contiguity), divisibility(divisibility), constancy(constancy),
        constant(constant), initialized(true) {}

  /// Nothing known about a value of the given rank (0 for scalars).
  static AxisInfo unknown(unsigned rank);
  /// The entry state of `value` (function arguments read their attributes).
  static AxisInfo entryState(mlir::Value value);

  bool isInitialized() const { return initialized; }
  unsigned rank() const { return contiguity.size(); }
  int64_t getContiguity(unsigned d) const { return contiguity[d]; }
  int64_t getDivisibility(unsigned d) const { return divisibility[d]; }
  int64_t getConstancy(unsigned d) const { return constancy[d]; }
  /// The divisibility every single element has along d.
  int64_t elementDivisibility(unsigned d) const {
    return contiguity[d] > 1 ? 1 : divisibility[d];
  }
  std::optional<int64_t> getConstant() const { return constant; }
  llvm::ArrayRef<int64_t> getContiguity() const { return contiguity; }
  llvm::ArrayRef<int64_t> getDivisibility() const { return divisibility; }
  llvm::ArrayRef<int64_t> getConstancy() const { return constancy; }

  /// Lattice join at control-flow merges: what holds on both paths.
  static AxisInfo join(const AxisInfo &lhs, const AxisInfo &rhs);
  bool operator==(const AxisInfo &other) const = default;
  void print(llvm::raw_ostream &os) const;

private:
  // Scalars are stored as rank-1 facts with every length 1.
  llvm::SmallVector<int64_t, 2> contiguity, divisibility, constancy;
  std::optional<int64_t> constant;
  bool initialized = false;
};

class AxisInfoLattice : public mlir::dataflow::Lattice<AxisInfo> {
public:
  using Lattice::Lattice;
};

/// The sparse forward data-flow analysis computing AxisInfo.
class AxisInfoAnalysis
    : public mlir::dataflow::SparseForwardDataFlowAnalysis<AxisInfoLattice> {
public:
  using SparseForwardDataFlowAnalysis::SparseForwardDataFlowAnalysis;

  mlir::LogicalResult visitOperation(mlir::Operation *op,
                                     llvm::ArrayRef<const AxisInfoLattice *> operands,
                                     llvm::ArrayRef<AxisInfoLattice *> results) override;
  void setToEntryState(AxisInfoLattice *lattice) override;
  void visitNonControlFlowArguments(mlir::Operation *op,
                                    const mlir::RegionSuccessor &successor,
                                    llvm::ArrayRef<AxisInfoLattice *> argLattices,
                                    unsigned firstIndex) override;
};

/// Runs the analysis over `root` once and answers queries afterwards. The IR
/// must not change between construction and the queries.
class ModuleAxisInfo {
public:
  explicit ModuleAxisInfo(mlir::Operation *root);
  mlir::LogicalResult status() const { return ok; }
  /// Facts about `value` (unknown when the analysis could not reach it).
  AxisInfo get(mlir::Value value) const;

  /// Elements per aligned vector access through the pointer tensor `ptr`
  /// along dimension `dim` (its contiguity and alignment, at most 16 bytes),
  /// further limited by the constancy of `mask` when given.
  unsigned getVectorWidth(mlir::Value ptr, unsigned dim, mlir::Value mask) const;

private:
  mlir::DataFlowSolver solver;
  mlir::LogicalResult ok = mlir::failure();
};

/// Size in bytes of one pointee element of a tile pointer-like type.
unsigned getPointeeBytes(mlir::Type ptrLike);

} // namespace kiln

#endif // KILN_ANALYSIS_AXISINFO_H

//===- AxisInfo.cpp - Contiguity, divisibility and constancy --------------===//
#include "kiln/Analysis/AxisInfo.h"

#include "kiln/Dialect/Tile/IR/Tile.h"
#include "mlir/Analysis/DataFlow/ConstantPropagationAnalysis.h"
#include "mlir/Analysis/DataFlow/DeadCodeAnalysis.h"
#include "mlir/Analysis/DataFlow/Utils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"
#include <numeric>

using namespace mlir;
using namespace kiln;

namespace {
using Vec = SmallVector<int64_t, 2>;

int64_t gcd(int64_t a, int64_t b) { return std::gcd(a, b); }

/// tl.max_contiguous / tl.max_constancy: the promised run length (rounded
/// down to a power of two) raises contiguity or constancy, and rules out the
/// other (increasing values are not equal, equal values do not increase).
AxisInfo runHint(const AxisInfo &in, ArrayRef<int32_t> values, bool equalRuns) {
  Vec contig(in.getContiguity()), constancy(in.getConstancy());
  Vec &raised = equalRuns ? constancy : contig;
  Vec &other = equalRuns ? contig : constancy;
  for (auto [d, v] : llvm::enumerate(values)) {
    raised[d] = std::max<int64_t>(raised[d], llvm::bit_floor(uint64_t(v)));
    if (raised[d] > 1)
      other[d] = 1;
  }
  return AxisInfo(contig, in.getDivisibility(), constancy,
                  equalRuns ? in.getConstant() : std::nullopt);
}

/// Largest power of two dividing v (capped; 0 is divisible by everything).
int64_t pow2Divisor(int64_t v) {
  if (v == 0)
    return AxisInfo::kMaxDivisibility;
  uint64_t u = v < 0 ? -uint64_t(v) : uint64_t(v);
  return std::min<int64_t>(int64_t(1) << llvm::countr_zero(u),
                           AxisInfo::kMaxDivisibility);
}

int64_t capMul(int64_t a, int64_t b) {
  if (a >= AxisInfo::kMaxDivisibility / std::max<int64_t>(b, 1))
    return AxisInfo::kMaxDivisibility;
  return a * b;
}

/// The shape facts are stored with: scalars as [1].
SmallVector<int64_t, 2> shapeOf(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return SmallVector<int64_t, 2>(tensor.getShape());
  return {1};
}

unsigned rankOf(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return tensor.getRank();
  return 0;
}

AxisInfo constantInfo(Type type, std::optional<int64_t> value, int64_t div) {
  Vec shape = shapeOf(type);
  return AxisInfo(Vec(shape.size(), 1), Vec(shape.size(), div), shape, value);
}

/// a + b (or a - b when `isSub`), for integers and pointers; `unit` is the
/// size in bytes of b's unit when a is a pointer (1 otherwise).
AxisInfo addInfo(const AxisInfo &a, const AxisInfo &b, int64_t unit, bool isSub) {
  unsigned rank = a.rank();
  Vec contig(rank), div(rank), constancy(rank);
  for (unsigned d = 0; d < rank; ++d) {
    int64_t fromA = gcd(a.getContiguity(d), b.getConstancy(d));
    int64_t fromB = isSub ? 1 : gcd(a.getConstancy(d), b.getContiguity(d));
    int64_t c = std::max(fromA, fromB);
    contig[d] = c;
    constancy[d] = gcd(a.getConstancy(d), b.getConstancy(d));
    // Runs of the result start inside the runs of the contiguous operand, at
    // multiples of c: cap that operand's divisibility by c.
    int64_t divA, divB;
    if (c > 1 && fromA >= fromB) {
      divA = std::min(a.getDivisibility(d), c * unit);
      divB = b.elementDivisibility(d);
    } else if (c > 1) {
      divA = a.elementDivisibility(d);
      divB = std::min(b.getDivisibility(d), c);
    } else {
      divA = a.elementDivisibility(d);
      divB = b.elementDivisibility(d);
    }
    div[d] = gcd(divA, capMul(divB, unit));
  }
  std::optional<int64_t> value;
  int64_t folded;
  // A sum that overflows int64 is not known (UBSan found one in
  // test/gpu/random_kernels.py): leave it unknown rather than wrap.
  if (unit == 1 && a.getConstant() && b.getConstant() &&
      !(isSub ? __builtin_sub_overflow(*a.getConstant(), *b.getConstant(), &folded)
              : __builtin_add_overflow(*a.getConstant(), *b.getConstant(), &folded)))
    value = folded;
  if (value)
    div = Vec(rank, pow2Divisor(*value));
  return AxisInfo(contig, div, constancy, value);
}

AxisInfo mulInfo(const AxisInfo &a, const AxisInfo &b) {
  unsigned rank = a.rank();
  if (b.getConstant() == 1)
    return a;
  if (a.getConstant() == 1)
    return b;
  Vec contig(rank, 1), div(rank), constancy(rank);
  for (unsigned d = 0; d < rank; ++d) {
    div[d] = capMul(a.elementDivisibility(d), b.elementDivisibility(d));
    constancy[d] = gcd(a.getConstancy(d), b.getConstancy(d));
  }
  std::optional<int64_t> value;
  if (a.getConstant() && b.getConstant()) {
    value = *a.getConstant() * *b.getConstant();
    div = Vec(rank, pow2Divisor(*value));
  }
  return AxisInfo(contig, div, constancy, value);
}

/// x // c and x % c for a positive constant c. Like Triton, index arithmetic
/// is assumed non-negative (truncating and floor division then agree).
AxisInfo divInfo(const AxisInfo &x, int64_t c) {
  unsigned rank = x.rank();
  Vec contig(rank, 1), div(rank), constancy(rank);
  int64_t c2 = pow2Divisor(c);
  for (unsigned d = 0; d < rank; ++d) {
    // Aligned blocks of k consecutive values (k | c) share one quotient.
    int64_t k = gcd(gcd(x.getContiguity(d), x.getDivisibility(d)), c2);
    constancy[d] = std::max(x.getConstancy(d), x.getContiguity(d) > 1 ? k : 1);
    int64_t e = x.elementDivisibility(d);
    div[d] = (e % c2 == 0 && c == c2) ? std::max<int64_t>(1, e / c) : 1;
  }
  std::optional<int64_t> value;
  if (x.getConstant()) {
    value = *x.getConstant() / c;
    div = Vec(rank, pow2Divisor(*value));
  }
  return AxisInfo(contig, div, constancy, value);
}

AxisInfo remInfo(const AxisInfo &x, int64_t c) {
  unsigned rank = x.rank();
  Vec contig(rank), div(rank), constancy(rank);
  int64_t c2 = pow2Divisor(c);
  for (unsigned d = 0; d < rank; ++d) {
    constancy[d] = x.getConstancy(d);
    if (x.getContiguity(d) > 1) {
      // Aligned blocks of k (k | c) never cross a multiple of c.
      int64_t k = gcd(gcd(x.getContiguity(d), x.getDivisibility(d)), c2);
      contig[d] = k;
      div[d] = k;
    } else {
      contig[d] = 1;
      div[d] = gcd(x.getDivisibility(d), c2);
    }
  }
  std::optional<int64_t> value;
  if (x.getConstant()) {
    value = *x.getConstant() % c;
    div = Vec(rank, pow2Divisor(*value));
  }
  return AxisInfo(contig, div, constancy, value);
}

/// x % n for a divisor known by its facts only (`(pid * B + arange) % N` with
/// N specialized as divisible by 16, Triton's matmul tutorial): along d, n is
/// uniform over aligned runs of constancy(n)[d] and each element divisible by
/// elementDivisibility(n)[d], so aligned runs of x of a length dividing both
/// never cross a multiple of n, as for a constant divisor.
AxisInfo remByUniformInfo(const AxisInfo &x, const AxisInfo &n) {
  unsigned rank = x.rank();
  Vec contig(rank), div(rank), constancy(rank);
  for (unsigned d = 0; d < rank; ++d) {
    int64_t nDiv = n.elementDivisibility(d);
    int64_t nRun = n.getConstancy(d);
    constancy[d] = gcd(x.getConstancy(d), nRun);
    if (x.getContiguity(d) > 1) {
      int64_t k = gcd(gcd(gcd(x.getContiguity(d), x.getDivisibility(d)), nDiv), nRun);
      contig[d] = k;
      div[d] = k;
    } else {
      contig[d] = 1;
      div[d] = gcd(x.getDivisibility(d), nDiv);
    }
  }
  return AxisInfo(contig, div, constancy, std::nullopt);
}

/// Facts holding for any elementwise function of the operands: equal inputs
/// give equal outputs.
AxisInfo elementwiseInfo(ArrayRef<const AxisInfo *> ops, unsigned rank) {
  Vec constancy;
  for (unsigned d = 0; d < rank; ++d) {
    int64_t q = 0;
    for (const AxisInfo *op : ops)
      if (op->rank() == rank || op->rank() == 1)
        q = gcd(q, op->getConstancy(op->rank() == rank ? d : 0));
    constancy.push_back(q ? q : 1);
  }
  return AxisInfo(Vec(rank, 1), Vec(rank, 1), constancy);
}

/// x < y style comparisons: equal across aligned runs of x where y is
/// constant and a multiple of the run length.
int64_t compareConstancy(const AxisInfo &x, const AxisInfo &y, unsigned d) {
  int64_t g = gcd(x.getContiguity(d), x.getDivisibility(d));
  g = gcd(g, y.elementDivisibility(d));
  return gcd(g, y.getConstancy(d));
}

std::optional<int64_t> evalCmp(arith::CmpIPredicate pred, int64_t a, int64_t b) {
  switch (pred) {
  case arith::CmpIPredicate::eq: return a == b;
  case arith::CmpIPredicate::ne: return a != b;
  case arith::CmpIPredicate::slt: return a < b;
  case arith::CmpIPredicate::sle: return a <= b;
  case arith::CmpIPredicate::sgt: return a > b;
  case arith::CmpIPredicate::sge: return a >= b;
  default: return std::nullopt;
  }
}

AxisInfo cmpInfo(arith::CmpIOp op, const AxisInfo &a, const AxisInfo &b) {
  unsigned rank = a.rank();
  AxisInfo base = elementwiseInfo({&a, &b}, rank);
  Vec constancy(base.getConstancy());
  using P = arith::CmpIPredicate;
  P pred = op.getPredicate();
  for (unsigned d = 0; d < rank; ++d) {
    // x < c and x >= c flip at multiples of c only; c > x, c <= x likewise.
    if (pred == P::slt || pred == P::ult || pred == P::sge || pred == P::uge)
      constancy[d] = std::max(constancy[d], compareConstancy(a, b, d));
    if (pred == P::sgt || pred == P::ugt || pred == P::sle || pred == P::ule)
      constancy[d] = std::max(constancy[d], compareConstancy(b, a, d));
  }
  std::optional<int64_t> value;
  if (a.getConstant() && b.getConstant())
    value = evalCmp(pred, *a.getConstant(), *b.getConstant());
  return AxisInfo(Vec(rank, 1), Vec(rank, 1), constancy, value);
}

AxisInfo selectInfo(const AxisInfo &c, const AxisInfo &t, const AxisInfo &f,
                    bool scalarCond) {
  unsigned rank = t.rank();
  Vec contig(rank), div(rank), constancy(rank);
  for (unsigned d = 0; d < rank; ++d) {
    int64_t qc = scalarCond ? AxisInfo::kMaxDivisibility : c.getConstancy(d);
    int64_t g = gcd(gcd(t.getContiguity(d), f.getContiguity(d)), qc);
    contig[d] = g;
    div[d] = g > 1 ? gcd(std::min(t.getDivisibility(d), g),
                         std::min(f.getDivisibility(d), g))
                   : gcd(t.elementDivisibility(d), f.elementDivisibility(d));
    constancy[d] = gcd(gcd(t.getConstancy(d), f.getConstancy(d)), qc);
  }
  return AxisInfo(contig, div, constancy);
}

AxisInfo attrSeeded(Value value, ArrayRef<int64_t> div, ArrayRef<int64_t> contig,
                    unsigned rank) {
  Vec d(div.begin(), div.end()), c(contig.begin(), contig.end());
  Vec constancy(rank ? rank : 1, 1);
  return AxisInfo(c, d, constancy);
}
} // namespace

//===----------------------------------------------------------------------===//
// AxisInfo
//===----------------------------------------------------------------------===//

AxisInfo AxisInfo::unknown(unsigned rank) {
  unsigned n = std::max(rank, 1u);
  return AxisInfo(Vec(n, 1), Vec(n, 1), Vec(n, 1));
}

AxisInfo AxisInfo::entryState(Value value) {
  unsigned rank = rankOf(value.getType());
  auto arg = dyn_cast<BlockArgument>(value);
  if (!arg)
    return unknown(rank);
  auto func = dyn_cast<FunctionOpInterface>(arg.getOwner()->getParentOp());
  if (!func || arg.getOwner() != &func.getFunctionBody().front())
    return unknown(rank);
  unsigned n = std::max(rank, 1u);
  Vec div(n, 1), contig(n, 1);
  auto read = [&](StringRef name, Vec &out) {
    if (auto attr = func.getArgAttrOfType<IntegerAttr>(arg.getArgNumber(), name)) {
      int64_t v = attr.getInt();
      if (v > 0)
        out.assign(n, pow2Divisor(v));
    }
  };
  read("tile.divisibility", div);
  Vec hinted(n, 1);
  read("tile.multiple_of", hinted);
  for (unsigned d = 0; d < n; ++d)
    div[d] = std::max(div[d], hinted[d]);
  read("tile.max_contiguous", contig);
  return attrSeeded(value, div, contig, rank);
}

AxisInfo AxisInfo::join(const AxisInfo &lhs, const AxisInfo &rhs) {
  if (!lhs.isInitialized())
    return rhs;
  if (!rhs.isInitialized())
    return lhs;
  if (lhs.rank() != rhs.rank())
    return unknown(0);
  Vec contig, div, constancy;
  for (unsigned d = 0; d < lhs.rank(); ++d) {
    contig.push_back(gcd(lhs.contiguity[d], rhs.contiguity[d]));
    div.push_back(gcd(lhs.divisibility[d], rhs.divisibility[d]));
    constancy.push_back(gcd(lhs.constancy[d], rhs.constancy[d]));
  }
  std::optional<int64_t> constant;
  if (lhs.constant == rhs.constant)
    constant = lhs.constant;
  return AxisInfo(contig, div, constancy, constant);
}

void AxisInfo::print(raw_ostream &os) const {
  if (!initialized) {
    os << "<uninitialized>";
    return;
  }
  auto list = [&](ArrayRef<int64_t> v) {
    os << "[";
    llvm::interleaveComma(v, os);
    os << "]";
  };
  os << "contiguity = ";
  list(contiguity);
  os << ", divisibility = ";
  list(divisibility);
  os << ", constancy = ";
  list(constancy);
  if (constant)
    os << ", constant = " << *constant;
}

//===----------------------------------------------------------------------===//
// AxisInfoAnalysis
//===----------------------------------------------------------------------===//

void AxisInfoAnalysis::setToEntryState(AxisInfoLattice *lattice) {
  propagateIfChanged(lattice,
                     lattice->join(AxisInfo::entryState(lattice->getAnchor())));
}

void AxisInfoAnalysis::visitNonControlFlowArguments(
    Operation *op, const RegionSuccessor &successor,
    ArrayRef<AxisInfoLattice *> argLattices, unsigned firstIndex) {
  // The induction variable of scf.for (block argument 0): lb + k * step.
  // (With no iter_args the framework reports firstIndex 0.)
  auto forOp = dyn_cast<scf::ForOp>(op);
  if (forOp && !successor.isParent() && !argLattices.empty()) {
    unsigned numInputs = successor.getSuccessorInputs().size();
    setAllToEntryStates(argLattices.drop_front(std::max(1u, firstIndex + numInputs)));
    const AxisInfoLattice *lb =
        getLatticeElementFor(getProgramPointAfter(op), forOp.getLowerBound());
    const AxisInfoLattice *step =
        getLatticeElementFor(getProgramPointAfter(op), forOp.getStep());
    // Joins only lower the facts: wait until both bounds are known.
    if (!lb->getValue().isInitialized() || !step->getValue().isInitialized())
      return;
    int64_t div = gcd(lb->getValue().getDivisibility(0),
                      step->getValue().getDivisibility(0));
    AxisInfo iv({1}, {div}, {1});
    propagateIfChanged(argLattices[0], argLattices[0]->join(iv));
    return;
  }
  SparseForwardDataFlowAnalysis::visitNonControlFlowArguments(
      op, successor, argLattices, firstIndex);
}

LogicalResult
AxisInfoAnalysis::visitOperation(Operation *op,
                                 ArrayRef<const AxisInfoLattice *> operandLattices,
                                 ArrayRef<AxisInfoLattice *> results) {
  SmallVector<const AxisInfo *> ops;
  for (const AxisInfoLattice *l : operandLattices) {
    if (!l->getValue().isInitialized())
      return success(); // Revisited once every operand is known.
    ops.push_back(&l->getValue());
  }
  auto set = [&](unsigned i, const AxisInfo &info) {
    propagateIfChanged(results[i], results[i]->join(info));
  };
  if (results.empty())
    return success();
  Type type = op->getResult(0).getType();
  unsigned rank = rankOf(type);
  Vec shape = shapeOf(type);

  std::optional<AxisInfo> info =
      llvm::TypeSwitch<Operation *, std::optional<AxisInfo>>(op)
          .Case<arith::ConstantOp>([&](auto c) -> std::optional<AxisInfo> {
            Attribute value = c.getValue();
            if (auto i = dyn_cast<IntegerAttr>(value))
              return constantInfo(type, i.getInt(), pow2Divisor(i.getInt()));
            if (auto splat = dyn_cast<SplatElementsAttr>(value)) {
              if (auto i = dyn_cast<IntegerAttr>(splat.getSplatValue<Attribute>())) {
                int64_t v = i.getValue().getSExtValue();
                return constantInfo(type, v, pow2Divisor(v));
              }
              return constantInfo(type, std::nullopt, 1);
            }
            if (isa<FloatAttr>(value))
              return constantInfo(type, std::nullopt, 1);
            return std::nullopt;
          })
          .Case<tile::ArangeOp>([&](auto a) -> std::optional<AxisInfo> {
            return AxisInfo({a.getEnd() - a.getStart()},
                            {pow2Divisor(a.getStart())}, {1});
          })
          .Case<tile::SplatOp>([&](auto) -> std::optional<AxisInfo> {
            return AxisInfo(Vec(rank, 1),
                            Vec(rank, ops[0]->elementDivisibility(0)), shape,
                            ops[0]->getConstant());
          })
          .Case<tile::BroadcastOp>([&](auto b) -> std::optional<AxisInfo> {
            auto src = cast<RankedTensorType>(b.getSrc().getType());
            Vec contig, div, constancy;
            for (unsigned d = 0; d < rank; ++d) {
              if (src.getDimSize(d) == 1 && shape[d] != 1) {
                contig.push_back(1);
                div.push_back(ops[0]->getDivisibility(d));
                constancy.push_back(shape[d]);
              } else {
                contig.push_back(ops[0]->getContiguity(d));
                div.push_back(ops[0]->getDivisibility(d));
                constancy.push_back(ops[0]->getConstancy(d));
              }
            }
            return AxisInfo(contig, div, constancy, ops[0]->getConstant());
          })
          .Case<tile::ExpandDimsOp>([&](auto e) -> std::optional<AxisInfo> {
            const AxisInfo &s = *ops[0];
            Vec contig(s.getContiguity()), div(s.getDivisibility()),
                constancy(s.getConstancy());
            // The new size-1 dimension: every element is its own run.
            int64_t elemDiv = AxisInfo::kMaxDivisibility;
            for (unsigned d = 0; d < s.rank(); ++d)
              elemDiv = std::min(elemDiv, s.elementDivisibility(d));
            unsigned axis = e.getAxis();
            contig.insert(contig.begin() + axis, 1);
            div.insert(div.begin() + axis, elemDiv);
            constancy.insert(constancy.begin() + axis, 1);
            return AxisInfo(contig, div, constancy, s.getConstant());
          })
          .Case<tile::TransOp>([&](auto t) -> std::optional<AxisInfo> {
            // Dimension d of the result is dimension order[d] of the source.
            const AxisInfo &s = *ops[0];
            Vec contig, div, constancy;
            for (int32_t from : t.getOrder()) {
              contig.push_back(s.getContiguity(from));
              div.push_back(s.getDivisibility(from));
              constancy.push_back(s.getConstancy(from));
            }
            return AxisInfo(contig, div, constancy, s.getConstant());
          })
          .Case<tile::AddPtrOp>([&](auto a) -> std::optional<AxisInfo> {
            return addInfo(*ops[0], *ops[1], getPointeeBytes(a.getPtr().getType()),
                           /*isSub=*/false);
          })
          .Case<arith::AddIOp>([&](auto) -> std::optional<AxisInfo> {
            return addInfo(*ops[0], *ops[1], 1, false);
          })
          .Case<arith::SubIOp>([&](auto) -> std::optional<AxisInfo> {
            return addInfo(*ops[0], *ops[1], 1, true);
          })
          .Case<arith::MulIOp>([&](auto) -> std::optional<AxisInfo> {
            return mulInfo(*ops[0], *ops[1]);
          })
          .Case<arith::MinSIOp, arith::MaxSIOp, arith::MinUIOp, arith::MaxUIOp>(
              [&](auto m) -> std::optional<AxisInfo> {
                // Each element is one of the operands' elements: it keeps
                // what both divide by (a clamped bound of a descriptor
                // access keeps the 16 of its shape).
                const AxisInfo &a = *ops[0], &c = *ops[1];
                if (a.rank() != c.rank())
                  return std::nullopt;
                AxisInfo base = elementwiseInfo(ops, a.rank());
                Vec div;
                for (unsigned d = 0; d < a.rank(); ++d)
                  div.push_back(gcd(a.elementDivisibility(d), c.elementDivisibility(d)));
                std::optional<int64_t> value;
                if (a.getConstant() && c.getConstant()) {
                  int64_t x = *a.getConstant(), y = *c.getConstant();
                  bool isMin = isa<arith::MinSIOp, arith::MinUIOp>(m.getOperation());
                  bool isUnsigned = isa<arith::MinUIOp, arith::MaxUIOp>(m.getOperation());
                  bool less = isUnsigned ? uint64_t(x) < uint64_t(y) : x < y;
                  value = (less == isMin) ? x : y;
                  div = Vec(a.rank(), pow2Divisor(*value));
                }
                return AxisInfo(Vec(a.rank(), 1), div, base.getConstancy(), value);
              })
          .Case<arith::ShLIOp>([&](auto) -> std::optional<AxisInfo> {
            if (auto k = ops[1]->getConstant(); k && *k >= 0 && *k < 31)
              return mulInfo(*ops[0], constantInfo(type, int64_t(1) << *k,
                                                   int64_t(1) << *k));
            return std::nullopt;
          })
          .Case<arith::DivSIOp, arith::DivUIOp>([&](auto) -> std::optional<AxisInfo> {
            if (auto c = ops[1]->getConstant(); c && *c > 0)
              return *c == 1 ? *ops[0] : divInfo(*ops[0], *c);
            return elementwiseInfo(ops, std::max(rank, 1u));
          })
          .Case<arith::RemSIOp, arith::RemUIOp>([&](auto) -> std::optional<AxisInfo> {
            if (auto c = ops[1]->getConstant(); c && *c > 0)
              return remInfo(*ops[0], *c);
            if (ops[0]->rank() == ops[1]->rank())
              return remByUniformInfo(*ops[0], *ops[1]);
            return elementwiseInfo(ops, std::max(rank, 1u));
          })
          .Case<arith::ShRSIOp, arith::ShRUIOp>([&](auto) -> std::optional<AxisInfo> {
            if (auto k = ops[1]->getConstant(); k && *k >= 0 && *k < 31)
              return *k == 0 ? *ops[0] : divInfo(*ops[0], int64_t(1) << *k);
            return elementwiseInfo(ops, std::max(rank, 1u));
          })
          .Case<arith::CmpIOp>([&](auto c) -> std::optional<AxisInfo> {
            return cmpInfo(c, *ops[0], *ops[1]);
          })
          .Case<arith::SelectOp, tile::WhereOp>([&](auto) -> std::optional<AxisInfo> {
            bool scalarCond = !isa<RankedTensorType>(op->getOperand(0).getType());
            return selectInfo(*ops[0], *ops[1], *ops[2], scalarCond);
          })
          .Case<arith::ExtSIOp, arith::ExtUIOp, arith::TruncIOp, arith::IndexCastOp,
                tile::ConvertLayoutOp>([&](auto) -> std::optional<AxisInfo> {
            return *ops[0];
          })
          .Case<tile::PtrCastOp>([&](auto c) -> std::optional<AxisInfo> {
            // Divisibility and constancy are the address's (bytes); runs of
            // consecutive elements stay runs only between pointers to
            // elements of one size.
            Type from = getElementTypeOrSelf(c.getSrc().getType());
            Type to = getElementTypeOrSelf(c.getResult().getType());
            bool sameWidth = isa<tile::PtrType>(from) && isa<tile::PtrType>(to) &&
                             getPointeeBytes(from) == getPointeeBytes(to);
            Vec contig = sameWidth ? Vec(ops[0]->getContiguity())
                                   : Vec(ops[0]->rank(), 1);
            return AxisInfo(contig, ops[0]->getDivisibility(),
                            ops[0]->getConstancy());
          })
          .Case<tile::MultipleOfOp>([&](auto h) -> std::optional<AxisInfo> {
            Vec div(ops[0]->getDivisibility());
            for (auto [d, v] : llvm::enumerate(h.getValues()))
              div[d] = std::max(div[d], pow2Divisor(v));
            return AxisInfo(ops[0]->getContiguity(), div, ops[0]->getConstancy(),
                            ops[0]->getConstant());
          })
          .Case<tile::MaxContiguousOp>([&](auto h) -> std::optional<AxisInfo> {
            return runHint(*ops[0], h.getValues(), /*equalRuns=*/false);
          })
          .Case<tile::MaxConstancyOp>([&](auto h) -> std::optional<AxisInfo> {
            return runHint(*ops[0], h.getValues(), /*equalRuns=*/true);
          })
          .Case<tile::LoadOp>([&](auto l) -> std::optional<AxisInfo> {
            // Equal addresses (and mask bits) load equal values.
            SmallVector<const AxisInfo *> in{ops[0]};
            if (l.getMask())
              in.push_back(ops[1]);
            return elementwiseInfo(in, std::max(rank, 1u));
          })
          .Default([&](Operation *) -> std::optional<AxisInfo> {
            if (op->hasTrait<OpTrait::Elementwise>() ||
                OpTrait::hasElementwiseMappableTraits(op))
              return elementwiseInfo(ops, std::max(rank, 1u));
            return std::nullopt;
          });

  // Fold scalar integer arithmetic on known constants the rules above skip.
  if (info && !info->getConstant() && rank == 0) {
    std::optional<int64_t> folded;
    if (ops.size() == 2 && ops[0]->getConstant() && ops[1]->getConstant()) {
      int64_t a = *ops[0]->getConstant(), b = *ops[1]->getConstant();
      if (isa<arith::DivSIOp>(op) && b != 0)
        folded = a / b;
      else if (isa<arith::RemSIOp>(op) && b != 0)
        folded = a % b;
    }
    if (folded)
      info = constantInfo(type, folded, pow2Divisor(*folded));
  }

  for (unsigned i = 0; i < results.size(); ++i) {
    if (i == 0 && info)
      set(0, *info);
    else
      set(i, AxisInfo::unknown(rankOf(op->getResult(i).getType())));
  }
  return success();
}

//===----------------------------------------------------------------------===//
// ModuleAxisInfo
//===----------------------------------------------------------------------===//

ModuleAxisInfo::ModuleAxisInfo(Operation *root) {
  dataflow::loadBaselineAnalyses(solver);
  solver.load<AxisInfoAnalysis>();
  ok = solver.initializeAndRun(root);
}

AxisInfo ModuleAxisInfo::get(Value value) const {
  const AxisInfoLattice *lattice = solver.lookupState<AxisInfoLattice>(value);
  if (!lattice || !lattice->getValue().isInitialized())
    return AxisInfo::unknown(rankOf(value.getType()));
  return lattice->getValue();
}

unsigned kiln::getPointeeBytes(Type ptrLike) {
  Type elem = tile::getElementTypeOrSelf(tile::getPointeeType(ptrLike));
  if (isa<tile::PtrType>(elem))
    return 8;
  return std::max(1u, elem.getIntOrFloatBitWidth() / 8);
}

unsigned ModuleAxisInfo::getVectorWidth(Value ptr, unsigned dim, Value mask) const {
  unsigned bytes = getPointeeBytes(ptr.getType());
  AxisInfo p = get(ptr);
  if (dim >= p.rank())
    return 1;
  int64_t width = std::min<int64_t>(p.getContiguity(dim),
                                    std::max<int64_t>(1, 16 / bytes));
  width = std::min<int64_t>(width, std::max<int64_t>(1, p.getDivisibility(dim) / bytes));
  if (mask) {
    AxisInfo m = get(mask);
    if (dim < m.rank())
      width = std::min<int64_t>(width, m.getConstancy(dim));
    else
      width = 1;
  }
  return std::max<int64_t>(1, llvm::bit_floor(uint64_t(width)));
}

//===- IRGenSCF.h - Building scf regions piecewise -------------*- C++ -*-===//
//
// IRGen opens an scf.if before it knows what the arms yield (that depends on
// the code generated inside them), so it builds the arms first and rebuilds
// the op with results at the end.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_LIB_FRONTEND_IRGENSCF_H
#define KILN_LIB_FRONTEND_IRGENSCF_H

#include "mlir/Dialect/SCF/IR/SCF.h"

namespace kiln::fe {

/// Sets the insertion point at the end of `blk`, before its terminator if it
/// has one.
inline void insertAtEnd(mlir::OpBuilder &b, mlir::Block *blk) {
  if (!blk->empty() && blk->back().hasTrait<mlir::OpTrait::IsTerminator>())
    b.setInsertionPoint(&blk->back());
  else
    b.setInsertionPointToEnd(blk);
}

/// Replaces `blk`'s terminator (if any) by `scf.yield values`.
inline void finishWithYield(mlir::OpBuilder &b, mlir::Block *blk,
                            mlir::Location loc, mlir::ValueRange values) {
  if (!blk->empty() && blk->back().hasTrait<mlir::OpTrait::IsTerminator>())
    blk->back().erase();
  mlir::OpBuilder::InsertionGuard g(b);
  b.setInsertionPointToEnd(blk);
  mlir::scf::YieldOp::create(b, loc, values);
}

/// An scf.if without results, with both arms, for the caller to fill.
inline mlir::scf::IfOp openIf(mlir::OpBuilder &b, mlir::Location l,
                              mlir::Value cond) {
  return mlir::scf::IfOp::create(b, l, mlir::TypeRange{}, cond,
                                 /*addThenBlock=*/true, /*addElseBlock=*/true);
}

/// The then (k = 0) or else (k = 1) block of `ifOp`.
inline mlir::Block *armBlock(mlir::scf::IfOp ifOp, int k) {
  return k == 0 ? &ifOp.getThenRegion().front() : &ifOp.getElseRegion().front();
}

/// Replaces `ifOp` by an scf.if whose arms yield `thenVals` / `elseVals`.
/// An empty else arm without results is dropped for readability.
inline mlir::scf::IfOp closeIf(mlir::OpBuilder &b, mlir::scf::IfOp ifOp,
                               mlir::Location l, mlir::ValueRange thenVals,
                               mlir::ValueRange elseVals) {
  mlir::OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(ifOp);
  auto res = mlir::scf::IfOp::create(b, l, mlir::TypeRange(thenVals),
                                     ifOp.getCondition(), false, false);
  res.getThenRegion().takeBody(ifOp.getThenRegion());
  res.getElseRegion().takeBody(ifOp.getElseRegion());
  ifOp.erase();
  finishWithYield(b, armBlock(res, 0), l, thenVals);
  finishWithYield(b, armBlock(res, 1), l, elseVals);
  mlir::Block *eb = armBlock(res, 1);
  if (thenVals.empty() && eb->getOperations().size() == 1)
    eb->erase();
  return res;
}

} // namespace kiln::fe

#endif

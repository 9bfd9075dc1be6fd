//===- LayoutTerms.h - Union-find over layout terms (AssignLayouts) -------===//
//
// Each tensor value of the layout assignment has a term: a free variable
// (becomes a #tile.blocked layout unless it joins a fixed one), a fixed
// layout (tl.dot's #tile.mma accumulator and #tile.dot_op operands) or
// `slice(dim, term)`. Terms unify when their constraints allow it.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_DIALECT_TILE_TRANSFORMS_LAYOUTTERMS_H
#define KILN_DIALECT_TILE_TRANSFORMS_LAYOUTTERMS_H

#include "kiln/Dialect/Tile/IR/Tile.h"

#include <vector>

namespace kiln::tile {
using mlir::Attribute;
using mlir::isa;
using mlir::isa_and_nonnull;
using mlir::dyn_cast;

/// Union-find over layout terms.
class LayoutTerms {
public:
  /// `fastDim` >= 0 pins the variable's fastest dimension: it never unifies
  /// with a variable pinned to another one (each global access keeps the
  /// layout its own pointers coalesce in).
  int newVar(unsigned rank, bool blockedOnly = false, int fastDim = -1) {
    nodes.push_back({int(nodes.size()), false, 0, -1, rank,
                     blockedOnly || fastDim >= 0, false, false, fastDim});
    return nodes.size() - 1;
  }
  /// A term whose layout is given (tl.dot's #tile.mma / #tile.dot_op).
  int newFixed(unsigned rank, Attribute layout) {
    int n = newVar(rank);
    nodes[n].fixed = layout;
    return n;
  }
  Attribute fixedLayout(int n) { return nodes[find(n)].fixed; }
  int newSlice(unsigned dim, int parent) {
    nodes.push_back({int(nodes.size()), true, dim, parent,
                     nodes[parent].rank - 1, false, false, false, -1});
    return nodes.size() - 1;
  }
  int find(int n) {
    while (nodes[n].parent != n) {
      nodes[n].parent = nodes[nodes[n].parent].parent;
      n = nodes[n].parent;
    }
    return n;
  }
  bool isSlice(int n) { return nodes[find(n)].isSlice; }
  unsigned sliceDim(int n) { return nodes[find(n)].dim; }
  int sliceParent(int n) { return nodes[find(n)].sliceOf; }
  void requireBlocked(int n) { nodes[find(n)].blockedOnly = true; }
  /// The term may become a blocked or an accumulator layout, not a slice
  /// (what a reduction's operand and an expand_dims result need: Kiln has
  /// no slice of a slice).
  void requireNotSlice(int n) { nodes[find(n)].notSlice = true; }
  /// The term never joins a fixed layout (a global access's pointers keep
  /// their coalesced layout; a value stored from an accumulator converts).
  void requireNoFixed(int n) { nodes[find(n)].noFixed = true; }
  /// Whether the term is, or is a slice of, a fixed #tile.mma layout.
  bool isMmaRooted(int n) {
    n = find(n);
    while (nodes[n].isSlice)
      n = find(nodes[n].sliceOf);
    return isa_and_nonnull<MmaLayoutAttr>(nodes[n].fixed);
  }
  int pinnedFastDim(int n) { return nodes[find(n)].fastDim; }

  bool canUnify(int a, int b) {
    a = find(a), b = find(b);
    if (a == b)
      return true;
    const Node &x = nodes[a], &y = nodes[b];
    if (x.rank != y.rank)
      return false;
    if (x.fixed || y.fixed) {
      const Node &other = x.fixed ? y : x;
      if (other.fixed || other.isSlice)
        return x.fixed == y.fixed;
      // The accumulator layout takes in free variables; a pinned blocked
      // one (a tl.dot operand's load) those that coalesce along its fastest
      // dimension; #tile.dot_op layouts none.
      Attribute fixed = x.fixed ? x.fixed : y.fixed;
      if (auto blocked = dyn_cast<BlockedLayoutAttr>(fixed))
        return !other.noFixed &&
               (other.fastDim < 0 || unsigned(other.fastDim) == blocked.getOrder()[0]);
      return isa<MmaLayoutAttr>(fixed) && !other.blockedOnly && !other.noFixed &&
             other.fastDim < 0;
    }
    if (!x.isSlice && !y.isSlice)
      return x.fastDim < 0 || y.fastDim < 0 || x.fastDim == y.fastDim;
    if (!x.isSlice)
      return !x.blockedOnly && !x.notSlice;
    if (!y.isSlice)
      return !y.blockedOnly && !y.notSlice;
    return x.dim == y.dim && canUnify(x.sliceOf, y.sliceOf);
  }

  /// Precondition: canUnify(a, b).
  void unify(int a, int b) {
    a = find(a), b = find(b);
    if (a == b)
      return;
    Node &x = nodes[a], &y = nodes[b];
    if (x.fixed) { // A fixed term stays the root.
      y.parent = a;
    } else if (y.fixed) {
      x.parent = b;
    } else if (!x.isSlice) {
      y.blockedOnly |= x.blockedOnly;
      y.notSlice |= x.notSlice;
      y.noFixed |= x.noFixed;
      if (y.fastDim < 0)
        y.fastDim = x.fastDim;
      x.parent = b;
    } else if (!y.isSlice) {
      x.blockedOnly |= y.blockedOnly;
      x.notSlice |= y.notSlice;
      x.noFixed |= y.noFixed;
      y.parent = a;
    } else {
      int px = x.sliceOf, py = y.sliceOf;
      x.parent = b;
      unify(px, py);
    }
  }

private:
  struct Node {
    int parent;
    bool isSlice;
    unsigned dim;
    int sliceOf;
    unsigned rank;
    bool blockedOnly; ///< Only a #tile.blocked layout (nor mma, nor slice).
    bool notSlice;
    bool noFixed;
    int fastDim;
    Attribute fixed = {};
  };
  std::vector<Node> nodes;
};

} // namespace kiln::tile

#endif

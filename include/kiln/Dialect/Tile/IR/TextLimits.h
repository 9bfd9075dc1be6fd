//===- TextLimits.h - What tile-IR text Kiln parses --------------*- C++ -*-===//
//
// MLIR's parser recurses once per nested bracket: a few thousand `[`
// exhaust the stack (the tile-IR fuzzer found it). Tile IR never nests more
// than a few dozen levels, so Kiln refuses deeper text before parsing it
// (compileTileModule, i.e. `ln-compile FILE.mlir`, and the fuzz target).
//
//===----------------------------------------------------------------------===//
#ifndef KILN_DIALECT_TILE_IR_TEXTLIMITS_H
#define KILN_DIALECT_TILE_IR_TEXTLIMITS_H

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <utility>

namespace kiln::tile {

constexpr unsigned kMaxTileIRNesting = 256;

/// The 1-based line and column of the first bracket (`( [ { <`) of `text`
/// nested deeper than `limit`, outside strings and `//` comments; none if
/// none is.
std::optional<std::pair<unsigned, unsigned>> bracketBeyondDepth(llvm::StringRef text,
                                                                unsigned limit);

} // namespace kiln::tile

#endif

//===- TextLimits.h - What tile-IR text Kiln parses --------------*- C++ -*-===//
//
// Text MLIR's parser cannot take, refused before parsing (compileTileModule,
// i.e. `ln-compile FILE.mlir`, and the fuzz target): it recurses once per
// nested bracket, so a few thousand `[` exhaust the stack (tile IR never
// nests more than a few dozen levels), and it crashes on a dense array of
// index elements. Both were found by the tile-IR fuzzer.
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

/// The 1-based line and column of the first `array<index` of `text` (a
/// dense array of index elements, blanks and NUL bytes allowed between), on
/// which MLIR 22's parser crashes (the tile-IR fuzzer found it); none if
/// there is none.
std::optional<std::pair<unsigned, unsigned>> indexDenseArray(llvm::StringRef text);

} // namespace kiln::tile

#endif

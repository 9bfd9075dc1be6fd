//===- ChildBlocks.h - Blocks nested in a compound statement ----*- C++ -*-===//
#ifndef KILN_FRONTEND_SYNTAX_CHILDBLOCKS_H
#define KILN_FRONTEND_SYNTAX_CHILDBLOCKS_H

#include "kiln/Frontend/Syntax/AST.h"

namespace kiln::ast {

/// The blocks a compound statement nests in its own scope: if / for / while
/// bodies and else blocks, try's body, handlers, else and finally, with's
/// body, match's cases (not def or class bodies). None for other statements.
std::vector<const Block *> childBlocks(const Stmt *s);

} // namespace kiln::ast

#endif // KILN_FRONTEND_SYNTAX_CHILDBLOCKS_H

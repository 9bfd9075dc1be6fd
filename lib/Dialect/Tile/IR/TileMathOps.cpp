//===- TileMathOps.cpp - Verifiers of the math / inline-asm ops -----------===//
#include "kiln/Dialect/Tile/IR/Tile.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace kiln::tile;

unsigned kiln::tile::inlineAsmRegisterBits(Type elem, unsigned pack) {
  unsigned bits = elem.isIntOrFloat() ? elem.getIntOrFloatBitWidth() : 64;
  unsigned perReg = std::min(std::max(32 / bits, 1u), pack);
  return bits * perReg;
}

unsigned kiln::tile::inlineAsmRegisterCount(Type elem, unsigned pack) {
  unsigned bits = elem.isIntOrFloat() ? elem.getIntOrFloatBitWidth() : 64;
  unsigned perReg = std::min(std::max(32 / bits, 1u), pack);
  return pack / perReg;
}

/// Register width of an NVPTX constraint letter (0: unknown).
static unsigned constraintBits(char c) {
  switch (c) {
  case 'b': return 1;
  case 'c': return 8;
  case 'h': return 16;
  case 'r': case 'f': return 32;
  case 'l': case 'd': return 64;
  default: return 0;
  }
}

std::optional<std::string>
kiln::tile::checkInlineAsmConstraints(llvm::StringRef constraints,
                                      llvm::ArrayRef<unsigned> outputBits,
                                      llvm::ArrayRef<unsigned> inputBits) {
  llvm::SmallVector<llvm::StringRef> parts;
  if (!constraints.empty())
    constraints.split(parts, ',');
  unsigned outs = 0, ins = 0;
  for (llvm::StringRef p : parts) {
    llvm::StringRef c = p.trim();
    if (c.starts_with("~{") && c.ends_with("}"))
      continue; // a clobber
    bool isOut = c.consume_front("=");
    if (isOut)
      c.consume_front("&");
    unsigned index = isOut ? outs : ins;
    if (!isOut && !c.empty() && llvm::all_of(c, llvm::isDigit)) {
      unsigned tied = 0;
      if (c.getAsInteger(10, tied) || tied >= outputBits.size())
        return "constraint `" + p.str() + "` ties input " +
               std::to_string(index) + " to output " + c.str() +
               ", which does not exist";
      if (ins < inputBits.size() && inputBits[ins] != outputBits[tied])
        return "constraint `" + p.str() + "` ties a " +
               std::to_string(inputBits[ins]) + "-bit input to a " +
               std::to_string(outputBits[tied]) + "-bit output";
      ++ins;
      continue;
    }
    if (!isOut && c == "n") { // an immediate
      ++ins;
      continue;
    }
    if (c.size() != 1 || !constraintBits(c[0]))
      return "unknown constraint `" + p.str() +
             "` (NVPTX registers: b, c, h, r, l, f, d; `n` immediates, "
             "digits tie to an output, `~{...}` clobbers)";
    unsigned bits = constraintBits(c[0]);
    llvm::ArrayRef<unsigned> list = isOut ? outputBits : inputBits;
    // An 8- or 16-bit value may sit in a wider integer register (Triton
    // passes it as is and LLVM extends / truncates it: FastVideo's nvfp4
    // helpers put a uint8 in `r`).
    bool narrowInt = (c[0] == 'h' || c[0] == 'r' || c[0] == 'l') && index < list.size() &&
                     (list[index] == 8 || list[index] == 16) && list[index] < bits;
    // A 64-bit output (an integer, a pointer) written through a 32-bit `r`:
    // LLVM zero-extends the register, as under Triton (Megatron's signal
    // kernels: `"=r, l"` with dtype=addrs.dtype).
    bool widenedOut = isOut && c[0] == 'r' && index < list.size() && list[index] == 64;
    if (index < list.size() && list[index] != bits && !narrowInt && !widenedOut)
      return "constraint `" + p.str() + "` is a " + std::to_string(bits) +
             "-bit register but " + (isOut ? "output " : "input ") +
             std::to_string(index) + " is " + std::to_string(list[index]) +
             " bits";
    ++(isOut ? outs : ins);
  }
  if (outs != outputBits.size())
    return "the constraints name " + std::to_string(outs) + " output" +
           (outs == 1 ? "" : "s") + " but the assembly has " +
           std::to_string(outputBits.size()) + " output register" +
           (outputBits.size() == 1 ? "" : "s");
  if (ins != inputBits.size())
    return "the constraints name " + std::to_string(ins) + " input" +
           (ins == 1 ? "" : "s") + " but the assembly has " +
           std::to_string(inputBits.size()) + " input register" +
           (inputBits.size() == 1 ? "" : "s");
  return std::nullopt;
}

void InlineAsmElementwiseOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  if (getPure())
    return;
  effects.emplace_back(MemoryEffects::Write::get());
  effects.emplace_back(MemoryEffects::Read::get());
}

std::optional<std::string> kiln::tile::checkInlineAsmTemplate(llvm::StringRef text,
                                                              unsigned numOperands) {
  // Mirrors the grammar of LLVM's inline-asm printer, which aborts the
  // process on anything else: `$$ $( $| $)`, `$N`, `${N}`, `${N:m}` with one
  // modifier character NVPTX prints for a register (`r`), and the printer's
  // specials `${:uid}`, `${:comment}`, `${:private}`.
  auto at = [](size_t i) { return " at offset " + std::to_string(i) + " of the assembly"; };
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '$')
      continue;
    size_t dollar = i;
    llvm::StringRef rest = text.drop_front(i + 1);
    if (!rest.empty() && llvm::is_contained(StringRef("$(|)"), rest[0])) {
      ++i;
      continue;
    }
    bool braced = rest.consume_front("{");
    if (braced && rest.consume_front(":")) {
      size_t close = rest.find('}');
      if (close == llvm::StringRef::npos)
        return "`${:`" + at(dollar) + " is not closed by `}`";
      llvm::StringRef special = rest.take_front(close);
      if (special != "uid" && special != "comment" && special != "private")
        return "`${:" + special.str() + "}`" + at(dollar) +
               " is not one of `${:uid}`, `${:comment}`, `${:private}`";
      i = text.size() - rest.size() + close;
      continue;
    }
    size_t digits = std::min(rest.find_if_not(llvm::isDigit), rest.size());
    unsigned n = 0;
    if (digits == 0 || rest.take_front(digits).getAsInteger(10, n))
      return "`$`" + at(dollar) + " is not followed by an operand number "
             "(`$0`, `${0}`; `$$` for a literal `$`)";
    if (n >= numOperands)
      return "the assembly refers to operand $" + std::to_string(n) + " but has " +
             std::to_string(numOperands) + " operand" + (numOperands == 1 ? "" : "s");
    rest = rest.drop_front(digits);
    if (braced) {
      if (rest.consume_front(":")) {
        if (rest.empty() || rest[0] != 'r')
          return "`${" + std::to_string(n) + ":`" + at(dollar) +
                 " needs the modifier `r` (the only one NVPTX prints for a register)";
        rest = rest.drop_front();
      }
      if (!rest.consume_front("}"))
        return "`${`" + at(dollar) + " is not closed by `}`";
    }
    i = text.size() - rest.size() - 1;
  }
  return std::nullopt;
}

LogicalResult InlineAsmElementwiseOp::verify() {
  int32_t pack = getPackedElement();
  if (pack < 1)
    return emitOpError() << "packed_element must be positive, got " << pack;
  std::optional<ArrayRef<int64_t>> shape;
  for (Type t : llvm::concat<Type>(getArgs().getTypes(), getResultTypes())) {
    auto tensor = dyn_cast<RankedTensorType>(t);
    if (!tensor)
      continue;
    if (shape && *shape != tensor.getShape())
      return emitOpError("operands and results must have one shape");
    shape = tensor.getShape();
    if (tensor.getNumElements() % pack != 0)
      return emitOpError() << "the number of elements (" << tensor.getNumElements()
                           << ") must be a multiple of packed_element (" << pack
                           << ")";
  }
  if (!shape && pack != 1)
    return emitOpError("scalar operands need packed_element = 1");
  SmallVector<unsigned> outs, ins;
  for (Type t : getResultTypes())
    outs.append(inlineAsmRegisterCount(getElementTypeOrSelf(t), pack),
                inlineAsmRegisterBits(getElementTypeOrSelf(t), pack));
  for (Type t : getArgs().getTypes())
    ins.append(inlineAsmRegisterCount(getElementTypeOrSelf(t), pack),
               inlineAsmRegisterBits(getElementTypeOrSelf(t), pack));
  if (std::optional<std::string> why =
          checkInlineAsmConstraints(getConstraints(), outs, ins))
    return emitOpError() << *why;
  if (std::optional<std::string> why =
          checkInlineAsmTemplate(getAsmString(), outs.size() + ins.size()))
    return emitOpError() << *why;
  return success();
}

LogicalResult MapElementwiseOp::verifyRegions() {
  int64_t pack = getPack();
  if (pack < 1)
    return emitOpError() << "pack must be positive, got " << pack;
  if (getSrcs().empty())
    return emitOpError("needs at least one operand");
  auto shapeOf = [](Type t) { return cast<RankedTensorType>(t).getShape(); };
  ArrayRef<int64_t> shape = shapeOf(getSrcs()[0].getType());
  for (Type t : llvm::concat<const Type>(getSrcs().getTypes(), getResultTypes()))
    if (shapeOf(t) != shape)
      return emitOpError("operands and results must have one shape");
  int64_t numel = cast<RankedTensorType>(getSrcs()[0].getType()).getNumElements();
  if (numel % pack != 0)
    return emitOpError() << "the number of elements (" << numel
                         << ") must be a multiple of pack (" << pack << ")";
  Block &body = getBody().front();
  if (body.getNumArguments() != getSrcs().size() * pack)
    return emitOpError() << "body takes " << body.getNumArguments()
                         << " arguments, expected " << getSrcs().size() * pack
                         << " (pack scalars per operand)";
  for (auto [k, arg] : llvm::enumerate(body.getArguments()))
    if (arg.getType() != getElementTypeOrSelf(getSrcs()[k / pack].getType()))
      return emitOpError() << "body argument " << k << " has type " << arg.getType()
                           << ", expected the element type of operand " << k / pack;
  Operation *yield = body.getTerminator();
  if (yield->getNumOperands() != getNumResults() * pack)
    return emitOpError() << "body yields " << yield->getNumOperands()
                         << " values, expected " << getNumResults() * pack
                         << " (pack scalars per result)";
  for (auto [k, v] : llvm::enumerate(yield->getOperands()))
    if (v.getType() != getElementTypeOrSelf(getResultTypes()[k / pack]))
      return emitOpError() << "body yields " << v.getType() << " as value " << k
                           << ", expected the element type of result " << k / pack;
  return success();
}

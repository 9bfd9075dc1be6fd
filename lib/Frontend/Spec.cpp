//===- Spec.cpp - Kernel specialization: dtypes, signatures, -D ----------===//
#include "kiln/Frontend/Spec.h"
#include "llvm/ADT/StringSwitch.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FormatVariadic.h"

using namespace kiln;

namespace {
struct DTypeInfo {
  DType type;
  const char *name;
  unsigned bytes;
  bool isFloat;
};
constexpr DTypeInfo kDTypes[] = {
    {DType::I1, "i1", 1, false},   {DType::I8, "i8", 1, false},
    {DType::I16, "i16", 2, false}, {DType::I32, "i32", 4, false},
    {DType::I64, "i64", 8, false}, {DType::U32, "u32", 4, false},
    {DType::F16, "fp16", 2, true}, {DType::BF16, "bf16", 2, true},
    {DType::F32, "fp32", 4, true}, {DType::F64, "fp64", 8, true},
    {DType::U8, "u8", 1, false},   {DType::U16, "u16", 2, false},
    {DType::U64, "u64", 8, false},
    {DType::F8E4M3, "fp8e4nv", 1, true}, {DType::F8E5M2, "fp8e5", 1, true},
};
const DTypeInfo &info(DType t) { return kDTypes[static_cast<int>(t)]; }

std::string typeList() {
  // Signed, unsigned, then floats, whatever the enumerators' order.
  static constexpr DType kOrder[] = {
      DType::I1, DType::I8,  DType::I16, DType::I32,  DType::I64,
      DType::U8, DType::U16, DType::U32, DType::U64,  DType::F16,
      DType::BF16, DType::F32, DType::F64, DType::F8E4M3, DType::F8E5M2};
  std::string s;
  for (DType d : kOrder)
    s += (s.empty() ? "" : ", ") + std::string(info(d).name);
  return s;
}

llvm::Error err(const llvm::Twine &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), msg);
}

bool isIdentifier(llvm::StringRef s) {
  if (s.empty() || !(llvm::isAlpha(s[0]) || s[0] == '_'))
    return false;
  return llvm::all_of(s, [](char c) { return llvm::isAlnum(c) || c == '_'; });
}

/// A constexpr literal as Triton's AOT signatures accept it: a Python number
/// (optionally signed), True/False/None, or a quoted string.
bool isConstexprLiteral(llvm::StringRef s) {
  if (s == "True" || s == "False" || s == "None")
    return true;
  // A @triton.jit function by its definition (the drop-in's spelling of a
  // function passed as an argument): __kiln_def__('PATH', 'NAME', LINE),
  // its quotes and parentheses balanced as the entry splitter sees them.
  if (s.starts_with("__kiln_def__(") && s.ends_with(")")) {
    int depth = 0;
    char quote = 0;
    for (size_t i = 0; i < s.size(); ++i) {
      char c = s[i];
      if (quote) {
        if (c == '\\')
          ++i;
        else if (c == quote)
          quote = 0;
        continue;
      }
      if (c == '"' || c == '\'')
        quote = c;
      else if (c == '(')
        ++depth;
      else if (c == ')' && --depth == 0 && i + 1 != s.size())
        return false;
      else if (c == '[' || c == ']' || c == '<' || c == '>')
        return false;
    }
    return depth == 0 && !quote;
  }
  // A tl function or dtype spelled in full (`triton.language.maximum`).
  if (s.starts_with("tl.") || s.starts_with("triton.language.")) {
    llvm::SmallVector<llvm::StringRef> parts;
    s.split(parts, '.');
    return llvm::all_of(parts, [](llvm::StringRef p) {
      return isIdentifier(p);
    });
  }
  if (s.size() >= 2 && (s.front() == '"' || s.front() == '\'')) {
    // One quoted string: its quote appears unescaped only at the two ends,
    // so the entry splitter of parseEntries sees the same extent.
    for (size_t i = 1; i < s.size(); ++i) {
      if (s[i] == '\\')
        ++i;
      else if (s[i] == s.front())
        return i == s.size() - 1;
    }
    return false;
  }
  llvm::StringRef body = s;
  if (body.consume_front("-") || body.consume_front("+")) {
  }
  // float('inf'), -float("nan"), float(2), math.inf: floats a literal
  // cannot write (the frontend evaluates them; parseConstexprText).
  if (body.consume_front("float(") && body.consume_back(")")) {
    if (body.size() >= 2 && (body.front() == '"' || body.front() == '\'') &&
        body.back() == body.front())
      return body.drop_front().drop_back().find_first_of("\"'\\") == llvm::StringRef::npos;
    return !body.starts_with("float(") && isConstexprLiteral(body);
  }
  if (body.consume_front("math."))
    return isIdentifier(body);
  if (body.empty())
    return false;
  if (!(llvm::isDigit(body[0]) ||
        (body[0] == '.' && body.size() > 1 && llvm::isDigit(body[1]))))
    return false;
  // Digits, '.', exponents, hex digits, underscores and the 0x/0o/0b
  // prefixes; the frontend parses the text with its Python lexer.
  return llvm::all_of(body, [](char c) {
    return llvm::isAlnum(c) || c == '.' || c == '_' || c == '+' || c == '-';
  });
}
} // namespace

const char *kiln::dtypeName(DType t) { return info(t).name; }

std::optional<DType> kiln::parseDTypeName(std::string_view s) {
  for (const DTypeInfo &d : kDTypes)
    if (s == d.name)
      return d.type;
  return std::nullopt;
}

unsigned kiln::dtypeBytes(DType t) { return info(t).bytes; }
bool kiln::isFloat(DType t) { return info(t).isFloat; }

std::string ParamSpec::toString() const {
  switch (kind) {
  case Kind::Constexpr:
    return constexprValue;
  case Kind::TensorDesc: {
    std::string s = std::string("tensordesc<") + dtypeName(dtype) + "[";
    for (size_t k = 0; k < blockShape.size(); ++k)
      s += (k ? "," : "") + std::to_string(blockShape[k]);
    s += "]";
    if (nanPadding)
      s += ",nan";
    if (llvm::any_of(shapeDivisibility, [](unsigned d) { return d > 1; })) {
      s += ",div=";
      for (size_t k = 0; k < shapeDivisibility.size(); ++k)
        s += (k ? "x" : "") + std::to_string(shapeDivisibility[k]);
    }
    return s + ">";
  }
  case Kind::Tuple: {
    std::string s = "(";
    for (size_t k = 0; k < elements.size(); ++k)
      s += (k ? "," : "") +
           (fieldNames.empty() ? std::string() : fieldNames[k] + "=") +
           elements[k].toString();
    return s + (elements.size() == 1 ? ",)" : ")");
  }
  case Kind::Pointer:
  case Kind::Scalar: {
    std::string s = kind == Kind::Pointer ? (constPointer ? "*k" : "*") : "";
    s += dtypeName(dtype);
    if (divisibility != 1)
      s += ":" + std::to_string(divisibility);
    return s;
  }
  }
  return "";
}

std::string KernelSpec::toString() const {
  std::string s = kernelName + "(";
  for (size_t i = 0; i < signature.size(); ++i)
    s += (i ? "," : "") + signature[i].toString();
  s += ")[";
  bool first = true;
  for (const auto &[k, v] : constexprs) {
    s += (first ? "" : ",") + k + "=" + v;
    first = false;
  }
  s += "]num_warps=" + std::to_string(numWarps) +
       ",num_stages=" + std::to_string(numStages) + ",arch=" + arch;
  if (debug)
    s += ",debug";
  if (!fpFusion)
    s += ",enable_fp_fusion=False";
  return s;
}

static llvm::Expected<std::vector<ParamSpec>>
parseEntries(llvm::StringRef text, unsigned depth,
             std::vector<std::string> *fieldNames = nullptr);

static llvm::Expected<ParamSpec> parseEntry(llvm::StringRef text,
                                            unsigned index, unsigned depth) {
  auto fail = [&](const llvm::Twine &why) {
    return err("signature entry " + llvm::Twine(index) + " `" + text +
               "`: " + why);
  };
  if (text.empty())
    return fail("empty entry");
  ParamSpec p;
  llvm::StringRef body = text;
  if (body.starts_with("(")) {
    // A tuple argument: `(e0,e1,...)`, `(e0,)` or `()`; entries nest.
    if (!body.consume_back(")"))
      return fail("missing `)` (a tuple entry is (E0,E1,...))");
    body = body.drop_front().trim();
    if (depth >= 8)
      return fail("tuples nested deeper than 8");
    if (body.consume_back(","))
      body = body.trim();
    p.kind = ParamSpec::Kind::Tuple;
    if (body.empty())
      return p;
    auto elements = parseEntries(body, depth + 1, &p.fieldNames);
    if (!elements)
      return fail("in the tuple: " + llvm::toString(elements.takeError()));
    if (llvm::any_of(*elements, [](const ParamSpec &e) {
          return e.kind == ParamSpec::Kind::TensorDesc;
        }))
      return fail("a tensor descriptor inside a tuple is not supported");
    p.elements = std::move(*elements);
    return p;
  }
  if (body.consume_front("tensordesc<")) {
    // tensordesc<T[b0,b1,...]> with an optional `,nan` / `,zero` padding.
    auto bad = [&](const llvm::Twine &why) {
      return fail(why + " (expected tensordesc<T[B0,B1,...]>, e.g. "
                        "tensordesc<fp16[64,64]>)");
    };
    if (!body.consume_back(">"))
      return bad("missing `>`");
    auto [typeText, rest] = body.split('[');
    std::optional<DType> dt = parseDTypeName(typeText.trim());
    if (!dt)
      return bad("unknown element type `" + typeText.trim() + "`");
    auto [dims, tail] = rest.split(']');
    if (!rest.contains(']'))
      return bad("missing `]`");
    tail = tail.trim();
    llvm::StringRef divText;
    if (!tail.empty() && !tail.consume_front(","))
      return bad("unexpected `" + tail + "`");
    llvm::SmallVector<llvm::StringRef> items;
    if (!tail.empty())
      tail.split(items, ',');
    for (llvm::StringRef item : items) {
      item = item.trim();
      if (item == "nan")
        p.nanPadding = true;
      else if (item.consume_front("div="))
        divText = item;
      else if (item != "zero")
        return bad("unknown padding `" + item + "`");
    }
    if (p.nanPadding && !isFloat(*dt))
      return fail("NaN padding needs a floating-point element type, not " +
                  typeText.trim());
    llvm::SmallVector<llvm::StringRef> parts;
    dims.split(parts, ',');
    for (llvm::StringRef d : parts) {
      int64_t v = 0;
      if (d.trim().getAsInteger(10, v) || v <= 0 || (v & (v - 1)) != 0 ||
          v > (1 << 20))
        return bad("block dimension `" + d.trim() +
                   "` is not a power of two");
      p.blockShape.push_back(v);
    }
    if (p.blockShape.size() > 5)
      return bad("rank " + llvm::Twine(p.blockShape.size()) +
                 " is above 5");
    if (!divText.empty()) {
      llvm::SmallVector<llvm::StringRef> divs;
      divText.split(divs, 'x');
      if (divs.size() != p.blockShape.size())
        return bad("`div=" + divText + "` has " + llvm::Twine(divs.size()) +
                   " entries for rank " + llvm::Twine(p.blockShape.size()));
      for (llvm::StringRef d : divs) {
        unsigned v = 0;
        if (d.trim().getAsInteger(10, v) || (v != 1 && v != 16))
          return bad("shape divisibility `" + d.trim() +
                     "` is not 1 or 16");
        p.shapeDivisibility.push_back(v);
      }
      if (llvm::all_of(p.shapeDivisibility, [](unsigned v) { return v == 1; }))
        p.shapeDivisibility.clear(); // the same entry as no `div=`
    }
    p.kind = ParamSpec::Kind::TensorDesc;
    p.dtype = *dt;
    return p;
  }
  bool isPtr = body.consume_front("*");
  // `none` (Triton's AOT spelling) and `None`: the argument is None, which
  // specializes any parameter to the constexpr None.
  if (!isPtr && (body == "none" || body == "None")) {
    p.kind = ParamSpec::Kind::Constexpr;
    p.constexprValue = "None";
    return p;
  }
  // A constexpr literal (only meaningful without '*').
  if (!isPtr && isConstexprLiteral(body)) {
    p.kind = ParamSpec::Kind::Constexpr;
    p.constexprValue = body.str();
    return p;
  }
  auto [typeText, divText] = body.split(':');
  std::optional<DType> dt = parseDTypeName(typeText.trim());
  // `*kfp32`: Triton's spelling of a pointer to const (no dtype name starts
  // with `k`).
  if (isPtr && !dt && typeText.trim().starts_with("k")) {
    dt = parseDTypeName(typeText.trim().drop_front());
    p.constPointer = dt.has_value();
  }
  if (!dt)
    return fail("unknown type `" + typeText.trim() +
                "` (expected *T, T, T:16 or a constexpr literal, with T one "
                "of " +
                typeList() + ")");
  p.kind = isPtr ? ParamSpec::Kind::Pointer : ParamSpec::Kind::Scalar;
  p.dtype = *dt;
  if (body.contains(':')) {
    unsigned div = 0;
    if (divText.trim().getAsInteger(10, div) || div == 0 ||
        (div & (div - 1)) != 0 || div > 1024)
      return fail("`:" + divText +
                  "` is not a divisibility (expected a power of two such as "
                  "16)");
    if (!isPtr && isFloat(*dt))
      return fail("divisibility applies to pointers and integers, not to `" +
                  typeText.trim() + "`");
    // `i32:1` is Triton's AOT spelling of an integer equal to 1, which its
    // JIT specializes as the constexpr 1: the same entry as a literal `1`,
    // whatever the integer type (so both spellings share one cache key).
    if (!isPtr && div == 1) {
      ParamSpec one;
      one.kind = ParamSpec::Kind::Constexpr;
      one.constexprValue = "1";
      return one;
    }
    p.divisibility = div;
  }
  return p;
}

llvm::Expected<std::vector<ParamSpec>>
kiln::parseSignature(std::string_view textView) {
  return parseEntries(llvm::StringRef(textView.data(), textView.size()), 0);
}

static llvm::Expected<std::vector<ParamSpec>>
parseEntries(llvm::StringRef text, unsigned nesting,
             std::vector<std::string> *fieldNames) {
  std::vector<ParamSpec> out;
  if (text.trim().empty())
    return out;
  // Commas inside `tensordesc<T[64,64]>` or a tuple's `(...)` do not
  // separate entries.
  llvm::SmallVector<llvm::StringRef> parts;
  int depth = 0;
  size_t start = 0;
  char quote = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (quote) { // A string constexpr may hold any of these characters.
      if (c == '\\')
        ++i; // an escaped character, the quote included
      else if (c == quote)
        quote = 0;
      continue;
    }
    if (c == '"' || c == '\'')
      quote = c;
    depth += (c == '<' || c == '[' || c == '(') -
             (c == '>' || c == ']' || c == ')');
    if (c == ',' && depth <= 0) {
      parts.push_back(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push_back(text.substr(start));
  // A namedtuple's elements (inside a tuple only): `NAME=ENTRY`, all of
  // them named or none.
  unsigned index = 0, named = 0;
  for (llvm::StringRef part : parts) {
    ++index;
    part = part.trim();
    size_t eq = part.find('=');
    if (fieldNames && eq != llvm::StringRef::npos &&
        isIdentifier(part.take_front(eq).trim())) {
      std::string name = part.take_front(eq).trim().str();
      if (llvm::is_contained(*fieldNames, name))
        return err("signature entry " + llvm::Twine(index) + " `" + part +
                   "`: the field `" + name + "` is named twice");
      fieldNames->push_back(std::move(name));
      part = part.drop_front(eq + 1).trim();
      ++named;
    }
    auto entry = parseEntry(part, index, nesting);
    if (!entry)
      return entry.takeError();
    out.push_back(*entry);
  }
  if (named != 0 && named != parts.size())
    return err("a tuple's elements are all named (a namedtuple: "
               "(x=i32,y=*fp16)) or none are");
  return out;
}

llvm::Expected<std::pair<std::string, std::string>>
kiln::parseConstexprDefinition(std::string_view textView) {
  llvm::StringRef text(textView.data(), textView.size());
  if (!text.contains('='))
    return err("`" + text + "`: expected NAME=VALUE");
  auto [name, value] = text.split('=');
  name = name.trim();
  value = value.trim();
  if (!isIdentifier(name))
    return err("`" + text + "`: `" + name + "` is not a valid name");
  if (value.empty())
    return err("`" + text + "`: missing value after `=`");
  return std::make_pair(name.str(), value.str());
}

std::optional<DType> kiln::intDType(int64_t bits, bool isSigned) {
  switch (bits) {
  case 1:
    return DType::I1;
  case 8:
    return isSigned ? DType::I8 : DType::U8;
  case 16:
    return isSigned ? DType::I16 : DType::U16;
  case 32:
    return isSigned ? DType::I32 : DType::U32;
  case 64:
    return isSigned ? DType::I64 : DType::U64;
  default:
    return std::nullopt;
  }
}

/// Triton's `tl.dtype.is_*()` predicates.
std::optional<bool> kiln::dtypePredicate(DType t, std::string_view name) {
  bool isInt = !isFloat(t);
  bool isUnsignedInt = t == DType::U8 || t == DType::U16 || t == DType::U32 ||
                       t == DType::U64 || t == DType::I1;
  return llvm::StringSwitch<std::optional<bool>>(llvm::StringRef(name.data(), name.size()))
      .Cases({"is_floating", "is_floating_point"}, isFloat(t))
      .Case("is_standard_floating",
            t == DType::F16 || t == DType::BF16 || t == DType::F32 ||
                t == DType::F64)
      .Case("is_int", isInt)
      .Case("is_int_signed", isInt && !isUnsignedInt)
      .Case("is_int_unsigned", isInt && isUnsignedInt)
      .Case("is_bool", t == DType::I1)
      .Case("is_fp8", t == DType::F8E4M3 || t == DType::F8E5M2)
      .Case("is_fp8e4nv", t == DType::F8E4M3)
      .Case("is_fp8e5", t == DType::F8E5M2)
      .Case("is_fp16", t == DType::F16)
      .Case("is_bf16", t == DType::BF16)
      .Case("is_fp32", t == DType::F32)
      .Case("is_fp64", t == DType::F64)
      .Case("is_int8", t == DType::I8)
      .Case("is_int16", t == DType::I16)
      .Case("is_int32", t == DType::I32)
      .Case("is_int64", t == DType::I64)
      .Case("is_uint8", t == DType::U8)
      .Case("is_uint16", t == DType::U16)
      .Case("is_uint32", t == DType::U32)
      .Case("is_uint64", t == DType::U64)
      .Cases({"is_ptr", "is_block", "is_void"}, false)
      .Default(std::nullopt);
}


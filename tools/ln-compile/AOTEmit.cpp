//===- AOTEmit.cpp - ln-compile: C++ sources for ahead-of-time kernels ----===//
#include "AOTEmit.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/ScopeExit.h"
#include <algorithm>
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"
#include <cstdlib>

using namespace kiln;
using namespace kiln::cli;

namespace {
llvm::Error makeError(const llvm::Twine &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), msg);
}

bool isCppKeyword(llvm::StringRef s) {
  static const llvm::StringSet<> kKeywords = {
      "alignas", "alignof", "and", "and_eq", "asm", "auto", "bitand", "bitor",
      "bool", "break", "case", "catch", "char", "char8_t", "char16_t",
      "char32_t", "class", "compl", "concept", "const", "consteval",
      "constexpr", "constinit", "const_cast", "continue", "co_await",
      "co_return", "co_yield", "decltype", "default", "delete", "do", "double",
      "dynamic_cast", "else", "enum", "explicit", "export", "extern", "false",
      "float", "for", "friend", "goto", "if", "inline", "int", "long",
      "mutable", "namespace", "new", "noexcept", "not", "not_eq", "nullptr",
      "operator", "or", "or_eq", "private", "protected", "public", "register",
      "reinterpret_cast", "requires", "return", "short", "signed", "sizeof",
      "static", "static_assert", "static_cast", "struct", "switch", "template",
      "this", "thread_local", "throw", "true", "try", "typedef", "typeid",
      "typename", "union", "unsigned", "using", "virtual", "void", "volatile",
      "wchar_t", "while", "xor", "xor_eq",
      // Names the generated function itself uses.
      "stream", "grid", "params"};
  return kKeywords.contains(s);
}

/// The C++ name of kernel parameter `name` (Python identifiers may be C++
/// keywords, e.g. `new`).
std::string cppParamName(llvm::StringRef name) {
  if (isCppKeyword(name))
    return (name + "_").str();
  // A tensor descriptor's parts are `desc.shape0`, `desc.stride0`.
  std::string s = name.str();
  std::replace(s.begin(), s.end(), '.', '_');
  return s;
}

/// Element type of a pointer parameter; `void` for dtypes without one.
std::string pointeeType(DType t) {
  switch (t) {
  case DType::I1:
    return "bool";
  case DType::I8:
    return "int8_t";
  case DType::I16:
    return "int16_t";
  case DType::I32:
    return "int32_t";
  case DType::I64:
    return "int64_t";
  case DType::U8:
    return "uint8_t";
  case DType::U16:
    return "uint16_t";
  case DType::U32:
    return "uint32_t";
  case DType::U64:
    return "uint64_t";
  case DType::F16:
    return "kiln::aot::half";
  case DType::BF16:
    return "kiln::aot::bfloat16";
  case DType::F32:
    return "float";
  case DType::F64:
    return "double";
  case DType::F8E4M3:
  case DType::F8E5M2:
    return "void"; // No C++ fp8 type to name.
  }
  return "void";
}

/// The C++ type a scalar parameter is passed as, and the type its value is
/// stored as for the kernel (they differ for bool, fp16 and bf16).
std::pair<std::string, std::string> scalarTypes(DType t) {
  switch (t) {
  case DType::I1:
    return {"bool", "int8_t"};
  case DType::F16:
    return {"float", "uint16_t"};
  case DType::BF16:
    return {"float", "uint16_t"};
  default:
    return {pointeeType(t), pointeeType(t)};
  }
}

/// `void` pointee types and unknown scalars cannot be expressed: refuse them
/// instead of generating a wrong ABI.
bool hasCppType(const ParamSpec &s) { return pointeeType(s.dtype) != "void"; }

std::string parameterList(const KernelInfo &info) {
  std::string s = "kiln::aot::Stream stream, kiln::aot::Grid grid";
  for (const KernelInfo::Param &p : info.params) {
    s += ",\n    ";
    if (p.spec.kind == ParamSpec::Kind::Pointer)
      s += pointeeType(p.spec.dtype) + " *" + cppParamName(p.name);
    else
      s += scalarTypes(p.spec.dtype).first + " " + cppParamName(p.name);
  }
  return s;
}

std::string guardName(llvm::StringRef name) {
  return "KILN_AOT_" + llvm::StringRef(name).upper() + "_H";
}

/// Comment lines describing what was compiled.
void describe(llvm::raw_ostream &os, const AOTKernel &k) {
  const KernelInfo &info = k.images.front().compiled.info;
  os << "// Kernel `" << info.name << "` of " << k.sourceFile << "\n";
  if (!k.signature.empty())
    os << "// signature: " << k.signature << "\n";
  if (!info.constexprs.empty()) {
    os << "// constexprs:";
    for (const auto &[name, value] : info.constexprs)
      os << " " << name << "=" << value;
    os << "\n";
  }
  os << "// num_warps: " << info.numWarps << "; images:";
  for (const AOTImage &im : k.images)
    os << " " << im.arch << (im.cubin ? " (cubin + PTX)" : " (PTX)");
  os << "\n";
  if (!k.cubinNote.empty())
    os << "// no cubin: " << k.cubinNote << "\n";
}

void emitPTXLiteral(llvm::raw_ostream &os, llvm::StringRef ptx) {
  llvm::SmallVector<llvm::StringRef> lines;
  ptx.split(lines, '\n');
  for (size_t i = 0; i < lines.size(); ++i) {
    if (i + 1 == lines.size() && lines[i].empty())
      break;
    os << "    \"";
    // C escapes: llvm::printEscapedString writes LLVM IR's "\09" for a tab,
    // which C reads as a NUL followed by '9' (the driver's JIT would stop
    // at the first tab).
    for (unsigned char c : lines[i]) {
      if (c == '\\' || c == '"')
        os << '\\' << c;
      else if (c == '\t')
        os << "\\t";
      else if (c < 0x20 || c >= 0x7f)
        os << llvm::format("\\%03o", unsigned(c));
      else
        os << c;
    }
    os << (i + 1 < lines.size() ? "\\n" : "") << "\"\n";
  }
}

void emitBytes(llvm::raw_ostream &os, llvm::StringRef bytes) {
  for (size_t i = 0; i < bytes.size(); ++i) {
    if (i % 16 == 0)
      os << (i ? "\n    " : "    ");
    os << llvm::format("0x%02x,", unsigned(uint8_t(bytes[i])));
  }
  os << "\n";
}

int smNumber(llvm::StringRef arch) {
  int sm = 0;
  (void)arch.drop_front(3).getAsInteger(10, sm);
  return sm;
}
} // namespace

llvm::Error kiln::cli::checkAOTKernel(const AOTKernel &k) {
  if (k.name.empty() || !(llvm::isAlpha(k.name[0]) || k.name[0] == '_') ||
      !llvm::all_of(k.name,
                    [](char c) { return llvm::isAlnum(c) || c == '_'; }) ||
      isCppKeyword(k.name))
    return makeError("--aot-name: `" + k.name +
                     "` is not a valid C++ function name");
  // The runtime's own names in kiln::aot.
  static const llvm::StringSet<> kRuntimeNames = {
      "Status",      "Grid",    "Image",  "KernelDescriptor",
      "LoadInfo",    "Stream",  "half",   "bfloat16",
      "selectImage", "prepare", "launch", "detail"};
  if (kRuntimeNames.contains(k.name))
    return makeError("--aot-name: `" + k.name +
                     "` is taken by the AOT runtime (kiln::aot::" + k.name +
                     "); choose another name");
  if (k.images.empty())
    return makeError("no architecture to compile for");
  const KernelInfo &first = k.images.front().compiled.info;
  for (const KernelInfo::Param &p : first.params)
    if (!hasCppType(p.spec))
      return makeError("kernel `" + first.name + "`: parameter `" + p.name +
                       "` has type " + p.spec.toString() +
                       ", which AOT launch functions do not support yet");
  for (const AOTImage &im : k.images) {
    const KernelInfo &info = im.compiled.info;
    bool same = info.params.size() == first.params.size() &&
                info.numWarps == first.numWarps;
    for (size_t i = 0; same && i < info.params.size(); ++i)
      same = info.params[i].name == first.params[i].name &&
             info.params[i].spec == first.params[i].spec;
    if (!same)
      return makeError("kernel `" + first.name +
                       "` compiled to different "
                       "parameters or num_warps for " +
                       im.arch + " than for " + k.images.front().arch);
  }
  return llvm::Error::success();
}

std::string kiln::cli::emitAOTHeader(const AOTKernel &k) {
  const KernelInfo &info = k.images.front().compiled.info;
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "// Generated by ln-compile (Kiln " KILN_VERSION "): do not edit.\n";
  describe(os, k);
  std::string guard = guardName(k.name);
  os << "#ifndef " << guard << "\n#define " << guard << "\n\n"
     << "#include \"kiln/Runtime/AOTRuntime.h\"\n\n"
     << "namespace kiln::aot {\n\n"
     << "/// Launches `" << info.name << "` on `stream` (null: the default "
     << "stream)\n/// with " << info.numWarps * 32
     << " threads per program. Arguments are checked as Kiln's JIT\n"
     << "/// checks them; errors name the argument.\n"
     << "Status " << k.name << "(" << parameterList(info) << ");\n\n"
     << "/// The embedded images and launch settings (for kiln::aot::prepare "
     << "and\n/// kiln::aot::selectImage).\n"
     << "extern const KernelDescriptor " << k.name << "_kernel;\n\n"
     << "} // namespace kiln::aot\n\n#endif // " << guard << "\n";
  return text;
}

std::string kiln::cli::emitAOTSource(const AOTKernel &k) {
  const KernelInfo &info = k.images.front().compiled.info;
  unsigned shared = 0;
  for (const AOTImage &im : k.images)
    shared = std::max(shared, im.compiled.info.sharedBytes);
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "// Generated by ln-compile (Kiln " KILN_VERSION "): do not edit.\n";
  describe(os, k);
  os << "#include \"" << k.headerInclude << "\"\n\n"
     << "#include <cstdint>\n\nnamespace {\n";
  for (const AOTImage &im : k.images) {
    os << "\nconst char kPTX_" << im.arch << "[] =\n";
    emitPTXLiteral(os, im.compiled.ptx);
    os << "    ;\n";
    if (im.cubin) {
      os << "\nalignas(8) const unsigned char kCubin_" << im.arch << "[] = {\n";
      emitBytes(os, *im.cubin);
      os << "};\n";
    }
  }
  os << "\nconst kiln::aot::Image kImages[] = {\n";
  for (const AOTImage &im : k.images) {
    int sm = smNumber(im.arch);
    if (im.cubin)
      os << "    {" << sm << ", true, kCubin_" << im.arch << ", sizeof(kCubin_"
         << im.arch << ")},\n";
    os << "    {" << sm << ", false, kPTX_" << im.arch << ", sizeof(kPTX_"
       << im.arch << ") - 1},\n";
  }
  os << "};\n} // namespace\n\n";
  os << "const kiln::aot::KernelDescriptor kiln::aot::" << k.name
     << "_kernel = {\n    \"" << info.name << "\", \"kiln::aot::" << k.name
     << "\", " << info.numWarps << ", " << shared
     << ", kImages, sizeof(kImages) / sizeof(kImages[0])};\n\n";

  os << "kiln::aot::Status kiln::aot::" << k.name << "(" << parameterList(info)
     << ") {\n"
     << "  using namespace kiln::aot::detail;\n"
     << "  const KernelDescriptor &kernel = " << k.name << "_kernel;\n";
  // Checks in parameter order, as the JIT's validateLaunch makes them.
  for (auto [i, p] : llvm::enumerate(info.params)) {
    std::string n = cppParamName(p.name);
    std::string num = std::to_string(i + 1);
    std::string quoted = "\"" + p.name + "\"";
    if (p.spec.kind == ParamSpec::Kind::Pointer) {
      os << "  if (!" << n << ")\n    return nullPointer(kernel, " << num
         << ", " << quoted << ");\n";
      if (p.spec.divisibility > 1)
        os << "  if (reinterpret_cast<uintptr_t>(" << n << ") % "
           << p.spec.divisibility << " != 0)\n    return misaligned(kernel, "
           << num << ", " << quoted << ", " << n << ", " << p.spec.divisibility
           << ");\n";
    } else if (p.spec.divisibility > 1 && !isFloat(p.spec.dtype)) {
      os << "  if (" << n << " % " << p.spec.divisibility
         << " != 0)\n    return notDivisible(kernel, " << num << ", " << quoted
         << ", static_cast<long long>(" << n << "), " << p.spec.divisibility
         << ");\n";
    }
  }
  // Values in the kernel's parameter types.
  std::vector<std::string> slots;
  for (const KernelInfo::Param &p : info.params) {
    std::string n = cppParamName(p.name);
    if (p.spec.kind == ParamSpec::Kind::Pointer) {
      slots.push_back(n);
      continue;
    }
    auto [outer, stored] = scalarTypes(p.spec.dtype);
    if (outer == stored) {
      slots.push_back(n);
      continue;
    }
    // A zeroed 8-byte slot, as the JIT packs: the driver reads the
    // parameter's size from its low (little-endian) bytes.
    std::string value = p.spec.dtype == DType::F16
                            ? "floatToHalfBits(" + n + ")"
                        : p.spec.dtype == DType::BF16
                            ? "floatToBF16Bits(" + n + ")"
                            : "static_cast<" + stored + ">(" + n + ")";
    os << "  uint64_t " << n << "_value = " << value << ";\n";
    slots.push_back(n + "_value");
  }
  os << "  void *params[] = {";
  for (auto [i, s] : llvm::enumerate(slots))
    os << (i ? ", " : "") << "&" << s;
  if (slots.empty())
    os << "nullptr";
  os << "};\n  return launch(kernel, stream, grid, params);\n}\n";
  return text;
}

llvm::Expected<std::string> kiln::cli::runPtxas(llvm::StringRef ptxas,
                                                llvm::StringRef ptx,
                                                llvm::StringRef arch) {
  llvm::SmallString<128> in, out, log;
  for (auto [path, ext] :
       {std::pair{&in, "ptx"}, {&out, "cubin"}, {&log, "log"}})
    if (std::error_code ec =
            llvm::sys::fs::createTemporaryFile("kiln-aot", ext, *path))
      return makeError("cannot create a temporary file: " + ec.message());
  llvm::scope_exit cleanup([&] {
    for (auto *p : {&in, &out, &log})
      llvm::sys::fs::remove(*p);
  });
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(in, ec);
    if (ec)
      return makeError("cannot write " + in + ": " + ec.message());
    os << ptx;
  }
  // The PTX's own target may be the architecture-specific variant (sm_90a
  // when the kernel uses wgmma): ptxas must compile for that one.
  std::string target = arch.str();
  if (size_t at = ptx.find(".target "); at != llvm::StringRef::npos) {
    llvm::StringRef named = ptx.drop_front(at + 8).take_until(
        [](char c) { return c == ',' || c == '\n' || c == ' ' || c == '\r'; });
    if (named.starts_with(arch))
      target = named.str();
  }
  std::string archFlag = "--gpu-name=" + target;
  llvm::SmallVector<llvm::StringRef> args = {ptxas, archFlag, "-O3",
                                             "-o",  out,      in};
  std::optional<llvm::StringRef> redirects[] = {std::nullopt, log, log};
  std::string why;
  int rc = llvm::sys::ExecuteAndWait(ptxas, args, std::nullopt, redirects, 0, 0,
                                     &why);
  auto logText = llvm::MemoryBuffer::getFile(log);
  std::string output =
      logText ? llvm::StringRef((*logText)->getBuffer()).trim().str() : "";
  if (rc != 0)
    return makeError(llvm::formatv("ptxas ({0}) failed for {1}{2}{3}{4}", ptxas,
                                   arch, why.empty() ? "" : ": ", why,
                                   output.empty() ? "" : ":\n" + output));
  auto cubin = llvm::MemoryBuffer::getFile(out, /*IsText=*/false,
                                           /*RequiresNullTerminator=*/false);
  if (!cubin)
    return makeError("ptxas wrote no cubin for " + arch + ": " +
                     cubin.getError().message());
  return (*cubin)->getBuffer().str();
}

std::optional<std::string> kiln::cli::findPtxas() {
  llvm::SmallVector<llvm::StringRef> hints;
  std::string cudaHome;
  if (const char *env = std::getenv("CUDA_HOME"); env && *env)
    cudaHome = std::string(env) + "/bin";
  if (!cudaHome.empty())
    hints.push_back(cudaHome);
  hints.push_back("/usr/local/cuda/bin");
  if (auto p = llvm::sys::findProgramByName("ptxas"))
    return *p;
  if (auto p = llvm::sys::findProgramByName("ptxas", hints))
    return *p;
  return std::nullopt;
}

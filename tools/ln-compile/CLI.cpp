//===- CLI.cpp - ln-compile: exit codes, error output, --color -----------===//
#include "CLI.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/raw_ostream.h"

using namespace kiln::cli;

namespace {
/// raw_fd_ostream::has_colors() asks the terminal; --color=always overrides it.
bool colorsOn = false;
} // namespace

void kiln::cli::setColorMode(ColorMode mode) {
  colorsOn = mode == ColorMode::Always ||
             (mode == ColorMode::Auto && llvm::errs().is_displayed());
  llvm::errs().enable_colors(colorsOn);
}

namespace {
void printToolError(const llvm::Twine &msg) {
  llvm::raw_ostream &os = llvm::errs();
  os.changeColor(llvm::raw_ostream::SAVEDCOLOR, /*Bold=*/true);
  os << "ln-compile: ";
  os.changeColor(llvm::raw_ostream::RED, /*Bold=*/true);
  os << "error: ";
  os.resetColor();
  os << msg << "\n";
}
} // namespace

int kiln::cli::usageError(const llvm::Twine &msg) {
  printToolError(msg);
  return kExitUsage;
}

int kiln::cli::failure(const llvm::Twine &msg) {
  printToolError(msg);
  return kExitFailure;
}

void kiln::cli::printDiagnostics(llvm::StringRef text) {
  llvm::raw_ostream &os = llvm::errs();
  if (!colorsOn) {
    os << text << "\n";
    return;
  }
  // `LOCATION: SEVERITY: message`: the location bold, the severity in its
  // color, the message bold (clang's scheme); other lines as they are.
  static const llvm::Regex kDiag(
      "^(.*:[0-9]+:[0-9]+: |ln-compile: )?(error|warning|note|remark): (.*)$");
  llvm::SmallVector<llvm::StringRef> lines;
  text.rtrim('\n').split(lines, '\n');
  for (llvm::StringRef line : lines) {
    llvm::SmallVector<llvm::StringRef, 4> m;
    if (!kDiag.match(line, &m)) {
      os << line << "\n";
      continue;
    }
    os.changeColor(llvm::raw_ostream::SAVEDCOLOR, true);
    os << m[1];
    auto color = m[2] == "error"     ? llvm::raw_ostream::RED
                 : m[2] == "warning" ? llvm::raw_ostream::MAGENTA
                 : m[2] == "note"    ? llvm::raw_ostream::BLACK
                                     : llvm::raw_ostream::BLUE;
    os.changeColor(color, true);
    os << m[2] << ": ";
    os.changeColor(llvm::raw_ostream::SAVEDCOLOR, true);
    os << m[3];
    os.resetColor();
    os << "\n";
  }
}

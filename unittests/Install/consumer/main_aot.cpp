// An application of one ahead-of-time kernel (kiln_add_kernel): C++17, the
// AOT runtime only, no LLVM. Without a GPU the launch reports the missing
// driver; argument checks need no driver.
#include "scale_f32.h"
#include <cstdio>

int main() {
  float *x = reinterpret_cast<float *>(0x1000);
  kiln::aot::Status null =
      kiln::aot::scale_f32(nullptr, kiln::aot::Grid(1), nullptr, 2.0f, 16);
  kiln::aot::Status s =
      kiln::aot::scale_f32(nullptr, kiln::aot::Grid(1), x, 2.0f, 16);
  std::printf("%s\n%s\n", null.message().c_str(), s.message().c_str());
  return null.ok() || s.ok() ? 1 : 0;
}

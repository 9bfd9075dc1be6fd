/* Uses the installed C API: compiles a kernel without a GPU, then expects
 * the "no CUDA driver" error (the test runs it without a driver). */
#include <kiln/kiln.h>
#include <stdio.h>
#include <string.h>

static const char *kSource =
    "import triton\nimport triton.language as tl\n\n@triton.jit\n"
    "def copy(src, dst, BLOCK: tl.constexpr):\n"
    "    offs = tl.arange(0, BLOCK)\n"
    "    tl.store(dst + offs, tl.load(src + offs))\n";

int main(void) {
  kiln_module *m = NULL;
  kiln_kernel *k = NULL;
  kiln_options *o = NULL;
  char *ptx = NULL;
  if (kiln_module_from_source(kSource, "copy.py", &m) ||
      kiln_module_get_kernel(m, "copy", &k) || kiln_options_create(&o) ||
      kiln_options_set_constexpr(o, "BLOCK", "128")) {
    fprintf(stderr, "error: %s\n", kiln_last_error());
    return 1;
  }
  kiln_arg args[2] = {kiln_arg_ptr(0x1000, KILN_DTYPE_F32, 0),
                      kiln_arg_ptr(0x2000, KILN_DTYPE_F32, 0)};
  if (kiln_kernel_compile(k, args, 2, o, &ptx, NULL) ||
      !strstr(ptx, ".entry copy")) {
    fprintf(stderr, "compile failed: %s\n", kiln_last_error());
    return 1;
  }
  printf("kiln %s: compiled copy (%zu bytes of PTX)\n", kiln_version(),
         strlen(ptx));
  kiln_free(ptx);
  int n = 0;
  kiln_status s = kiln_device_count(&n);
  printf("%s: %s\n", kiln_status_name(s), s ? kiln_last_error() : "ok");
  kiln_options_destroy(o);
  kiln_kernel_destroy(k);
  kiln_module_destroy(m);
  return s == KILN_ERROR_NO_DRIVER ? 0 : 2;
}

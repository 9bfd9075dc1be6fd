/*===- CAPIBindings.c - kiln_module_create's host bindings -----------------===
 *
 * A kernel file that picks its libdevice import and a constant in `if`
 * statements whose tests are host code (as Liger-Kernel does), with a
 * helper file doing the same: without bindings the compile names the
 * ambiguity; with them it compiles, and other values compile other code.
 *
 *===----------------------------------------------------------------------===*/
#include "CAPICheck.h"

#include <stdlib.h>

static const char *kKernel =
    "import operator\n"
    "import os\n"
    "import triton\n"
    "import triton.language as tl\n"
    "from liger_kernel.utils import compare_version\n"
    "from bindlib.act import scaled\n"
    "\n"
    "if compare_version('triton', operator.ge, '3.0.0'):\n"
    "    from triton.language.extra.libdevice import rsqrt\n"
    "else:\n"
    "    from triton.language.math import rsqrt\n"
    "\n"
    "if os.environ.get('BIG'):\n"
    "    BLOCK = 128\n"
    "else:\n"
    "    BLOCK = 64\n"
    "\n"
    "@triton.jit\n"
    "def k(x_ptr):\n"
    "    offs = tl.arange(0, BLOCK)\n"
    "    x = tl.load(x_ptr + offs)\n"
    "    tl.store(x_ptr + offs, scaled(rsqrt(x)))\n";

static const char *kHelper = "import os\n"
                             "import triton\n"
                             "\n"
                             "if os.environ.get('X'):\n"
                             "    SCALE = 2.0\n"
                             "else:\n"
                             "    SCALE = 3.0\n"
                             "\n"
                             "@triton.jit\n"
                             "def scaled(x):\n"
                             "    return x * SCALE\n";

/* Compiles `k` of capi_bind.py with `bindings`; returns the PTX (kiln_free
 * it) or NULL, the error then in kiln_last_error(). */
static char *compileWith(const char *const *bindings, size_t n) {
  static const char *dirs[] = {"capi_bind_pkg"};
  kiln_module_config config;
  memset(&config, 0, sizeof config);
  config.include_dirs = dirs;
  config.num_include_dirs = 1;
  config.host_bindings = bindings;
  config.num_host_bindings = n;
  kiln_module *m = NULL;
  kiln_kernel *k = NULL;
  char *ptx = NULL, *info = NULL;
  CHECK_OK(kiln_module_create("capi_bind.py", NULL, &config, &m));
  CHECK_OK(kiln_module_get_kernel(m, "k", &k));
  kiln_options *o = NULL;
  CHECK_OK(kiln_options_create(&o));
  kiln_arg args[1] = {kiln_arg_ptr(0x1000, KILN_DTYPE_F32, 0)};
  if (kiln_kernel_compile(k, args, 1, o, &ptx, &info) != KILN_OK)
    ptx = NULL;
  kiln_free(info);
  kiln_options_destroy(o);
  kiln_kernel_destroy(k);
  kiln_module_destroy(m);
  return ptx;
}

void testBindings(void) {
  CHECK(system("rm -rf capi_bind_pkg && mkdir -p capi_bind_pkg/bindlib") == 0);
  writeFile("capi_bind_pkg/bindlib/act.py", kHelper);
  writeFile("capi_bind.py", kKernel);

  /* No bindings: the first ambiguous name read is the error. */
  CHECK(compileWith(NULL, 0) == NULL);
  CHECK_CONTAINS(kiln_last_error(),
                 "capi_bind.py:20:25: error: `BLOCK` is assigned in an `if` "
                 "statement at capi_bind.py:13; Kiln cannot tell which "
                 "assignment runs");

  /* The kernel file's names bound; the helper's are not (no PATH). */
  const char *mainOnly[] = {"rsqrt=triton.language.math.rsqrt", "BLOCK=64",
                            "SCALE=3.0"};
  CHECK(compileWith(mainOnly, 3) == NULL);
  CHECK_CONTAINS(kiln_last_error(),
                 "act.py:11:16: error: `SCALE` is assigned in an `if` "
                 "statement at capi_bind_pkg/bindlib/act.py:4");

  /* The helper's file by its path (compared as real paths): compiles, and
   * SCALE = 3.0 is in the code. */
  const char *three[] = {"rsqrt=triton.language.math.rsqrt", "BLOCK=64",
                         "./capi_bind_pkg/bindlib/act.py::SCALE=3.0"};
  char *ptx = compileWith(three, 3);
  CHECK(ptx != NULL);
  CHECK_CONTAINS(ptx, "rsqrt.approx");
  CHECK_CONTAINS(ptx, "0f40400000"); /* 3.0 */
  kiln_free(ptx);

  /* Another value is another compile (the bindings are in the cache key). */
  const char *two[] = {"rsqrt=triton.language.math.rsqrt", "BLOCK=64",
                       "capi_bind_pkg/bindlib/act.py :: SCALE = 5.0"};
  ptx = compileWith(two, 3);
  CHECK(ptx != NULL);
  CHECK_CONTAINS(ptx, "0f40A00000"); /* 5.0 */
  CHECK(ptx && !strstr(ptx, "0f40400000"));
  kiln_free(ptx);

  /* An expression that does not parse: a compile error at the use. */
  const char *bad[] = {"rsqrt=triton.language.(", "BLOCK=64"};
  CHECK(compileWith(bad, 2) == NULL);
  CHECK_CONTAINS(kiln_last_error(),
                 "capi_bind.py:22:35: error: host binding "
                 "`rsqrt=triton.language.(` for `rsqrt` (assigned in an `if` "
                 "statement at capi_bind.py:8) does not parse: '(' was never "
                 "closed (column 17 of the expression)");

  /* Argument errors. */
  kiln_module_config config;
  memset(&config, 0, sizeof config);
  kiln_module *m = NULL;
  config.num_host_bindings = 1;
  CHECK_STATUS(kiln_module_create("capi_bind.py", NULL, &config, &m),
               KILN_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(kiln_last_error(), "`host_bindings` is NULL");
  const char *null[] = {"BLOCK=64", NULL};
  config.host_bindings = null;
  config.num_host_bindings = 2;
  CHECK_STATUS(kiln_module_create("capi_bind.py", NULL, &config, &m),
               KILN_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(kiln_last_error(), "host_bindings[1] is NULL");
  const char *malformed[] = {"rsqrt"};
  config.host_bindings = malformed;
  config.num_host_bindings = 1;
  CHECK_STATUS(kiln_module_create("capi_bind.py", NULL, &config, &m),
               KILN_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(kiln_last_error(),
                 "kiln_module_create: host binding `rsqrt`: expected "
                 "NAME=EXPR or PATH::NAME=EXPR");
  const char *twice[] = {"BLOCK=64", "BLOCK=128"};
  config.host_bindings = twice;
  config.num_host_bindings = 2;
  CHECK_STATUS(kiln_module_create("capi_bind.py", NULL, &config, &m),
               KILN_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(kiln_last_error(), "host binding `BLOCK=128`: `BLOCK` is "
                                    "bound twice");
  CHECK(m == NULL);
}

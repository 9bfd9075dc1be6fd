/*===- CAPIHostImports.c - Decorator arguments from the package's modules --===
 *
 * A kernel whose autotune configs come from a function of another module
 * and whose heuristic reads that module's constant (`from tune.configs
 * import get_configs, BLOCK_MIN`): Kiln's host evaluator reads the module
 * in the config's include_dirs; without them the error names the module
 * that was not found.
 *
 *===----------------------------------------------------------------------===*/
#include "CAPICheck.h"

#include <stdlib.h>

void testHostImports(void) {
  CHECK(system("rm -rf capi_hi_pkg && mkdir -p capi_hi_pkg/tune") == 0);
  writeFile("capi_hi_pkg/tune/__init__.py", "");
  writeFile("capi_hi_pkg/tune/configs.py",
            "import triton\n\nBLOCK_MIN = 64\n\n"
            "def get_configs(warps=(4, 8)):\n"
            "    return [triton.Config({}, num_warps=w) for w in warps]\n");
  writeFile("capi_hi.py",
            "import triton\nimport triton.language as tl\n"
            "from tune.configs import get_configs, BLOCK_MIN\n\n"
            "@triton.autotune(configs=get_configs(), key=['n'])\n"
            "@triton.heuristics({'BLOCK': lambda args: max(BLOCK_MIN, args['n'])})\n"
            "@triton.jit\ndef k(x_ptr, n, BLOCK: tl.constexpr):\n"
            "    offs = tl.arange(0, BLOCK)\n"
            "    tl.store(x_ptr + offs, 1.0, mask=offs < n)\n");

  /* No package root: the module is not found, and the error says so. */
  kiln_module *m = NULL;
  kiln_kernel *k = NULL;
  CHECK_OK(kiln_module_create("capi_hi.py", NULL, NULL, &m));
  CHECK_STATUS(kiln_module_get_kernel(m, "k", &k), KILN_ERROR_COMPILE);
  CHECK_CONTAINS(kiln_last_error(),
                 "capi_hi.py:5:26: error: `get_configs` is imported from "
                 "module `tune.configs` (line 3), which Kiln cannot find (no "
                 "package roots given");
  kiln_module_destroy(m);

  /* With it: the configs and the heuristic are evaluated. */
  const char *dirs[] = {"capi_hi_pkg"};
  kiln_module_config config;
  memset(&config, 0, sizeof config);
  config.include_dirs = dirs;
  config.num_include_dirs = 1;
  CHECK_OK(kiln_module_create("capi_hi.py", NULL, &config, &m));
  CHECK_OK(kiln_module_get_kernel(m, "k", &k));
  CHECK(k && kiln_kernel_is_decorated(k) == 1);
  kiln_kernel_destroy(k);
  kiln_module_destroy(m);
}

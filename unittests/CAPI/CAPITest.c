/*===- CAPITest.c - The C API, exercised from C ----------------------------===
 *
 * `CAPITest <scenario>` with scenario one of:
 *   compile   module/kernel listing, parameters, compile-only PTX and JSON;
 *   errors    bad file (FILE:LINE:COL), unknown kernel, bad arguments;
 *   launch    launches through the stand-in driver (KILN_FAKE_CUDA);
 *   nodriver  the error when no CUDA driver can be loaded;
 *   modules   kiln_module_create: decorators left to the host, package
 *             roots for imports across files, and its argument errors;
 *   bindings  kiln_module_create's host bindings (CAPIBindings.c).
 * Plain C11: this also checks that kiln.h is valid C.
 *
 *===----------------------------------------------------------------------===*/
#define _POSIX_C_SOURCE 200809L /* setenv */
#include "CAPICheck.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int failures = 0;

static const char *kAddSource =
    "import triton\n"
    "import triton.language as tl\n"
    "\n"
    "@triton.jit\n"
    "def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr,\n"
    "               SCALE: tl.constexpr = 2):\n"
    "    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
    "    mask = offs < n\n"
    "    x = tl.load(x_ptr + offs, mask=mask)\n"
    "    y = tl.load(y_ptr + offs, mask=mask)\n"
    "    tl.store(out_ptr + offs, x + y * SCALE, mask=mask)\n"
    "\n"
    "@triton.jit\n"
    "def scale_kernel(out_ptr, alpha, n, BLOCK: tl.constexpr):\n"
    "    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
    "    tl.store(out_ptr + offs, tl.load(out_ptr + offs, mask=offs < n) * "
    "alpha,\n"
    "             mask=offs < n)\n";

/* A body error (undefined name `zz` on line 6, column 20) that only the
 * compile of a specialization finds. */
static const char *kBadBodySource =
    "import triton\n"
    "import triton.language as tl\n"
    "\n"
    "@triton.jit\n"
    "def bad(x_ptr, BLOCK: tl.constexpr):\n"
    "    tl.store(x_ptr, zz)\n";

static kiln_kernel *addKernel(kiln_module **module) {
  kiln_kernel *k = NULL;
  CHECK_OK(kiln_module_from_source(kAddSource, "add.py", module));
  CHECK_OK(kiln_module_get_kernel(*module, "add_kernel", &k));
  return k;
}

static void addArgs(kiln_arg args[4], uint64_t x, uint64_t y, uint64_t out,
                    int64_t n) {
  args[0] = kiln_arg_ptr(x, KILN_DTYPE_F32, 4096);
  args[1] = kiln_arg_ptr(y, KILN_DTYPE_F32, 4096);
  args[2] = kiln_arg_ptr(out, KILN_DTYPE_F32, 4096);
  args[3] = kiln_arg_int(n);
}

/*--- compile --------------------------------------------------------------*/

static void testCompile(void) {
  CHECK(strcmp(kiln_version(), "0.1.0") == 0);
  CHECK(strcmp(kiln_status_name(KILN_ERROR_COMPILE), "KILN_ERROR_COMPILE") ==
        0);
  int dt = -1;
  CHECK_OK(kiln_dtype_parse("float16", &dt));
  CHECK(dt == KILN_DTYPE_F16);
  CHECK_OK(kiln_dtype_parse("bf16", &dt));
  CHECK(dt == KILN_DTYPE_BF16);
  CHECK(strcmp(kiln_dtype_name(KILN_DTYPE_F32), "fp32") == 0);
  CHECK(kiln_dtype_name(42) == NULL);
  CHECK_STATUS(kiln_dtype_parse("complex64", &dt), KILN_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(kiln_last_error(), "unknown dtype `complex64` (supported: "
                                    "i1, i8, i16, i32, i64, u32, fp16");
  /* u8/u16/u64 exist when the compiler has them: name and parse agree. */
  if (kiln_dtype_name(KILN_DTYPE_U8)) {
    CHECK(strcmp(kiln_dtype_name(KILN_DTYPE_U8), "u8") == 0);
    CHECK_OK(kiln_dtype_parse("uint8", &dt));
    CHECK(dt == KILN_DTYPE_U8);
  } else {
    CHECK_STATUS(kiln_dtype_parse("uint8", &dt), KILN_ERROR_INVALID_ARGUMENT);
    CHECK_CONTAINS(kiln_last_error(),
                   "dtype `uint8` is not supported by this build");
  }

  kiln_module *m = NULL;
  kiln_kernel *k = addKernel(&m);
  size_t count = 0;
  const char *name = NULL;
  CHECK_OK(kiln_module_kernel_count(m, &count));
  CHECK(count == 2);
  CHECK_OK(kiln_module_kernel_name(m, 1, &name));
  CHECK(name && strcmp(name, "scale_kernel") == 0);
  CHECK_STATUS(kiln_module_kernel_name(m, 2, &name), KILN_ERROR_NOT_FOUND);
  CHECK_CONTAINS(kiln_last_error(), "add.py has 2 kernel(s)");

  CHECK(strcmp(kiln_kernel_name(k), "add_kernel") == 0);
  CHECK_OK(kiln_kernel_param_count(k, &count));
  CHECK(count == 6);
  kiln_param_info p;
  CHECK_OK(kiln_kernel_param(k, 3, &p));
  CHECK(strcmp(p.name, "n") == 0 && p.is_constexpr == 0 &&
        p.default_value == NULL);
  CHECK_OK(kiln_kernel_param(k, 5, &p));
  CHECK(strcmp(p.name, "SCALE") == 0 && p.is_constexpr == 1 &&
        p.default_value && strcmp(p.default_value, "2") == 0);

  /* The kernel outlives its module. */
  kiln_module_destroy(m);

  kiln_options *o = NULL;
  CHECK_OK(kiln_options_create(&o));
  CHECK_OK(kiln_options_set_constexpr(o, "BLOCK", "256"));
  CHECK_OK(kiln_options_set_num_warps(o, 2));
  CHECK_OK(kiln_options_set_arch(o, "sm_80"));
  kiln_arg args[4];
  /* 16-byte aligned pointers and n = 4096 specialize as `:16`. */
  addArgs(args, 0x10000, 0x20000, 0x30000, 4096);
  char *ptx = NULL, *info = NULL;
  CHECK_OK(kiln_kernel_compile(k, args, 4, o, &ptx, &info));
  CHECK_CONTAINS(ptx, ".target sm_80");
  CHECK_CONTAINS(ptx, ".entry add_kernel");
  CHECK_CONTAINS(info, "\"name\":\"add_kernel\"");
  CHECK_CONTAINS(info, "\"num_warps\":2");
  CHECK_CONTAINS(info, "\"BLOCK\":\"256\"");
  CHECK_CONTAINS(info, "\"SCALE\":\"2\"");
  CHECK_CONTAINS(info, "*fp32:16");
  kiln_free(ptx);
  kiln_free(info);

  /* An unaligned pointer and an odd n give the unspecialized signature. */
  addArgs(args, 0x10004, 0x20000, 0x30000, 1000);
  args[3] = kiln_arg_i64(1000);
  CHECK_OK(kiln_kernel_compile(k, args, 4, o, NULL, &info));
  CHECK_CONTAINS(info, "\"*fp32\"");
  CHECK_CONTAINS(info, "\"i64\"");
  kiln_free(info);

  /* n = 1 is the constexpr 1 (Triton's rule): no `n` parameter. */
  addArgs(args, 0x10000, 0x20000, 0x30000, 1);
  CHECK_OK(kiln_kernel_compile(k, args, 4, o, NULL, &info));
  CHECK_CONTAINS(info, "\"n\":\"1\"");
  CHECK(strstr(info, "\"name\":\"n\"") == NULL);
  kiln_free(info);
  /* KILN_ARG_INT_NOSPEC (do_not_specialize): n stays a plain i32. */
  args[3].kind = KILN_ARG_INT_NOSPEC;
  CHECK_OK(kiln_kernel_compile(k, args, 4, o, NULL, &info));
  CHECK_CONTAINS(info, "\"name\":\"n\"");
  kiln_free(info);
  args[3].value.i = 32;
  CHECK_OK(kiln_kernel_compile(k, args, 4, o, NULL, &info));
  CHECK(strstr(info, "i32:16") == NULL);
  kiln_free(info);

  kiln_options_destroy(o);
  kiln_kernel_destroy(k);
}

/*--- errors ---------------------------------------------------------------*/

static void testErrors(void) {
  kiln_module *m = NULL;
  kiln_kernel *k = NULL;

  /* Null handles and arguments. */
  CHECK_STATUS(kiln_module_from_file(NULL, &m), KILN_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(kiln_last_error(), "kiln_module_from_file: `path` is NULL");

  CHECK_STATUS(kiln_module_from_file("/nonexistent/k.py", &m), KILN_ERROR_IO);
  CHECK_CONTAINS(kiln_last_error(), "cannot read kernel file /nonexistent/k.py");
  CHECK(m == NULL);

  /* A syntax error in a file: FILE:LINE:COL when the kernel is looked up. */
  const char *path = "capi_bad_syntax.py";
  FILE *f = fopen(path, "w");
  CHECK(f != NULL);
  if (f) {
    fputs("import triton\n\n@triton.jit\ndef k(x_ptr):\n    x = (1 +\n", f);
    fclose(f);
  }
  CHECK_OK(kiln_module_from_file(path, &m));
  CHECK_STATUS(kiln_module_get_kernel(m, "k", &k), KILN_ERROR_COMPILE);
  CHECK_CONTAINS(kiln_last_error(), "capi_bad_syntax.py:5:");
  CHECK_CONTAINS(kiln_last_error(), ": error: ");
  kiln_module_destroy(m);

  /* An error in the body: FILE:LINE:COL from the compile. */
  kiln_options *o = NULL;
  CHECK_OK(kiln_options_create(&o));
  CHECK_OK(kiln_options_set_constexpr(o, "BLOCK", "64"));
  CHECK_OK(kiln_module_from_source(kBadBodySource, "bad_body.py", &m));
  CHECK_OK(kiln_module_get_kernel(m, "bad", &k));
  kiln_arg one = kiln_arg_ptr(0x1000, KILN_DTYPE_F32, 0);
  char *ptx = NULL;
  CHECK_STATUS(kiln_kernel_compile(k, &one, 1, o, &ptx, NULL),
               KILN_ERROR_COMPILE);
  CHECK_CONTAINS(kiln_last_error(), "bad_body.py:6:");
  CHECK_CONTAINS(kiln_last_error(), "zz");
  CHECK(ptx == NULL);
  kiln_kernel_destroy(k);

  /* Unknown kernel: NOT_FOUND, and the message lists the kernels. */
  CHECK_STATUS(kiln_module_get_kernel(m, "nope", &k), KILN_ERROR_NOT_FOUND);
  CHECK_CONTAINS(kiln_last_error(), "kernel `nope` not found");
  CHECK_CONTAINS(kiln_last_error(), "bad");
  CHECK(k == NULL);
  kiln_module_destroy(m);

  /* Options out of range. */
  CHECK_STATUS(kiln_options_set_num_warps(o, 3), KILN_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(kiln_last_error(), "num_warps = 3 is not a power of two");
  CHECK_STATUS(kiln_options_set_arch(o, "sm_70"), KILN_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(kiln_options_set_constexpr(o, "", "1"),
               KILN_ERROR_INVALID_ARGUMENT);

  /* Bad arguments name the parameter. */
  k = addKernel(&m);
  CHECK_OK(kiln_options_set_constexpr(o, "BLOCK", "256"));
  kiln_arg args[4];
  addArgs(args, 0x10000, 0x20000, 0x30000, 4096);
  args[1].dtype = 99;
  CHECK_STATUS(kiln_kernel_compile(k, args, 4, o, NULL, NULL),
               KILN_ERROR_LAUNCH);
  CHECK_CONTAINS(kiln_last_error(),
                 "kernel `add_kernel`: argument #2 `y_ptr`: pointer with "
                 "unknown dtype 99");
  addArgs(args, 0x10000, 0x20000, 0x30000, 4096);
  args[3] = kiln_arg_i32(0);
  args[3].value.i = 5000000000LL;
  CHECK_STATUS(kiln_kernel_compile(k, args, 4, o, NULL, NULL),
               KILN_ERROR_LAUNCH);
  CHECK_CONTAINS(kiln_last_error(),
                 "argument #4 `n`: integer 5000000000 does not fit in int32");
  args[3].kind = 77;
  CHECK_STATUS(kiln_kernel_compile(k, args, 4, o, NULL, NULL),
               KILN_ERROR_LAUNCH);
  CHECK_CONTAINS(kiln_last_error(), "unknown argument kind 77");
  /* A tuple header cannot promise more elements than follow it. */
  addArgs(args, 0x10000, 0x20000, 0x30000, 4096);
  args[2] = kiln_arg_tuple(2);
  CHECK_STATUS(kiln_kernel_compile(k, args, 4, o, NULL, NULL),
               KILN_ERROR_LAUNCH);
  CHECK_CONTAINS(kiln_last_error(),
                 "argument #3 `out_ptr`: tuple of 2 element(s) with 1 "
                 "argument(s) after it");
  /* After a tuple, errors still name the parameter (and the kiln_arg). */
  {
    kiln_arg targs[5];
    addArgs(targs, 0x10000, 0x20000, 0x30000, 4096);
    targs[4] = targs[3];
    targs[3] = targs[2];
    targs[2] = targs[1];
    targs[1] = kiln_arg_tuple(1);
    targs[4].kind = 77;
    CHECK_STATUS(kiln_kernel_compile(k, targs, 5, o, NULL, NULL),
                 KILN_ERROR_LAUNCH);
    CHECK_CONTAINS(kiln_last_error(),
                   "argument #4 `n`: unknown argument kind 77");
    targs[4].kind = KILN_ARG_INT;
    targs[2].dtype = 99;
    CHECK_STATUS(kiln_kernel_compile(k, targs, 5, o, NULL, NULL),
                 KILN_ERROR_LAUNCH);
    CHECK_CONTAINS(kiln_last_error(),
                   "argument #2 `y_ptr` (kiln_arg #3): pointer with unknown "
                   "dtype 99");
  }
  /* Too few arguments: the runtime names the missing one. */
  addArgs(args, 0x10000, 0x20000, 0x30000, 4096);
  CHECK_STATUS(kiln_kernel_compile(k, args, 3, o, NULL, NULL),
               KILN_ERROR_LAUNCH);
  CHECK_CONTAINS(kiln_last_error(), "missing `n` (argument #4)");
  /* None is a valid argument kind: it reaches the specialization, where a
   * parameter used as a pointer cannot be None. */
  addArgs(args, 0x10000, 0x20000, 0x30000, 4096);
  args[1] = kiln_arg_none();
  CHECK_STATUS(kiln_kernel_compile(k, args, 4, o, NULL, NULL),
               KILN_ERROR_COMPILE);
  CHECK(strncmp(kiln_last_error(), "add.py:", 7) == 0);
  CHECK_CONTAINS(kiln_last_error(), "None");

  /* A constexpr the kernel does not have. */
  CHECK_OK(kiln_options_set_constexpr(o, "BLOCKK", "1"));
  CHECK_STATUS(kiln_kernel_compile(k, args, 4, o, NULL, NULL),
               KILN_ERROR_LAUNCH);
  CHECK_CONTAINS(kiln_last_error(), "has no parameter `BLOCKK`");

  /* Errors are per thread and kept until the next failure. */
  CHECK_OK(kiln_options_clear_constexprs(o));
  CHECK_CONTAINS(kiln_last_error(), "BLOCKK");

  kiln_options_destroy(o);
  kiln_kernel_destroy(k);
  kiln_module_destroy(m);
}

/*--- launch (stand-in driver) ---------------------------------------------*/

typedef int (*LaunchCountFn)(void);
typedef int (*LaunchFn)(int, char *, size_t, unsigned *, void **, uint64_t *,
                        int);

static LaunchCountFn fakeLaunchCount;
static LaunchFn fakeLaunch;

typedef struct Recorded {
  char kernel[128];
  unsigned dims[7]; /* grid x y z, block x y z, shared bytes */
  void *stream;
  uint64_t params[16];
  int nparams;
} Recorded;

static int lastLaunch(Recorded *r) {
  int n = fakeLaunchCount();
  if (n == 0)
    return 0;
  r->nparams = fakeLaunch(n - 1, r->kernel, sizeof(r->kernel), r->dims,
                          &r->stream, r->params, 16);
  return n;
}

static kiln_status gridFromMeta(const kiln_meta *meta, kiln_grid *grid,
                                void *user) {
  int64_t block = 0, n = 0, warps = 0;
  const char *lit = NULL;
  kiln_status s = kiln_meta_get_int(meta, "BLOCK", &block);
  if (s == KILN_OK) /* scalar arguments are in the meta by name */
    s = kiln_meta_get_int(meta, "n", &n);
  if (s == KILN_OK)
    s = kiln_meta_get_int(meta, "num_warps", &warps);
  if (s != KILN_OK)
    return s;
  /* Pointers are not; constexpr defaults and num_stages are. */
  if (kiln_meta_get(meta, "x_ptr", &lit) != KILN_ERROR_NOT_FOUND ||
      kiln_meta_get(meta, "SCALE", &lit) != KILN_OK || strcmp(lit, "2") != 0 ||
      kiln_meta_get(meta, "num_stages", &lit) != KILN_OK ||
      strcmp(lit, "3") != 0 || warps != 4 ||
      n != *(const int64_t *)user)
    return KILN_ERROR_LAUNCH;
  grid->x = (uint32_t)((n + block - 1) / block);
  grid->y = 3;
  grid->z = 1;
  return KILN_OK;
}

static kiln_status failingGrid(const kiln_meta *meta, kiln_grid *grid,
                               void *user) {
  (void)meta;
  (void)grid;
  (void)user;
  return KILN_ERROR_INVALID_ARGUMENT;
}

/* Several threads launching one kernel (directly and through one shared
 * launcher) while another thread fails: errors stay per thread. */
typedef struct ThreadJob {
  kiln_kernel *kernel;
  kiln_launcher *launcher;
  const kiln_options *options;
  int failing;
  int ok;
} ThreadJob;

static void *threadMain(void *p) {
  ThreadJob *job = (ThreadJob *)p;
  kiln_arg args[4];
  addArgs(args, 0x10000, 0x20000, 0x30000, 1000);
  if (job->failing)
    args[2].value.ptr = 0;
  unsigned char buf[KILN_PACKED_HEADER_BYTES + 4 * KILN_PACKED_ARG_BYTES];
  memset(buf, 0, sizeof(buf));
  uint32_t g[3] = {1, 1, 1};
  memcpy(buf, g, sizeof(g));
  for (int i = 0; i < 4; ++i)
    memcpy(buf + KILN_PACKED_HEADER_BYTES + i * KILN_PACKED_ARG_BYTES,
           i < 3 ? &args[i].value.ptr : (const void *)&args[3].value.i, 8);
  job->ok = 1;
  kiln_grid grid = {1, 1, 1};
  for (int i = 0; i < 25; ++i) {
    kiln_status a = kiln_kernel_launch(job->kernel, grid, args, 4, job->options);
    kiln_status b = kiln_launcher_launch(job->launcher, buf, sizeof(buf));
    if (job->failing) {
      if (a != KILN_ERROR_LAUNCH || b != KILN_ERROR_LAUNCH ||
          !strstr(kiln_last_error(), "out_ptr"))
        job->ok = 0;
    } else if (a != KILN_OK || b != KILN_OK || kiln_last_error()[0] != '\0') {
      job->ok = 0;
    }
  }
  return NULL;
}

/* kiln_launcher_prepare: each thread builds one specialization (another
 * BLOCK) of one kernel at once, with no launch; launches then find them. */
typedef struct PrepareJob {
  kiln_launcher *launcher;
  kiln_status status;
} PrepareJob;

static void *prepareMain(void *p) {
  PrepareJob *job = (PrepareJob *)p;
  unsigned char buf[KILN_PACKED_HEADER_BYTES + 4 * KILN_PACKED_ARG_BYTES];
  memset(buf, 0, sizeof(buf));
  uint64_t ptrs[3] = {0x10000, 0x20000, 0x30000}, n = 1000;
  for (int i = 0; i < 4; ++i)
    memcpy(buf + KILN_PACKED_HEADER_BYTES + i * KILN_PACKED_ARG_BYTES,
           i < 3 ? &ptrs[i] : &n, 8);
  job->status = kiln_launcher_prepare(job->launcher, buf, sizeof(buf));
  return NULL;
}

static void testPrepareThreads(kiln_kernel *k) {
  enum { kThreads = 4 };
  const char *blocks[kThreads] = {"64", "128", "512", "1024"};
  kiln_arg proto[4];
  addArgs(proto, 0x10000, 0x20000, 0x30000, 1000);
  PrepareJob jobs[kThreads];
  pthread_t threads[kThreads];
  for (int t = 0; t < kThreads; ++t) {
    kiln_options *o = NULL;
    CHECK_OK(kiln_options_create(&o));
    CHECK_OK(kiln_options_set_constexpr(o, "BLOCK", blocks[t]));
    jobs[t].launcher = NULL;
    CHECK_OK(kiln_kernel_bind(k, proto, 4, o, &jobs[t].launcher));
    kiln_options_destroy(o);
  }
  int before = fakeLaunchCount();
  for (int t = 0; t < kThreads; ++t)
    CHECK(pthread_create(&threads[t], NULL, prepareMain, &jobs[t]) == 0);
  for (int t = 0; t < kThreads; ++t) {
    pthread_join(threads[t], NULL);
    CHECK_OK(jobs[t].status);
  }
  CHECK(fakeLaunchCount() == before); /* built, not launched */
  unsigned char small[KILN_PACKED_HEADER_BYTES];
  memset(small, 0, sizeof(small));
  CHECK_STATUS(kiln_launcher_prepare(jobs[0].launcher, small, sizeof(small)),
               KILN_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(kiln_last_error(), "packed launch of 24 bytes, expected 88");
  for (int t = 0; t < kThreads; ++t)
    kiln_launcher_destroy(jobs[t].launcher);
}

static void testThreads(kiln_kernel *k, const kiln_options *o) {
  kiln_arg proto[4];
  addArgs(proto, 0x10000, 0x20000, 0x30000, 1000);
  kiln_launcher *l = NULL;
  CHECK_OK(kiln_kernel_bind(k, proto, 4, o, &l));
  int before = fakeLaunchCount();
  enum { kThreads = 4 };
  pthread_t threads[kThreads];
  ThreadJob jobs[kThreads];
  for (int t = 0; t < kThreads; ++t) {
    jobs[t] = (ThreadJob){k, l, o, t == kThreads - 1, 0};
    CHECK(pthread_create(&threads[t], NULL, threadMain, &jobs[t]) == 0);
  }
  for (int t = 0; t < kThreads; ++t) {
    pthread_join(threads[t], NULL);
    CHECK(jobs[t].ok);
  }
  /* Three good threads, 25 direct and 25 packed launches each. */
  CHECK(fakeLaunchCount() - before == 3 * 50);
  kiln_launcher_destroy(l);
}

static void testLaunch(void) {
  void *fake = dlopen(KILN_FAKE_CUDA, RTLD_NOW | RTLD_LOCAL);
  CHECK(fake != NULL);
  if (!fake)
    return;
  fakeLaunchCount = (LaunchCountFn)dlsym(fake, "kilnFakeLaunchCount");
  fakeLaunch = (LaunchFn)dlsym(fake, "kilnFakeLaunch");
  CHECK(fakeLaunchCount && fakeLaunch);
  if (!fakeLaunchCount || !fakeLaunch)
    return;

  int count = 0;
  const char *name = NULL, *arch = NULL;
  int major = 0, minor = 0;
  CHECK_OK(kiln_device_count(&count));
  CHECK(count == 1);
  CHECK_OK(kiln_device_name(0, &name));
  CHECK(name && strcmp(name, "Kiln Fake GPU") == 0);
  CHECK_OK(kiln_device_arch(0, &major, &minor, &arch));
  CHECK(major == 9 && minor == 0 && strcmp(arch, "sm_90") == 0);
  CHECK_STATUS(kiln_device_name(1, &name), KILN_ERROR_NOT_FOUND);
  CHECK_CONTAINS(kiln_last_error(), "CUDA device 1 does not exist");

  kiln_module *m = NULL;
  kiln_kernel *k = addKernel(&m);
  kiln_options *o = NULL;
  CHECK_OK(kiln_options_create(&o));
  CHECK_OK(kiln_options_set_constexpr(o, "BLOCK", "256"));
  CHECK_OK(kiln_options_set_stream(o, (void *)0x5000));
  kiln_arg args[4];
  addArgs(args, 0x10000, 0x20000, 0x30000, 1000);
  kiln_grid grid = {4, 1, 1};
  CHECK_OK(kiln_kernel_launch(k, grid, args, 4, o));
  Recorded r;
  CHECK(lastLaunch(&r) == 1);
  CHECK(strcmp(r.kernel, "add_kernel") == 0);
  CHECK(r.dims[0] == 4 && r.dims[1] == 1 && r.dims[3] == 128);
  CHECK(r.stream == (void *)0x5000);
  CHECK(r.nparams >= 4);
  CHECK(r.params[0] == 0x10000 && r.params[1] == 0x20000 &&
        r.params[2] == 0x30000 && r.params[3] == 1000);

  /* What the launch used. */
  char meta[256];
  size_t size = sizeof(meta);
  CHECK_OK(kiln_kernel_last_meta(k, meta, &size));
  CHECK(strcmp(meta, "BLOCK=256\nSCALE=2\nnum_stages=3\nnum_warps=4\n") == 0);
  size = 4;
  CHECK_STATUS(kiln_kernel_last_meta(k, meta, &size),
               KILN_ERROR_BUFFER_TOO_SMALL);
  CHECK(size == strlen("BLOCK=256\nSCALE=2\nnum_stages=3\nnum_warps=4\n") + 1);

  /* A grid computed from the meta values. */
  int64_t n = 1000;
  CHECK_OK(kiln_kernel_launch_grid_fn(k, gridFromMeta, &n, args, 4, o));
  CHECK(lastLaunch(&r) == 2);
  CHECK(r.dims[0] == 4 && r.dims[1] == 3);
  CHECK_STATUS(kiln_kernel_launch_grid_fn(k, failingGrid, NULL, args, 4, o),
               KILN_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(kiln_last_error(), "the grid function failed");
  CHECK(fakeLaunchCount() == 2);

  CHECK(kiln_kernel_is_decorated(k) == 0);
  size = sizeof(meta);
  CHECK_OK(kiln_kernel_last_meta(k, meta, &size));
  CHECK(strcmp(meta, "BLOCK=256\nSCALE=2\nnum_stages=3\nnum_warps=4\n") == 0);
  /* A failing callback's message is kept. */
  n = 999;
  CHECK_STATUS(kiln_kernel_launch_grid_fn(k, gridFromMeta, &n, args, 4, o),
               KILN_ERROR_LAUNCH);
  CHECK_CONTAINS(kiln_last_error(), "the grid function failed (KILN_ERROR_LAUNCH)");

  /* A zero grid launches nothing. */
  grid.x = 0;
  CHECK_OK(kiln_kernel_launch(k, grid, args, 4, o));
  CHECK(fakeLaunchCount() == 2);

  /* The runtime's checks: a null pointer names the parameter. */
  grid.x = 4;
  args[1].value.ptr = 0;
  CHECK_STATUS(kiln_kernel_launch(k, grid, args, 4, o), KILN_ERROR_LAUNCH);
  CHECK_CONTAINS(kiln_last_error(), "y_ptr");
  args[1].value.ptr = 0x20000;

  /* The packed path: bind once, launch with one buffer. */
  kiln_launcher *l = NULL;
  CHECK_OK(kiln_kernel_bind(k, args, 4, o, &l));
  unsigned char buf[KILN_PACKED_HEADER_BYTES + 4 * KILN_PACKED_ARG_BYTES];
  memset(buf, 0, sizeof(buf));
  uint32_t g[3] = {7, 2, 1};
  uint64_t stream = 0x6000;
  uint64_t values[4] = {0x40000, 0x50000, 0x60000, 777};
  memcpy(buf, g, sizeof(g));
  memcpy(buf + 16, &stream, 8);
  for (int i = 0; i < 4; ++i)
    memcpy(buf + KILN_PACKED_HEADER_BYTES + i * KILN_PACKED_ARG_BYTES,
           &values[i], 8);
  CHECK_OK(kiln_launcher_launch(l, buf, sizeof(buf)));
  CHECK(lastLaunch(&r) == 3);
  CHECK(r.dims[0] == 7 && r.dims[1] == 2 && r.dims[2] == 1);
  CHECK(r.stream == (void *)0x6000);
  CHECK(r.params[0] == 0x40000 && r.params[2] == 0x60000 &&
        r.params[3] == 777);
  /* Launchers count as launches of the kernel they were bound from. */
  kiln_options *o2 = NULL;
  CHECK_OK(kiln_options_copy(o, &o2));
  CHECK_OK(kiln_options_set_num_warps(o2, 8));
  kiln_launcher *l8 = NULL;
  CHECK_OK(kiln_kernel_bind(k, args, 4, o2, &l8));
  kiln_options_destroy(o2);
  CHECK_OK(kiln_launcher_launch(l8, buf, sizeof(buf)));
  CHECK(lastLaunch(&r) == 4 && r.dims[3] == 256);
  size = sizeof(meta);
  CHECK_OK(kiln_kernel_last_meta(k, meta, &size));
  CHECK_CONTAINS(meta, "num_warps=8\n");
  kiln_launcher_destroy(l8);
  /* Wrong size, and a value out of the bound i32. */
  CHECK_STATUS(kiln_launcher_launch(l, buf, sizeof(buf) - 1),
               KILN_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(kiln_last_error(), "expected 88 for 4 argument(s)");
  int64_t big = 5000000000LL;
  memcpy(buf + KILN_PACKED_HEADER_BYTES + 3 * KILN_PACKED_ARG_BYTES, &big, 8);
  CHECK_STATUS(kiln_launcher_launch(l, buf, sizeof(buf)), KILN_ERROR_LAUNCH);
  CHECK_CONTAINS(kiln_last_error(), "argument #4 `n`: integer 5000000000");
  /* A null pointer through the packed path is caught by the runtime. */
  memcpy(buf + KILN_PACKED_HEADER_BYTES + 3 * KILN_PACKED_ARG_BYTES,
         &values[3], 8);
  uint64_t null = 0;
  memcpy(buf + KILN_PACKED_HEADER_BYTES, &null, 8);
  CHECK_STATUS(kiln_launcher_launch(l, buf, sizeof(buf)), KILN_ERROR_LAUNCH);
  CHECK_CONTAINS(kiln_last_error(), "x_ptr");
  CHECK(fakeLaunchCount() == 4);
  kiln_launcher_destroy(l);

  testThreads(k, o);
  testPrepareThreads(k);

  /* Floats and bools reach the kernel as fp32 bits and i32. */
  kiln_kernel *s = NULL;
  CHECK_OK(kiln_module_get_kernel(m, "scale_kernel", &s));
  kiln_arg sargs[3] = {kiln_arg_ptr(0x10000, KILN_DTYPE_F32, 0),
                       kiln_arg_f32(1.5f), kiln_arg_int(64)};
  CHECK_OK(kiln_kernel_launch(s, grid, sargs, 3, o));
  CHECK(lastLaunch(&r) == 5 + 150);
  float alpha = 0;
  uint32_t bits = (uint32_t)r.params[1];
  memcpy(&alpha, &bits, 4);
  CHECK(alpha == 1.5f && r.params[2] == 64);
  /* Triton's rule on request: an empty tensor's null pointer is passed. */
  kiln_options *nullOk = NULL;
  CHECK_OK(kiln_options_copy(o, &nullOk));
  CHECK_OK(kiln_options_set_null_pointers(nullOk, 1));
  sargs[0].value.ptr = 0;
  CHECK_STATUS(kiln_kernel_launch(s, grid, sargs, 3, o), KILN_ERROR_LAUNCH);
  CHECK_CONTAINS(kiln_last_error(), "null device pointer");
  CHECK_OK(kiln_kernel_launch(s, grid, sargs, 3, nullOk));
  CHECK(lastLaunch(&r) == 6 + 150 && r.params[0] == 0);
  kiln_options_destroy(nullOk);
  /* Triton's u64: an unsigned value from 2^63 on passes whole. */
  sargs[0].value.ptr = 0x10000;
  sargs[2] = kiln_arg_uint(0x8000000000000005ull);
  CHECK_OK(kiln_kernel_launch(s, grid, sargs, 3, o));
  CHECK(lastLaunch(&r) == 7 + 150 && r.params[2] == 0x8000000000000005ull);
  char *uptx = NULL;
  CHECK_OK(kiln_kernel_compile(s, sargs, 3, o, &uptx, NULL));
  CHECK_CONTAINS(uptx, ".param .u64 scale_kernel_param_2");
  kiln_free(uptx);
  kiln_kernel_destroy(s);

  kiln_options_destroy(o);
  kiln_kernel_destroy(k);
  kiln_module_destroy(m);
}

/*--- no driver ------------------------------------------------------------*/

static void testNoDriver(void) {
  int count = -1;
  CHECK_STATUS(kiln_device_count(&count), KILN_ERROR_NO_DRIVER);
  CHECK_CONTAINS(kiln_last_error(), "no CUDA driver found: cannot load");
  CHECK_CONTAINS(kiln_last_error(), "/nonexistent/libcuda.so.1");

  kiln_module *m = NULL;
  kiln_kernel *k = addKernel(&m);
  kiln_options *o = NULL;
  CHECK_OK(kiln_options_create(&o));
  CHECK_OK(kiln_options_set_constexpr(o, "BLOCK", "256"));
  kiln_arg args[4];
  addArgs(args, 0x10000, 0x20000, 0x30000, 1000);
  kiln_grid grid = {4, 1, 1};
  CHECK_STATUS(kiln_kernel_launch(k, grid, args, 4, o), KILN_ERROR_NO_DRIVER);
  CHECK_CONTAINS(kiln_last_error(), "no CUDA driver found");
  /* Compile-only still works. */
  char *ptx = NULL;
  CHECK_OK(kiln_kernel_compile(k, args, 4, o, &ptx, NULL));
  CHECK_CONTAINS(ptx, ".entry add_kernel");
  kiln_free(ptx);
  kiln_options_destroy(o);
  kiln_kernel_destroy(k);
  kiln_module_destroy(m);
}

/*--- modules --------------------------------------------------------------*/

void writeFile(const char *path, const char *text) {
  FILE *f = fopen(path, "w");
  CHECK(f != NULL);
  if (f) {
    fputs(text, f);
    fclose(f);
  }
}

static void testModules(void) {
  /* A package root with a helper module, and a kernel file importing it
   * absolutely whose autotune configs come from a host call. */
  CHECK(system("rm -rf capi_pkg && mkdir -p capi_pkg/lib") == 0);
  writeFile("capi_pkg/lib/__init__.py", "");
  writeFile("capi_pkg/lib/helpers.py",
            "import triton\n\n@triton.jit\ndef twice(x):\n"
            "    return x * 2\n");
  writeFile("capi_kernel.py",
            "import triton\nimport triton.language as tl\n"
            "from lib.helpers import twice\n\n"
            "@triton.autotune(configs=host_configs(), key=['n'])\n"
            "@triton.jit\ndef k(x_ptr, n, BLOCK: tl.constexpr):\n"
            "    offs = tl.arange(0, BLOCK)\n"
            "    x = tl.load(x_ptr + offs, mask=offs < n)\n"
            "    tl.store(x_ptr + offs, twice(x), mask=offs < n)\n");
  kiln_arg args[2] = {kiln_arg_ptr(0x1000, KILN_DTYPE_F32, 0),
                      kiln_arg_int(8)};
  kiln_options *o = NULL;
  CHECK_OK(kiln_options_create(&o));
  CHECK_OK(kiln_options_set_constexpr(o, "BLOCK", "64"));

  /* Default module: the host call in the decorator is an error, and
   * `lib` is not found without a package root. */
  kiln_module *m = NULL;
  kiln_kernel *k = NULL;
  CHECK_OK(kiln_module_create("capi_kernel.py", NULL, NULL, &m));
  CHECK_STATUS(kiln_module_get_kernel(m, "k", &k), KILN_ERROR_COMPILE);
  CHECK_CONTAINS(kiln_last_error(), "capi_kernel.py:5:26: error: name "
                                    "`host_configs` is not defined");
  kiln_module_destroy(m);

  /* Decorators left to the host, no root: the import is reported. */
  kiln_module_config config;
  memset(&config, 0, sizeof config);
  config.flags = KILN_MODULE_IGNORE_DECORATORS;
  CHECK_OK(kiln_module_create("capi_kernel.py", NULL, &config, &m));
  CHECK_OK(kiln_module_get_kernel(m, "k", &k));
  CHECK(kiln_kernel_is_decorated(k) == 0);
  char *ptx = NULL, *info = NULL;
  CHECK_STATUS(kiln_kernel_compile(k, args, 2, o, &ptx, &info),
               KILN_ERROR_COMPILE);
  CHECK_CONTAINS(kiln_last_error(),
                 "capi_kernel.py:10:28: error: `twice` is `twice` from module "
                 "`lib.helpers` (imported at capi_kernel.py:3), which kernels "
                 "cannot use; if it is a Python file of your package, give "
                 "the package root");
  kiln_kernel_destroy(k);
  kiln_module_destroy(m);

  /* With the package root: the helper from the other file compiles. */
  const char *dirs[] = {"capi_pkg"};
  config.include_dirs = dirs;
  config.num_include_dirs = 1;
  CHECK_OK(kiln_module_create("capi_kernel.py", NULL, &config, &m));
  CHECK_OK(kiln_module_get_kernel(m, "k", &k));
  CHECK_OK(kiln_kernel_compile(k, args, 2, o, &ptx, &info));
  CHECK_CONTAINS(ptx, ".entry k(");
  kiln_free(ptx);
  kiln_free(info);
  kiln_kernel_destroy(k);
  kiln_module_destroy(m);

  /* Argument errors. */
  CHECK_STATUS(kiln_module_create(NULL, NULL, NULL, &m),
               KILN_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(kiln_last_error(), "give `path` or `source`");
  config.flags = 8;
  CHECK_STATUS(kiln_module_create("capi_kernel.py", NULL, &config, &m),
               KILN_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(kiln_last_error(), "unknown flags 8");
  config.flags = 0;
  config.include_dirs = NULL;
  CHECK_STATUS(kiln_module_create("capi_kernel.py", NULL, &config, &m),
               KILN_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(kiln_last_error(), "`include_dirs` is NULL");
  kiln_options_destroy(o);
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s compile|errors|launch|nodriver|modules|"
                    "bindings|hostimports\n", argv[0]);
    return 2;
  }
  const char *s = argv[1];
  if (strcmp(s, "compile") == 0) {
    testCompile();
  } else if (strcmp(s, "errors") == 0) {
    testErrors();
  } else if (strcmp(s, "launch") == 0) {
    /* Before the first driver call: the runtime reads it once. */
    setenv("KILN_CUDA_DRIVER", KILN_FAKE_CUDA, 1);
    testLaunch();
  } else if (strcmp(s, "modules") == 0) {
    testModules();
  } else if (strcmp(s, "bindings") == 0) {
    testBindings();
  } else if (strcmp(s, "hostimports") == 0) {
    testHostImports();
  } else if (strcmp(s, "nodriver") == 0) {
    setenv("KILN_CUDA_DRIVER", "/nonexistent/libcuda.so.1", 1);
    testNoDriver();
  } else {
    fprintf(stderr, "unknown scenario `%s`\n", s);
    return 2;
  }
  if (failures)
    fprintf(stderr, "%d check(s) failed\n", failures);
  else
    printf("CAPI %s: all checks passed\n", s);
  return failures ? 1 : 0;
}

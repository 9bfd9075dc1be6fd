/*===- kiln.h - The C API of the Kiln runtime ------------------------------===
 *
 * Compile and launch Triton-language kernels from C (and, through ctypes,
 * from Python: python/kiln). Handles are opaque; every function that can fail
 * returns a kiln_status, and kiln_last_error() holds the calling thread's
 * message for the last failure (compile errors carry Kiln's
 * `FILE:LINE:COL: error: ...` text with the source line and a caret).
 *
 *   kiln_module *m;  kiln_kernel *k;  kiln_options *o;
 *   if (kiln_module_from_file("add.py", &m) != KILN_OK)
 *     fprintf(stderr, "%s\n", kiln_last_error());
 *   kiln_module_get_kernel(m, "add_kernel", &k);
 *   kiln_options_create(&o);
 *   kiln_options_set_constexpr(o, "BLOCK", "1024");
 *   kiln_arg args[] = {kiln_arg_ptr(x, KILN_DTYPE_F32, 0), ...,
 *                      kiln_arg_int(n)};
 *   kiln_grid grid = {(n + 1023) / 1024, 1, 1};
 *   kiln_kernel_launch(k, grid, args, 4, o);
 *
 * Every function is thread-safe; handles may be shared between threads
 * (an options object only while nobody modifies it).
 *
 *===----------------------------------------------------------------------===*/
#ifndef KILN_KILN_H
#define KILN_KILN_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define KILN_API __attribute__((visibility("default")))
#else
#define KILN_API
#endif

/* Version of this header; kiln_version() gives the library's. */
#define KILN_VERSION_MAJOR 0
#define KILN_VERSION_MINOR 1
#define KILN_VERSION_PATCH 0

typedef enum kiln_status {
  KILN_OK = 0,
  /* A null handle or pointer, a bad enum value, a size that does not fit. */
  KILN_ERROR_INVALID_ARGUMENT = 1,
  /* The kernel file cannot be read. */
  KILN_ERROR_IO = 2,
  /* The source or the specialization does not compile (FILE:LINE:COL). */
  KILN_ERROR_COMPILE = 3,
  /* No kernel, parameter or device of that name or index. */
  KILN_ERROR_NOT_FOUND = 4,
  /* The launch arguments do not fit the kernel, or the driver refused. */
  KILN_ERROR_LAUNCH = 5,
  /* No CUDA driver could be loaded (or it has no device). */
  KILN_ERROR_NO_DRIVER = 6,
  /* A caller's buffer is too small; the size needed is reported. */
  KILN_ERROR_BUFFER_TOO_SMALL = 7,
} kiln_status;

/* "0.1.0": the library's version. */
KILN_API const char *kiln_version(void);
/* The message of the calling thread's last failed call ("" if none). Valid
 * until the thread's next failing call. */
KILN_API const char *kiln_last_error(void);
/* "KILN_OK", "KILN_ERROR_COMPILE", ... */
KILN_API const char *kiln_status_name(kiln_status status);

/*--- Element types --------------------------------------------------------*/

/* Pointee types of pointer arguments (Triton's names in comments). */
typedef enum kiln_dtype {
  KILN_DTYPE_I1 = 0,   /* i1 (bool, one byte per element) */
  KILN_DTYPE_I8 = 1,   /* i8 */
  KILN_DTYPE_I16 = 2,  /* i16 */
  KILN_DTYPE_I32 = 3,  /* i32 */
  KILN_DTYPE_I64 = 4,  /* i64 */
  KILN_DTYPE_U32 = 5,  /* u32 */
  KILN_DTYPE_F16 = 6,  /* fp16 */
  KILN_DTYPE_BF16 = 7, /* bf16 */
  KILN_DTYPE_F32 = 8,  /* fp32 */
  KILN_DTYPE_F64 = 9,  /* fp64 */
  KILN_DTYPE_U8 = 10,  /* u8 (when the compiler supports it) */
  KILN_DTYPE_U16 = 11, /* u16 (idem) */
  KILN_DTYPE_U64 = 12, /* u64 (idem) */
  KILN_DTYPE_F8E4NV = 13, /* fp8e4nv: OCP e4m3 (torch.float8_e4m3fn), sm_89+ */
  KILN_DTYPE_F8E5 = 14,   /* fp8e5: OCP e5m2 (torch.float8_e5m2), sm_89+ */
} kiln_dtype;

/* "fp16" for KILN_DTYPE_F16 ...; NULL for a value out of range or a type
 * this build's compiler does not support. */
KILN_API const char *kiln_dtype_name(int dtype);
/* Parses "fp16", "float16", "bf16", "i32", "int32", "uint8", ... */
KILN_API kiln_status kiln_dtype_parse(const char *name, int *dtype);

/*--- Compile and launch options -------------------------------------------*/

typedef struct kiln_options kiln_options;

/* Defaults: num_warps 4, num_stages 3, device 0, the primary context's
 * default stream, no constexprs, arch of the device (sm_90 for compile-only
 * calls without a device). */
KILN_API kiln_status kiln_options_create(kiln_options **out);
KILN_API kiln_status kiln_options_copy(const kiln_options *from,
                                       kiln_options **out);
KILN_API void kiln_options_destroy(kiln_options *options);
KILN_API kiln_status kiln_options_set_num_warps(kiln_options *options,
                                                unsigned num_warps);
/* Software-pipelining depth of the loops that feed tl.dot (Triton's
 * num_stages; autotune configs set their own); visible to grid callbacks as
 * meta "num_stages". */
KILN_API kiln_status kiln_options_set_num_stages(kiln_options *options,
                                                 unsigned num_stages);
/* A constexpr as the literal text Python would write: "1024", "True",
 * "1e-05", "'relu'". Setting a name again replaces its value. */
KILN_API kiln_status kiln_options_set_constexpr(kiln_options *options,
                                                const char *name,
                                                const char *literal);
KILN_API kiln_status kiln_options_clear_constexprs(kiln_options *options);
KILN_API kiln_status kiln_options_set_device(kiln_options *options,
                                             int device);
/* A CUstream (e.g. torch.cuda.current_stream().cuda_stream); NULL is the
 * primary context's default stream. */
KILN_API kiln_status kiln_options_set_stream(kiln_options *options,
                                             void *stream);
/* Compile target of kiln_kernel_compile ("sm_80", "sm_90"). */
KILN_API kiln_status kiln_options_set_arch(kiln_options *options,
                                           const char *arch);
/* Triton's launch_cooperative_grid (nonzero: on): every program of the grid
 * is resident at once (cuLaunchCooperativeKernel), so programs may wait for
 * each other; a launch whose grid cannot all be resident fails with
 * KILN_ERROR_LAUNCH. Not part of the compiled code or its cache key. */
KILN_API kiln_status kiln_options_set_cooperative(kiln_options *options,
                                                  int cooperative);
/* Triton's launch_pdl (nonzero: on): a programmatic dependent launch
 * (sm_90): the kernel may start while the previous kernel on its stream
 * still runs; its tl.extra.cuda.gdc_wait() waits for that kernel's results.
 * Fails with KILN_ERROR_LAUNCH where the driver lacks cuLaunchKernelEx. Not
 * part of the compiled code or its cache key. */
KILN_API kiln_status kiln_options_set_pdl(kiln_options *options, int pdl);
/* Triton's enable_fp_fusion (nonzero, the default: on): a multiply and an
 * add may fuse into one FMA. Off, each rounds on its own (tl.fma stays an
 * FMA). Part of the compiled code and its cache key. */
KILN_API kiln_status kiln_options_set_fp_fusion(kiln_options *options,
                                                int enable);
/* Triton's rule for pointer arguments (nonzero: on): a null pointer, as an
 * empty tensor's data_ptr() is, is passed to the kernel as it is. Off (the
 * default), a null pointer is refused with KILN_ERROR_LAUNCH naming the
 * argument. Not part of the compiled code or its cache key. */
KILN_API kiln_status kiln_options_set_null_pointers(kiln_options *options,
                                                    int allow);

/*--- Modules and kernels --------------------------------------------------*/

typedef struct kiln_module kiln_module;
typedef struct kiln_kernel kiln_kernel;

/* A Triton-language file. Reading errors name the path; the source is parsed
 * when a kernel is looked up. */
KILN_API kiln_status kiln_module_from_file(const char *path,
                                           kiln_module **out);
/* `filename` names the source in messages. */
KILN_API kiln_status kiln_module_from_source(const char *source,
                                             const char *filename,
                                             kiln_module **out);
KILN_API void kiln_module_destroy(kiln_module *module);
/* How a module is made (kiln_module_create). Zero-initialise, then set. */
#define KILN_MODULE_IGNORE_DECORATORS 1u
typedef struct kiln_module_config {
  /* KILN_MODULE_IGNORE_DECORATORS: @triton.autotune / @triton.heuristics in
   * the source are not applied (a host such as Python's drop-in `triton`
   * evaluates them itself); the kernels launch as plain @triton.jit. */
  unsigned flags;
  /* Package roots searched for `import pkg.mod` / `from pkg import x` in the
   * kernel file (relative imports resolve beside the file), by kernels and
   * by decorator arguments imported from other modules. Copied. */
  const char *const *include_dirs;
  size_t num_include_dirs;
  /* Host bindings, "NAME=EXPR" or "PATH::NAME=EXPR": the value of a
   * module-level name that the file binds inside an `if`/`try`/`with`/loop
   * (`if version_ok(): from triton.language.extra.libdevice import rsqrt
   * else: ...`), which Kiln cannot resolve from the source. EXPR is Python
   * evaluated with `triton` bound to the Triton module
   * ("triton.language.extra.libdevice.rsqrt", "triton.language.float32",
   * "128", "'mean'", "None"). A binding is used only for such a name, and
   * only when that compound statement binds it last in its file; a name
   * Kiln resolves itself keeps its value, and unused bindings are ignored.
   * Without PATH the binding is for the kernel file; with PATH (compared as
   * real paths) for that imported file. The string is split at its first
   * `=`, PATH at the last `::` before it. A malformed binding or a name
   * bound twice is KILN_ERROR_INVALID_ARGUMENT here; an EXPR that does not
   * parse or evaluate to a compile-time value is a compile error at the
   * name's use. Copied; part of the cache key. */
  const char *const *host_bindings;
  size_t num_host_bindings;
} kiln_module_config;
/* A module from `path` (source NULL) or from `source` named `path` in
 * messages; `config` may be NULL (defaults, as kiln_module_from_file). */
KILN_API kiln_status kiln_module_create(const char *path, const char *source,
                                        const kiln_module_config *config,
                                        kiln_module **out);
/* The @triton.jit kernels of the file in order; names stay valid while the
 * module lives. Errors are compile errors (FILE:LINE:COL). */
KILN_API kiln_status kiln_module_kernel_count(kiln_module *module,
                                              size_t *count);
KILN_API kiln_status kiln_module_kernel_name(kiln_module *module,
                                             size_t index, const char **name);
/* KILN_ERROR_NOT_FOUND lists the kernels of the file. The kernel holds its
 * module's source; the module may be destroyed first. */
KILN_API kiln_status kiln_module_get_kernel(kiln_module *module,
                                            const char *name,
                                            kiln_kernel **out);
KILN_API void kiln_kernel_destroy(kiln_kernel *kernel);
/* Valid while the kernel lives. */
KILN_API const char *kiln_kernel_name(const kiln_kernel *kernel);

typedef struct kiln_param_info {
  const char *name;          /* valid while the kernel lives */
  int is_constexpr;          /* 1 for `X: tl.constexpr` */
  const char *default_value; /* source text of `= default`, or NULL */
} kiln_param_info;

/* Parameters as the def declares them, constexprs included. */
KILN_API kiln_status kiln_kernel_param_count(const kiln_kernel *kernel,
                                             size_t *count);
KILN_API kiln_status kiln_kernel_param(const kiln_kernel *kernel,
                                       size_t index, kiln_param_info *info);

/*--- Launch arguments -----------------------------------------------------*/

typedef enum kiln_arg_kind {
  KILN_ARG_POINTER = 0, /* value.ptr: a device address; dtype: pointee */
  KILN_ARG_INT = 1,     /* value.i, typed as Python's int: i32 if it fits */
  KILN_ARG_INT32 = 2,   /* value.i, always i32 */
  KILN_ARG_INT64 = 3,   /* value.i, always i64 */
  KILN_ARG_UINT = 4,    /* value.u, typed as Python's int (i32 / i64 /
                         * u64 from 2^63 on) */
  KILN_ARG_FLOAT32 = 5, /* value.f, fp32 */
  KILN_ARG_FLOAT64 = 6, /* value.f, fp64 */
  KILN_ARG_BOOL = 7,    /* value.i (0 or 1) */
  KILN_ARG_NONE = 8,    /* Python's None: the parameter becomes a
                         * constexpr None and takes no argument slot */
  KILN_ARG_INT_NOSPEC = 9, /* value.i, typed as Python's int (i32 if it
                            * fits), never specialized on its value: no
                            * `:16`, not the constexpr 1 (Triton's
                            * do_not_specialize) */
  KILN_ARG_TENSORDESC = 10, /* a host tensor descriptor for a parameter the
                             * kernel reads with desc.load(...): value.ptr
                             * its base (16-byte aligned), dtype its
                             * elements, byte_size kiln_tensordesc_bits();
                             * then its rank shapes and rank - 1 strides
                             * (elements; the last stride is 1) as
                             * KILN_ARG_INT_NOSPEC arguments */
  KILN_ARG_TUPLE = 11, /* a Python tuple for one parameter: value.i its
                        * element count; its elements follow as arguments
                        * (pointers, scalars, None, nested tuples; no
                        * descriptors), depth first, at most 8 deep.
                        * Specialized element by element, as Triton does;
                        * the kernel indexes it with constants (`t[0]`).
                        * byte_size: 0, or the address of a NUL-terminated
                        * "x,y" naming a namedtuple's fields, one per
                        * element (the kernel reads `t.x`); it must stay
                        * valid for the call (kiln_kernel_bind copies it) */
  KILN_ARG_CONSTEXPR = 12, /* another compile-time value for a parameter,
                            * value.ptr the address of its NUL-terminated
                            * signature spelling: a @triton.jit function as
                            * __kiln_def__('PATH', 'NAME', LINE), a tl
                            * function as triton.language.maximum. Like None
                            * it specializes the kernel and takes no slot;
                            * valid for the call (kiln_kernel_bind copies
                            * it) */
} kiln_arg_kind;

/* One argument for each non-constexpr parameter, in order. 24 bytes. */
typedef struct kiln_arg {
  int32_t kind;  /* kiln_arg_kind */
  int32_t dtype; /* kiln_dtype of the pointee (pointers only) */
  union {
    uint64_t ptr;
    int64_t i;
    uint64_t u;
    double f;
  } value;
  /* Bytes of the buffer behind the pointer (0: unknown); the autotuner
   * needs it for reset_to_zero / restore_value between trial runs. */
  uint64_t byte_size;
} kiln_arg;

static inline kiln_arg kiln_arg_ptr(uint64_t ptr, kiln_dtype dtype,
                                    uint64_t byte_size) {
  kiln_arg a;
  a.kind = KILN_ARG_POINTER;
  a.dtype = (int32_t)dtype;
  a.value.ptr = ptr;
  a.byte_size = byte_size;
  return a;
}
/* The block shape (rank 1..5, powers of two up to 2^20), padding and shape
 * (its entries divisible by 16 specialize the kernel, as an integer's :16)
 * of a KILN_ARG_TENSORDESC header, packed into its byte_size. */
static inline uint64_t kiln_tensordesc_bits(const int64_t *block,
                                            const int64_t *shape, int rank,
                                            int nan_padding) {
  uint64_t bits = (uint64_t)rank | (nan_padding ? 8u : 0u);
  for (int d = 0; d < rank; ++d)
    if (shape[d] % 16 == 0)
      bits |= (uint64_t)1 << (29 + d);
  for (int d = 0; d < rank; ++d) {
    uint64_t log2 = 0;
    while (((int64_t)1 << log2) < block[d])
      ++log2;
    bits |= log2 << (4 + 5 * d);
  }
  return bits;
}
static inline kiln_arg kiln_arg_scalar_(kiln_arg_kind kind) {
  kiln_arg a;
  a.kind = (int32_t)kind;
  a.dtype = 0;
  a.value.u = 0;
  a.byte_size = 0;
  return a;
}
static inline kiln_arg kiln_arg_int(int64_t v) {
  kiln_arg a = kiln_arg_scalar_(KILN_ARG_INT);
  a.value.i = v;
  return a;
}
static inline kiln_arg kiln_arg_i32(int32_t v) {
  kiln_arg a = kiln_arg_scalar_(KILN_ARG_INT32);
  a.value.i = v;
  return a;
}
static inline kiln_arg kiln_arg_i64(int64_t v) {
  kiln_arg a = kiln_arg_scalar_(KILN_ARG_INT64);
  a.value.i = v;
  return a;
}
static inline kiln_arg kiln_arg_uint(uint64_t v) {
  kiln_arg a = kiln_arg_scalar_(KILN_ARG_UINT);
  a.value.u = v;
  return a;
}
static inline kiln_arg kiln_arg_f32(float v) {
  kiln_arg a = kiln_arg_scalar_(KILN_ARG_FLOAT32);
  a.value.f = v;
  return a;
}
static inline kiln_arg kiln_arg_f64(double v) {
  kiln_arg a = kiln_arg_scalar_(KILN_ARG_FLOAT64);
  a.value.f = v;
  return a;
}
static inline kiln_arg kiln_arg_bool(int v) {
  kiln_arg a = kiln_arg_scalar_(KILN_ARG_BOOL);
  a.value.i = v ? 1 : 0;
  return a;
}
static inline kiln_arg kiln_arg_none(void) {
  return kiln_arg_scalar_(KILN_ARG_NONE);
}
/* A compile-time value by its signature spelling (KILN_ARG_CONSTEXPR). */
static inline kiln_arg kiln_arg_constexpr(const char *spelling) {
  kiln_arg a = kiln_arg_scalar_(KILN_ARG_CONSTEXPR);
  a.value.ptr = (uint64_t)(uintptr_t)spelling;
  return a;
}
/* The header of a tuple argument; its `size` elements follow it. */
static inline kiln_arg kiln_arg_tuple(int64_t size) {
  kiln_arg a = kiln_arg_scalar_(KILN_ARG_TUPLE);
  a.value.i = size;
  return a;
}
/* The header of a namedtuple argument: `fields` names its `size` elements,
 * comma-separated ("ptr,n"). */
static inline kiln_arg kiln_arg_namedtuple(int64_t size, const char *fields) {
  kiln_arg a = kiln_arg_tuple(size);
  a.byte_size = (uint64_t)(uintptr_t)fields;
  return a;
}

/*--- Launching ------------------------------------------------------------*/

/* Programs along x, y, z; a zero dimension launches nothing (as Triton). */
typedef struct kiln_grid {
  uint32_t x, y, z;
} kiln_grid;

/* Checks the arguments (errors name the parameter), compiles and loads the
 * specialization on first use (through the caches), launches on the
 * options' stream. `options` may be NULL (defaults). */
KILN_API kiln_status kiln_kernel_launch(kiln_kernel *kernel, kiln_grid grid,
                                        const kiln_arg *args, size_t nargs,
                                        const kiln_options *options);

/* The values a launch's grid sees: constexprs (given, defaulted, or chosen
 * by autotune / heuristics), "num_warps", "num_stages", and the scalar
 * arguments by parameter name (pointers are not included). Only valid
 * during the callback it is passed to. */
typedef struct kiln_meta kiln_meta;
/* Literal text of `name` (e.g. "1024"); KILN_ERROR_NOT_FOUND if unset. */
KILN_API kiln_status kiln_meta_get(const kiln_meta *meta, const char *name,
                                   const char **literal);
/* `name` as an integer; KILN_ERROR_INVALID_ARGUMENT if it is not one. */
KILN_API kiln_status kiln_meta_get_int(const kiln_meta *meta,
                                       const char *name, int64_t *value);
KILN_API size_t kiln_meta_count(const kiln_meta *meta);
KILN_API kiln_status kiln_meta_entry(const kiln_meta *meta, size_t index,
                                     const char **name, const char **literal);

/* Computes the grid from the launch's meta values (Triton's
 * `grid = lambda meta: (triton.cdiv(n, meta["BLOCK"]),)`). With autotuning
 * it is called for each config tried, then for the chosen one. A non-OK
 * return launches nothing for that config, and the launch returns that
 * status; the message quotes the one the callback left, if any. */
typedef kiln_status (*kiln_grid_fn)(const kiln_meta *meta, kiln_grid *grid,
                                    void *user_data);
KILN_API kiln_status kiln_kernel_launch_grid_fn(kiln_kernel *kernel,
                                                kiln_grid_fn grid_fn,
                                                void *user_data,
                                                const kiln_arg *args,
                                                size_t nargs,
                                                const kiln_options *options);

/* 1 when the kernel has @triton.autotune / @triton.heuristics layers, which
 * Kernel launches apply (the config they choose shows in the grid
 * callback's meta and in kiln_kernel_last_meta); 0 otherwise. */
KILN_API int kiln_kernel_is_decorated(const kiln_kernel *kernel);

/* The meta values (as `name=literal` lines, sorted by name) of the calling
 * thread's last successful launch of `kernel` (directly or through a launcher
 * bound from it): with autotuning, the config
 * the tuner chose. Writes the needed size (with the NUL) to *size; returns
 * KILN_ERROR_BUFFER_TOO_SMALL when `buffer` (may be NULL) is too small. */
KILN_API kiln_status kiln_kernel_last_meta(const kiln_kernel *kernel,
                                           char *buffer, size_t *size);

/*--- The fast path: pre-bound launchers -----------------------------------*/

/* A launcher fixes what selects a specialization besides values: the
 * argument kinds and pointee dtypes of `prototype` (values ignored, except
 * that KILN_ARG_INT / KILN_ARG_UINT are fixed to i32, i64 or u64 by the
 * prototype's value) and a copy of `options` (stream excepted). Each launch
 * then passes one packed buffer:
 *
 *   offset 0   uint32 grid_x, grid_y, grid_z, reserved (0)
 *   offset 16  uint64 stream (a CUstream; 0 = default stream)
 *   offset 24  nargs records of 16 bytes: uint64 bits, uint64 byte_size
 *              (bits: the pointer, the two's-complement integer, or the
 *               IEEE double for float kinds; 0 for None; a tuple header's
 *               element count, as bound)
 *
 * so that a caller (python/kiln) builds it with one struct.pack and launches
 * with one call. The specialization's alignment (`:16`) is still derived
 * from each launch's values. */
typedef struct kiln_launcher kiln_launcher;
#define KILN_PACKED_HEADER_BYTES 24
#define KILN_PACKED_ARG_BYTES 16
KILN_API kiln_status kiln_kernel_bind(kiln_kernel *kernel,
                                      const kiln_arg *prototype, size_t nargs,
                                      const kiln_options *options,
                                      kiln_launcher **out);
KILN_API kiln_status kiln_launcher_launch(kiln_launcher *launcher,
                                          const void *packed, size_t bytes);
/* Compiles and loads what kiln_launcher_launch would run for `packed`
 * (grid ignored), without launching: an autotuner calls it from several
 * threads at once to build its configs in parallel. Undecorated kernels
 * only. */
KILN_API kiln_status kiln_launcher_prepare(kiln_launcher *launcher,
                                           const void *packed, size_t bytes);
KILN_API void kiln_launcher_destroy(kiln_launcher *launcher);

/*--- Compile only (no GPU needed) -----------------------------------------*/

/* Compiles the specialization `args` and `options` select (options' arch,
 * default sm_90) and returns its PTX and KernelInfo JSON (the files
 * ln-compile writes). Decorator layers (autotune, heuristics) are not
 * applied: give the constexprs of the config you want. The strings are owned
 * by the caller: free them with kiln_free. */
KILN_API kiln_status kiln_kernel_compile(kiln_kernel *kernel,
                                         const kiln_arg *args, size_t nargs,
                                         const kiln_options *options,
                                         char **ptx, char **info_json);
KILN_API void kiln_free(void *p);

/* The warnings of compiles since the last call (`FILE:LINE:COL: warning:
 * ...` with the source line and a caret; each text once per process), or
 * NULL when there are none. Free the string with kiln_free. */
KILN_API kiln_status kiln_take_warnings(char **text);

/* While set (nonzero) on the calling thread, launches of a kernel whose
 * higher-occupancy build (KILN_OCCUPANCY=auto) is still being measured run
 * the kernel's own build and neither build nor time the other; autotuners
 * set it while they time configs. Writes the previous setting to *previous
 * when not NULL. */
KILN_API kiln_status kiln_set_occupancy_paused(int paused, int *previous);

/*--- Devices --------------------------------------------------------------*/

/* KILN_ERROR_NO_DRIVER with the reason when no CUDA driver can be loaded.
 * KILN_CUDA_DRIVER overrides the driver library's path. */
KILN_API kiln_status kiln_device_count(int *count);
/* Valid for the life of the process. */
KILN_API kiln_status kiln_device_name(int device, const char **name);
/* Compute capability and Kiln's compile target ("sm_90"). */
KILN_API kiln_status kiln_device_arch(int device, int *cc_major,
                                      int *cc_minor, const char **arch);
/* Waits for all work on the device's primary context. */
KILN_API kiln_status kiln_device_synchronize(int device);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* KILN_KILN_H */

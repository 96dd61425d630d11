/*
 * asyncgemm: CUDA matrix products and tiled copies behind a stable C ABI.
 *
 * C99 and C++; needs no CUDA header.  Every function returns an asyncgemm_status_t (except the
 * three informational ones); on failure nothing is written to any output and asyncgemm_last_error()
 * names the argument or the driver call that failed.  The values of every enum are part of the ABI.
 */
#ifndef ASYNCGEMM_H
#define ASYNCGEMM_H

#include <stddef.h>
#include <stdint.h>

#define ASYNCGEMM_VERSION_MAJOR 0
#define ASYNCGEMM_VERSION_MINOR 2
#define ASYNCGEMM_VERSION_PATCH 7

#if defined(_WIN32)
#define ASYNCGEMM_API
#else
#define ASYNCGEMM_API __attribute__((visibility("default")))
#endif

#ifdef __cplusplus
extern "C" {
#endif

typedef struct asyncgemm_handle_st *asyncgemm_handle_t;

typedef enum {
    ASYNCGEMM_STATUS_SUCCESS = 0,
    ASYNCGEMM_STATUS_INVALID_VALUE = 1,
    ASYNCGEMM_STATUS_MISALIGNED = 2,
    ASYNCGEMM_STATUS_NOT_SUPPORTED = 3,
    ASYNCGEMM_STATUS_NO_DRIVER = 4,
    ASYNCGEMM_STATUS_DRIVER_TOO_OLD = 5,
    ASYNCGEMM_STATUS_NO_DEVICE = 6,
    ASYNCGEMM_STATUS_CUDA_ERROR = 7,
    ASYNCGEMM_STATUS_OUT_OF_MEMORY = 8,
    ASYNCGEMM_STATUS_INTERNAL_ERROR = 9
} asyncgemm_status_t;

typedef enum {
    ASYNCGEMM_R_32F = 0,
    ASYNCGEMM_R_16F = 1,
    ASYNCGEMM_R_16BF = 2,
    /* 0.2 (multiplied from 0.2.1 on; 0.2.0 answered NOT_SUPPORTED): 8-bit floating-point inputs,
       OCP FP8 E4M3 (no infinities; one NaN pattern per sign, 0x7F and 0xFF; largest finite 448) and
       E5M2 (IEEE-like; largest finite 57344).  A and B only, of the same type or one of each
       (e4m3 by e5m2, as FP8 training's gradient products are: SIMT and SM90_TMA_WGMMA read the two
       formats themselves, SIMT with any scales, SM90_TMA_WGMMA as it reads one format; ASYNC_COPY and
       PIPELINED multiply f16 copies, so without block or MX scales; SM100_TCGEN05 named is
       NOT_SUPPORTED); C and D stay f16, bf16 or f32.  On Hopper GPUs (SM90_TMA_WGMMA and AUTO
       there) and Blackwell ones (SM100_TCGEN05 and AUTO), with both
       operands K-major and 16-byte rows, the 8-bit tensor cores multiply them:
       exact products summed in their fp32 accumulator, which keeps fewer bits than fp32 (measured:
       D within 4e-3 of max |D| of an fp32 sum at K = 4096).  SIMT converts them to fp32 as it
       loads them (any GPU, majors and alignment; exact fp32 sums).  On Hopper an MN-major operand
       (not a batch of them, its rows 4-byte aligned, the other matrices as TMA needs them) is first
       transposed into a K-major 8-bit copy in the handle's workspace, and the 8-bit kernels multiply
       (from 0.2.6).  Every other case (another GPU, rows of A or B TMA cannot describe, ASYNC_COPY
       or PIPELINED named) widens A and B into f16 copies in the handle's workspace first (exact)
       and runs a 16-bit kernel on them; where the workspace cannot hold the copies (a call being captured without a
       workspace set by asyncgemm_set_workspace, or one too small), AUTO takes SIMT and a named
       algorithm returns NOT_SUPPORTED.  SM90_TMA_WGMMA named still needs C and D described by TMA
       (MISALIGNED); SM100_TCGEN05 named refuses every case its 8-bit kernels do not read.  NaN
       inputs give NaN, but for alpha * sa * sb zero (or underflowing fp32), which means no product:
       D = beta * C.  D is rounded to its type as for any inputs: past its largest finite value it
       is infinite (f16 D of two e4m3 inputs at 448 with K >= 1), nothing saturates. */
    ASYNCGEMM_R_8F_E4M3 = 3,
    ASYNCGEMM_R_8F_E5M2 = 4
} asyncgemm_dtype_t;

typedef enum { ASYNCGEMM_ORDER_ROW = 0, ASYNCGEMM_ORDER_COL = 1 } asyncgemm_order_t;

typedef enum { ASYNCGEMM_OP_N = 0, ASYNCGEMM_OP_T = 1 } asyncgemm_op_t;

typedef enum {
    ASYNCGEMM_ALGO_AUTO = 0,
    ASYNCGEMM_ALGO_SIMT = 1,
    ASYNCGEMM_ALGO_ASYNC_COPY = 2,
    ASYNCGEMM_ALGO_PIPELINED = 3,
    ASYNCGEMM_ALGO_SM90_TMA_WGMMA = 4,
    ASYNCGEMM_ALGO_SM100_TCGEN05 = 5
} asyncgemm_algo_t;

typedef enum { ASYNCGEMM_MATH_DEFAULT = 0, ASYNCGEMM_MATH_TF32 = 1 } asyncgemm_math_t;

typedef enum {
    ASYNCGEMM_COPY_AUTO = 0,
    ASYNCGEMM_COPY_SYNC = 1,
    ASYNCGEMM_COPY_ASYNC = 2,
    ASYNCGEMM_COPY_PIPELINED = 3,
    ASYNCGEMM_COPY_TMA = 4
} asyncgemm_copy_algo_t;

typedef enum {
    ASYNCGEMM_SMEM_AUTO = 0,
    ASYNCGEMM_SMEM_PLAIN = 1,
    ASYNCGEMM_SMEM_PADDED = 2,
    ASYNCGEMM_SMEM_SWIZZLED = 3
} asyncgemm_smem_layout_t;

/* The library's version (not the header's): compare with ASYNCGEMM_VERSION_* to detect a mismatch.
   Any argument may be NULL. */
ASYNCGEMM_API void asyncgemm_get_version(int *major, int *minor, int *patch);

/* A constant string naming the status ("ASYNCGEMM_STATUS_..."); "unknown status" for other values. */
ASYNCGEMM_API const char *asyncgemm_status_string(asyncgemm_status_t status);

/* This thread's last failure as one line, "" if none.  Valid until this thread's next call. */
ASYNCGEMM_API const char *asyncgemm_last_error(void);

/* A handle binds one CUDA context: the one current on the calling thread, else device 0's primary
   context (asyncgemm_create), or the given device's primary context (asyncgemm_create_for_device).
   It loads every kernel the device can run, so later calls never load modules. */
ASYNCGEMM_API asyncgemm_status_t asyncgemm_create(asyncgemm_handle_t *handle);
ASYNCGEMM_API asyncgemm_status_t asyncgemm_create_for_device(asyncgemm_handle_t *handle, int device);
/* Destroying NULL succeeds.  Work already queued on streams is not waited for. */
ASYNCGEMM_API asyncgemm_status_t asyncgemm_destroy(asyncgemm_handle_t handle);
ASYNCGEMM_API asyncgemm_status_t asyncgemm_set_math_mode(asyncgemm_handle_t handle, asyncgemm_math_t mode);
/* *available = 1 if algo can run on the handle's device, else 0.  For ASYNCGEMM_ALGO_SM100_TCGEN05
   this is a use of the family: unless the environment variable ASYNCGEMM_SM100 is on or off, or a
   verdict is remembered on disk, it checks the family on the device first, in a helper process
   (asyncgemm-selfcheck, installed beside the library) that may take up to 60 seconds; 0 then leaves
   the reason in asyncgemm_last_error().  See README.md, "The Blackwell path". */
ASYNCGEMM_API asyncgemm_status_t asyncgemm_algo_available(asyncgemm_handle_t handle, asyncgemm_algo_t algo,
                                                          int *available);

/* D = alpha * op_a(A) * op_b(B) + beta * C.  D is m x n, op_a(A) is m x k, op_b(B) is k x n.
   order applies to all four matrices; lda.. are leading dimensions in elements in that order.
   c may be NULL when beta == 0; c may equal d (same type and ld).  stream is a CUstream (NULL: legacy
   stream).  A and B share a dtype (but for 8-bit ones: e4m3 by e5m2 too); C and D share a dtype;
   accumulation is fp32. */
ASYNCGEMM_API asyncgemm_status_t asyncgemm_gemm(
    asyncgemm_handle_t handle, asyncgemm_order_t order, asyncgemm_op_t op_a, asyncgemm_op_t op_b,
    int64_t m, int64_t n, int64_t k,
    float alpha, const void *a, asyncgemm_dtype_t type_a, int64_t lda,
                 const void *b, asyncgemm_dtype_t type_b, int64_t ldb,
    float beta,  const void *c, asyncgemm_dtype_t type_c, int64_t ldc,
                 void *d,       asyncgemm_dtype_t type_d, int64_t ldd,
    asyncgemm_algo_t algo, void *stream);

/* The same for batch_count independent problems; stride_x is the distance in elements between
   consecutive matrices of x (0 broadcasts one matrix to every batch, allowed for a, b and c).  c may
   equal d with the same type, ld and stride. */
ASYNCGEMM_API asyncgemm_status_t asyncgemm_gemm_strided_batched(
    asyncgemm_handle_t handle, asyncgemm_order_t order, asyncgemm_op_t op_a, asyncgemm_op_t op_b,
    int64_t m, int64_t n, int64_t k,
    float alpha, const void *a, asyncgemm_dtype_t type_a, int64_t lda, int64_t stride_a,
                 const void *b, asyncgemm_dtype_t type_b, int64_t ldb, int64_t stride_b,
    float beta,  const void *c, asyncgemm_dtype_t type_c, int64_t ldc, int64_t stride_c,
                 void *d,       asyncgemm_dtype_t type_d, int64_t ldd, int64_t stride_d,
    int64_t batch_count, asyncgemm_algo_t algo, void *stream);

/* ---- Version 0.2: one extensible call ----------------------------------------------------------- */

/* A bias added to every element of D before the activation. */
typedef enum {
    ASYNCGEMM_BIAS_NONE = 0,
    ASYNCGEMM_BIAS_PER_ROW = 1, /* m values: D[i][j] gets bias[i] (column-major Dense layers: y = W*x .+ b) */
    ASYNCGEMM_BIAS_PER_COL = 2  /* n values: D[i][j] gets bias[j] (row-major: y = x*W^T + b) */
} asyncgemm_bias_t;

/* The activation applied last, in fp32, before D is rounded to its type.  NaN stays NaN; +inf gives
   +inf and -inf gives 0 (ReLU +0, the others -0), the limits of each form.  On the GPU the
   exponentials and reciprocals are the hardware's approximations: an f32 D lies within 1e-5
   (relative) of the exact activation where the function is well-conditioned, as the GPU tests check
   (GELU's left tails magnify any rounding), far inside a 16-bit D's rounding; a result within about a factor of 2 of fp32's smallest normal may
   be 0. */
typedef enum {
    ASYNCGEMM_ACT_NONE = 0,
    ASYNCGEMM_ACT_RELU = 1,      /* max(x, 0) */
    ASYNCGEMM_ACT_GELU_TANH = 2, /* 0.5x(1 + tanh(sqrt(2/pi)(x + 0.044715x^3))) */
    ASYNCGEMM_ACT_GELU_ERF = 3,  /* 0.5x(1 + erf(x / sqrt(2))) */
    ASYNCGEMM_ACT_SILU = 4       /* x / (1 + exp(-x)) */
} asyncgemm_activation_t;

/* Dequantizing scales of 8-bit inputs (A: per row of op(A); B: per column of op(B)).  The block
   scales are fp32 arrays in device memory, 4-byte aligned.  Call an operand's rows (op(A)'s rows, or
   op(B)'s columns) x, its extent X (m for A, n for B), and its K blocks kb = k / 128 (the last one
   may be partial), KB = ceil(k / 128) of them.  They are stored K block by K block, each K block's
   scales in x order (the x dimension contiguous, as DeepGEMM and cuBLASLt store the activations'):
     BLOCK_1x128:   the scale of element (x, k) at scale[kb * X + x]                     (X * KB values)
     BLOCK_128x128: the scale of element (x, k) at scale[kb * ceil(X / 128) + x / 128]   (ceil(X / 128) * KB)
   The MX scales (MX_32, the OCP Microscaling formats' MXFP8) are bytes, each an unsigned power of
   two 2^(e - 127) (UE8M0; 0xFF is NaN), one per x and 32 elements of K (K block j = k / 32), set on
   A and B both (MX_32 on one operand alone is NOT_SUPPORTED), in cuBLASLt's VEC32_UE8M0 layout
   (PyTorch's "blocked" scales): tiles of 128 x by 4 K blocks, 512 bytes each, rows of tiles (128 x
   each) one after another, in a row the ceil(k / 128) tiles along K in order, and in a tile the
   scale of x and j at
     (x % 32) * 16 + ((x % 128) / 32) * 4 + j % 4
   i.e. ceil(X / 128) * ceil(k / 128) * 512 bytes a problem, 16-byte aligned.  X and k are padded to
   whole tiles: the padding's values scale no element of D, but the K blocks past k in the last tile
   must not be 0xFF (a NaN scale poisons the tensor core's block sums; zero bytes are safe).
   A batched operand (stride non-zero) has one such array per problem, each following the one
   before; a broadcast operand (stride 0) has one for all problems.  The scales are read while the
   product runs, so a kernel earlier in the stream may write them. */
typedef enum {
    ASYNCGEMM_SCALE_NONE = 0,
    ASYNCGEMM_SCALE_TENSOR = 1,        /* one fp32 for the whole matrix (device memory) */
    ASYNCGEMM_SCALE_BLOCK_1x128 = 2,   /* fp32 per row of op(A) (column of op(B)) and 128 elements of K */
    ASYNCGEMM_SCALE_BLOCK_128x128 = 3, /* fp32 per 128 x 128 block of op(A) or op(B) */
    ASYNCGEMM_SCALE_MX_32 = 4          /* UE8M0 per row of op(A) (column of op(B)) and 32 elements of K */
} asyncgemm_scale_t;

/* Everything one product takes.  Fields are only ever appended: a caller sets struct_size to the
   sizeof it was compiled with (asyncgemm_matmul_desc_init does), and a library that knows more fields
   reads the ones it was not given as zero.  Matrices, orders, ops, leading dimensions and strides mean
   what they mean for asyncgemm_gemm_strided_batched. */
typedef struct {
    size_t struct_size;            /* sizeof(asyncgemm_matmul_desc_t) as the caller compiled it */
    asyncgemm_order_t order;       /* of A, B, C and D */
    asyncgemm_op_t op_a, op_b;
    int64_t m, n, k, batch_count;  /* D is m x n, op_a(A) m x k, op_b(B) k x n; batch_count 1: one problem */
    float alpha, beta;
    const void *a; asyncgemm_dtype_t type_a; int64_t lda, stride_a;
    const void *b; asyncgemm_dtype_t type_b; int64_t ldb, stride_b;
    /* c may be NULL when beta == 0, or equal d (the same type, ld and stride) */
    const void *c; asyncgemm_dtype_t type_c; int64_t ldc, stride_c;
    void *d;       asyncgemm_dtype_t type_d; int64_t ldd, stride_d;
    /* bias: m (PER_ROW) or n (PER_COL) contiguous values of type_bias (D's type or f32), batches
       stride_bias elements apart (0: one bias for every batch); ignored with ASYNCGEMM_BIAS_NONE. */
    asyncgemm_bias_t bias_mode; const void *bias; asyncgemm_dtype_t type_bias; int64_t stride_bias;
    asyncgemm_activation_t activation;
    /* Scales of 8-bit A and B (ASYNCGEMM_SCALE_NONE for other types), each operand its own mode.  This
       version serves NONE (1), TENSOR (scale_a or scale_b points to one fp32 in device memory, 4-byte
       aligned, read when the product runs, so a kernel earlier in the stream may write it, and folded
       into alpha), the two BLOCK modes (fp32 arrays laid out as asyncgemm_scale_t says, applied to
       each 128-deep K block's products in fp32) and MX_32 (on A and B both, UE8M0 bytes laid out as
       asyncgemm_scale_t says).  Without a product (k = 0 or alpha = 0) no scale is read, checked or
       refused. */
    asyncgemm_scale_t scale_mode_a, scale_mode_b; const void *scale_a, *scale_b;
    asyncgemm_algo_t algo;
} asyncgemm_matmul_desc_t;

/* Zeroes *desc and sets struct_size, batch_count = 1, alpha = 1 and algo = ASYNCGEMM_ALGO_AUTO. */
ASYNCGEMM_API void asyncgemm_matmul_desc_init(asyncgemm_matmul_desc_t *desc);

/* D = act(alpha * (sa (x) op_a(A)) * (sb (x) op_b(B)) + beta * C + bias), computed in fp32 and rounded
   once to D's type; sa and sb are the dequantizing scales their modes describe (NONE: 1).  With
   ASYNCGEMM_BIAS_NONE and ASYNCGEMM_ACT_NONE this is asyncgemm_gemm_strided_batched, which, like
   asyncgemm_gemm, is a thin form of this call.  An unknown struct_size (smaller than version 0.2's, or a
   field this library does not know set to non-zero) is INVALID_VALUE; a field's bad value is
   INVALID_VALUE or MISALIGNED naming it ("desc->bias"); a combination no algorithm of this version
   serves is NOT_SUPPORTED naming it.  The bias and the activation are fused into the epilogue of every
   algorithm (SM100_TCGEN05's from 0.2.6 on, compiled and self-checked but never run by this project;
   0.2.5 and earlier refused them there).  8-bit inputs (ASYNCGEMM_R_8F_E4M3, _E5M2) take tensor scales
   or none, in any majors and alignments (their dtype's comment says which run on 8-bit tensor cores: on
   Hopper, K-major, i.e. row-major op_a N and op_b T or column-major op_a T and op_b N, with 16-byte
   rows).  Block scales: on Hopper, SM90_TMA_WGMMA (and AUTO) applies them where the operands are K-major
   with 16-byte rows (TMA describing C and D too, as for tensor scales) and the canonical B's scales are
   not per column (row-major D: scale_mode_b BLOCK_128x128 or not a block mode; column-major D:
   scale_mode_a so; a single column of D either way), i.e. the usual 1x128 activations with 128x128
   weights; it then accumulates each K block's products in fp32 with the scales applied (DeepGEMM's
   promotion); AUTO there also takes a lone MN-major operand (rows 4-byte aligned) on its K-major
   8-bit copy in the workspace (from 0.2.6).  Everything else block-scaled runs on SIMT, which scales
   the inputs as it loads them (exact fp32 sums, slow); AUTO takes it, and ASYNC_COPY, PIPELINED and
   SM100_TCGEN05 named are NOT_SUPPORTED.  MX scales: on Blackwell, SM100_TCGEN05 (and AUTO) multiplies with tcgen05's
   block-scaled MMAs (kind::mxf8f6f4, the scale tiles copied into tensor memory by tcgen05.cp) where the
   operands are K-major with 16-byte rows: compiled and checked by a self-check of its own at the first
   MX-scaled product (a failure sends them to SIMT), never run by this project.  Everything else
   MX-scaled runs on SIMT as block scales do (AUTO takes it on every GPU; its scaled inputs must lie in
   fp32's range), and ASYNC_COPY, PIPELINED and SM90_TMA_WGMMA named are NOT_SUPPORTED.  Inputs of the
   two 8-bit formats (e4m3 by e5m2) take block scales as inputs of one format do, and MX scales on SIMT
   alone (SM100_TCGEN05 named: NOT_SUPPORTED). */
ASYNCGEMM_API asyncgemm_status_t asyncgemm_matmul(asyncgemm_handle_t handle, const asyncgemm_matmul_desc_t *desc,
                                                  void *stream);

/* dst = alpha * op(src) through shared-memory tiles (AUTO copies 16-bit rows aligned to 2 bytes only
   straight through registers where op is OP_N and layout AUTO).  dst is rows x cols; src is rows x
   cols (OP_N) or cols x rows (OP_T).  vector_bytes: 0 = choose, else 4, 8 or 16.  A combination that cannot work
   (a padding that would misalign the vectors, say) is refused with INVALID_VALUE, never a fault. */
ASYNCGEMM_API asyncgemm_status_t asyncgemm_copy2d(
    asyncgemm_handle_t handle, asyncgemm_order_t order, asyncgemm_op_t op,
    int64_t rows, int64_t cols, float alpha,
    const void *src, int64_t ld_src, void *dst, int64_t ld_dst, asyncgemm_dtype_t dtype,
    asyncgemm_copy_algo_t algo, asyncgemm_smem_layout_t layout, int vector_bytes, void *stream);

/* Autotuning, off unless the environment variable ASYNCGEMM_AUTOTUNE is "1" when the handle is
   created.  While enable != 0, the first ASYNCGEMM_ALGO_PIPELINED or ASYNCGEMM_ALGO_SM90_TMA_WGMMA
   call (AUTO choosing one included) of a shape bucket (types, majors, and m, n, k and batch_count
   rounded up to powers of two) times the family's tile configurations on scratch buffers the library
   allocates, never on the caller's, and the winner serves every later call of the bucket (f32 inputs
   in TF32 mode and 8-bit inputs are not timed: they take the built-in choice).  Winners are kept in memory and in a file per GPU model and
   library version in $ASYNCGEMM_CACHE_DIR (default $XDG_CACHE_HOME/asyncgemm, else
   ~/.cache/asyncgemm), shared safely by concurrent processes; a corrupt or foreign file is ignored
   with a warning on stderr (silenced by ASYNCGEMM_QUIET=1).  A call on a stream being captured into a
   graph never tunes: it takes a remembered winner, else the built-in choice.  Tuning synchronizes the
   call's stream and takes milliseconds to seconds, once per bucket; any failure while tuning falls
   back to the built-in choice.  Any enable value is valid. */
ASYNCGEMM_API asyncgemm_status_t asyncgemm_set_autotune(asyncgemm_handle_t handle, int enable);

/* A workspace of this size holds the partial tiles of every split of K the library makes on GPUs of
   up to 240 SMs (a split's partials: at most one 128 x 256 fp32 tile per SM, 17 MB on 132 SMs). */
#define ASYNCGEMM_WORKSPACE_RECOMMENDED_BYTES ((size_t)32 << 20)
/* The least a workspace may be: its first 16 KiB count the tiles of a split, the rest holds partials. */
#define ASYNCGEMM_WORKSPACE_MIN_BYTES ((size_t)64 << 10)

/* Scratch the caller owns: device memory of the handle's GPU (cudaMalloc, cuMemAlloc or a
   stream-ordered pool's), 256-byte aligned (MISALIGNED otherwise), at least
   ASYNCGEMM_WORKSPACE_MIN_BYTES (INVALID_VALUE otherwise, as for memory of another GPU or of the host).
   Later calls of this handle keep split-K partials (and the copies some products make of their
   operands) there instead of in memory the handle allocates, inside stream capture as well, so that a
   call captured into a CUDA graph takes the same kernel and the same split as the same call run
   eagerly, with the same result bits.  A call whose scratch does not fit runs without it: unsplit, or
   on a family that needs no copies (8-bit inputs that a named ASYNC_COPY, PIPELINED or
   SM90_TMA_WGMMA multiplies on f16 copies: NOT_SUPPORTED).  The library never frees the workspace.  The caller
     - keeps it allocated while work that uses it may still run (replays of graphs captured with it
       included), and does not touch it meanwhile;
     - lends it to one handle at a time, and never lets calls that use it overlap on the GPU: calls
       on streams that may run at once go through handles of their own, each with its own workspace
       (or none);
     - lends memory no work is using: this function zeroes the workspace's first 16 KiB, on a stream
       of its own, and waits for that before it returns (memory from a stream-ordered pool,
       cudaMallocAsync's, is lent once its stream has been synchronized).
   workspace NULL with bytes 0 returns the handle to its own scratch, which calls being captured do
   not use (they run unsplit).  Any earlier workspace is simply no longer used. */
ASYNCGEMM_API asyncgemm_status_t asyncgemm_set_workspace(asyncgemm_handle_t handle, void *workspace, size_t bytes);

#ifdef __cplusplus
}
#endif

#endif /* ASYNCGEMM_H */

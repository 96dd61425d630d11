/*
 * The C API smoke test: a C99 program that includes asyncgemm.h and calls every function of it, with
 * arguments that must be refused (NULL handle, NULL pointers, negative sizes, unknown enum values)
 * and, if a handle can be created, with that handle (still only refusable arguments: this program
 * allocates no device memory).  It prints what each call returned and fails (exit 1) only on an
 * impossible answer: a status outside the enum, success where the arguments forbid it, a failure
 * without a one-line message, an output written by a failed call, a wrong status name or version.
 *
 *   capi_smoke                     any driver situation: every call returns a known status
 *   capi_smoke --expect-no-driver  run with ASYNCGEMM_LIBCUDA=/nonexistent/libcuda.so.1 (or the
 *                                  toolkit's stub libcuda): creation must return NO_DRIVER and every
 *                                  call with a NULL handle INVALID_VALUE
 */
#include <stdio.h>
#include <string.h>

#include "asyncgemm.h"

static int failures = 0;
static int expect_no_driver = 0;

enum expectation {
    ANY_KNOWN, /* any status of the enum */
    REFUSED,   /* any status of the enum but SUCCESS */
    EXACTLY    /* the given status */
};

static int known_status(asyncgemm_status_t status) {
    switch (status) {
    case ASYNCGEMM_STATUS_SUCCESS:
    case ASYNCGEMM_STATUS_INVALID_VALUE:
    case ASYNCGEMM_STATUS_MISALIGNED:
    case ASYNCGEMM_STATUS_NOT_SUPPORTED:
    case ASYNCGEMM_STATUS_NO_DRIVER:
    case ASYNCGEMM_STATUS_DRIVER_TOO_OLD:
    case ASYNCGEMM_STATUS_NO_DEVICE:
    case ASYNCGEMM_STATUS_CUDA_ERROR:
    case ASYNCGEMM_STATUS_OUT_OF_MEMORY:
    case ASYNCGEMM_STATUS_INTERNAL_ERROR: return 1;
    default: return 0;
    }
}

static void fail(const char *what) {
    printf("    FAILED: %s\n", what);
    ++failures;
}

/* Prints the call's outcome and checks it against the expectation; a failed call must leave a
   non-empty one-line message. */
static void check(const char *call, asyncgemm_status_t status, enum expectation expectation,
                  asyncgemm_status_t wanted) {
    const char *message = asyncgemm_last_error();
    if (!known_status(status)) {
        printf("%-58s -> %d (not a status)\n", call, (int)status);
        fail("the status is not one of asyncgemm_status_t");
        return;
    }
    printf("%-58s -> %s%s%s\n", call, asyncgemm_status_string(status), status ? ": " : "",
           status && message ? message : "");
    if (expectation == REFUSED && status == ASYNCGEMM_STATUS_SUCCESS) fail("succeeded with arguments it must refuse");
    if (expectation == EXACTLY && status != wanted) {
        printf("    wanted %s\n", asyncgemm_status_string(wanted));
        fail("unexpected status");
    }
    if (status != ASYNCGEMM_STATUS_SUCCESS) {
        if (message == NULL || message[0] == '\0')
            fail("asyncgemm_last_error() is empty after a failure");
        else if (strchr(message, '\n') != NULL)
            fail("asyncgemm_last_error() is not one line");
    }
}

/* A call with a NULL handle: INVALID_VALUE when told there is no driver (the handle is checked
   whatever the driver), otherwise any refusal. */
static void check_null_handle(const char *call, asyncgemm_status_t status) {
    check(call, status, expect_no_driver ? EXACTLY : REFUSED, ASYNCGEMM_STATUS_INVALID_VALUE);
}

static void check_informational(void) {
    static const char *const names[] = {
        "ASYNCGEMM_STATUS_SUCCESS",        "ASYNCGEMM_STATUS_INVALID_VALUE", "ASYNCGEMM_STATUS_MISALIGNED",
        "ASYNCGEMM_STATUS_NOT_SUPPORTED",  "ASYNCGEMM_STATUS_NO_DRIVER",     "ASYNCGEMM_STATUS_DRIVER_TOO_OLD",
        "ASYNCGEMM_STATUS_NO_DEVICE",      "ASYNCGEMM_STATUS_CUDA_ERROR",    "ASYNCGEMM_STATUS_OUT_OF_MEMORY",
        "ASYNCGEMM_STATUS_INTERNAL_ERROR"};
    static const int unknown[] = {10, 1000, -1};
    const char *first_error = asyncgemm_last_error();
    int major = -1, minor = -1, patch = -1;
    int i;

    printf("asyncgemm_last_error() before any failure -> \"%s\"\n", first_error ? first_error : "(NULL)");
    if (first_error == NULL || first_error[0] != '\0') fail("asyncgemm_last_error() must be \"\" before any failure");

    asyncgemm_get_version(&major, &minor, &patch);
    asyncgemm_get_version(NULL, NULL, NULL);
    printf("asyncgemm_get_version -> %d.%d.%d (header %d.%d.%d)\n", major, minor, patch, ASYNCGEMM_VERSION_MAJOR,
           ASYNCGEMM_VERSION_MINOR, ASYNCGEMM_VERSION_PATCH);
    if (major != ASYNCGEMM_VERSION_MAJOR || minor != ASYNCGEMM_VERSION_MINOR || patch != ASYNCGEMM_VERSION_PATCH)
        fail("the library's version is not the header's");

    for (i = 0; i < (int)(sizeof names / sizeof names[0]); ++i) {
        const char *name = asyncgemm_status_string((asyncgemm_status_t)i);
        printf("asyncgemm_status_string(%d) -> %s\n", i, name ? name : "(NULL)");
        if (name == NULL || strcmp(name, names[i]) != 0) fail("wrong status name");
    }
    for (i = 0; i < (int)(sizeof unknown / sizeof unknown[0]); ++i) {
        const char *name = asyncgemm_status_string((asyncgemm_status_t)unknown[i]);
        printf("asyncgemm_status_string(%d) -> %s\n", unknown[i], name ? name : "(NULL)");
        if (name == NULL || strcmp(name, "unknown status") != 0) fail("an unknown status must be \"unknown status\"");
    }
}

/* Every handle-taking call, with `handle` (NULL or real) and arguments refused in any case. */
static void check_refused_calls(asyncgemm_handle_t handle, void (*expect)(const char *, asyncgemm_status_t)) {
    int available = -7;
    asyncgemm_matmul_desc_t desc;
    asyncgemm_matmul_desc_init(&desc);
    if (desc.struct_size != sizeof desc || desc.batch_count != 1 || desc.alpha != 1.0f ||
        desc.algo != ASYNCGEMM_ALGO_AUTO || desc.bias != NULL || desc.activation != ASYNCGEMM_ACT_NONE)
        fail("asyncgemm_matmul_desc_init: not the documented defaults");
    desc.m = desc.n = desc.k = 8;
    desc.type_a = desc.type_b = desc.type_c = desc.type_d = ASYNCGEMM_R_16BF;
    desc.lda = desc.ldb = desc.ldc = desc.ldd = 8;
    expect("asyncgemm_matmul(NULL pointers, m = n = k = 8)", asyncgemm_matmul(handle, &desc, NULL));
    expect("asyncgemm_matmul(desc = NULL)", asyncgemm_matmul(handle, NULL, NULL));
    desc.struct_size = 8;
    expect("asyncgemm_matmul(struct_size = 8)", asyncgemm_matmul(handle, &desc, NULL));
    expect("asyncgemm_set_math_mode(mode = 7)", asyncgemm_set_math_mode(handle, (asyncgemm_math_t)7));
    expect("asyncgemm_algo_available(algo = 99)",
           asyncgemm_algo_available(handle, (asyncgemm_algo_t)99, &available));
    expect("asyncgemm_algo_available(available = NULL)",
           asyncgemm_algo_available(handle, ASYNCGEMM_ALGO_SIMT, NULL));
    if (available != -7) fail("a failed asyncgemm_algo_available wrote *available");
    expect("asyncgemm_gemm(NULL pointers, m = n = k = 8)",
           asyncgemm_gemm(handle, ASYNCGEMM_ORDER_ROW, ASYNCGEMM_OP_N, ASYNCGEMM_OP_N, 8, 8, 8, 1.0f, NULL,
                          ASYNCGEMM_R_32F, 8, NULL, ASYNCGEMM_R_32F, 8, 0.0f, NULL, ASYNCGEMM_R_32F, 8, NULL,
                          ASYNCGEMM_R_32F, 8, ASYNCGEMM_ALGO_AUTO, NULL));
    expect("asyncgemm_gemm(m = -1)",
           asyncgemm_gemm(handle, ASYNCGEMM_ORDER_COL, ASYNCGEMM_OP_T, ASYNCGEMM_OP_N, -1, 8, 8, 1.0f, NULL,
                          ASYNCGEMM_R_16F, 8, NULL, ASYNCGEMM_R_16F, 8, 0.0f, NULL, ASYNCGEMM_R_32F, 8, NULL,
                          ASYNCGEMM_R_32F, 8, ASYNCGEMM_ALGO_AUTO, NULL));
    expect("asyncgemm_gemm(order = 7)",
           asyncgemm_gemm(handle, (asyncgemm_order_t)7, ASYNCGEMM_OP_N, ASYNCGEMM_OP_N, 8, 8, 8, 1.0f, NULL,
                          ASYNCGEMM_R_32F, 8, NULL, ASYNCGEMM_R_32F, 8, 0.0f, NULL, ASYNCGEMM_R_32F, 8, NULL,
                          ASYNCGEMM_R_32F, 8, ASYNCGEMM_ALGO_SIMT, NULL));
    expect("asyncgemm_gemm_strided_batched(NULL pointers)",
           asyncgemm_gemm_strided_batched(handle, ASYNCGEMM_ORDER_ROW, ASYNCGEMM_OP_N, ASYNCGEMM_OP_T, 8, 8, 8, 1.0f,
                                          NULL, ASYNCGEMM_R_16BF, 8, 64, NULL, ASYNCGEMM_R_16BF, 8, 64, 1.0f, NULL,
                                          ASYNCGEMM_R_16BF, 8, 64, NULL, ASYNCGEMM_R_16BF, 8, 64, 2,
                                          ASYNCGEMM_ALGO_AUTO, NULL));
    expect("asyncgemm_gemm_strided_batched(batch_count = -1)",
           asyncgemm_gemm_strided_batched(handle, ASYNCGEMM_ORDER_ROW, ASYNCGEMM_OP_N, ASYNCGEMM_OP_N, 8, 8, 8, 1.0f,
                                          NULL, ASYNCGEMM_R_32F, 8, 64, NULL, ASYNCGEMM_R_32F, 8, 64, 0.0f, NULL,
                                          ASYNCGEMM_R_32F, 8, 64, NULL, ASYNCGEMM_R_32F, 8, 64, -1,
                                          ASYNCGEMM_ALGO_AUTO, NULL));
    expect("asyncgemm_copy2d(NULL pointers, 8 x 8)",
           asyncgemm_copy2d(handle, ASYNCGEMM_ORDER_ROW, ASYNCGEMM_OP_T, 8, 8, 1.0f, NULL, 8, NULL, 8,
                            ASYNCGEMM_R_16F, ASYNCGEMM_COPY_AUTO, ASYNCGEMM_SMEM_AUTO, 0, NULL));
    expect("asyncgemm_copy2d(rows = -1)",
           asyncgemm_copy2d(handle, ASYNCGEMM_ORDER_COL, ASYNCGEMM_OP_N, -1, 8, 1.0f, NULL, 8, NULL, 8,
                            ASYNCGEMM_R_32F, ASYNCGEMM_COPY_SYNC, ASYNCGEMM_SMEM_PADDED, 16, NULL));
    expect("asyncgemm_copy2d(vector_bytes = 3)",
           asyncgemm_copy2d(handle, ASYNCGEMM_ORDER_ROW, ASYNCGEMM_OP_N, 8, 8, 0.5f, NULL, 8, NULL, 8,
                            ASYNCGEMM_R_16BF, ASYNCGEMM_COPY_PIPELINED, ASYNCGEMM_SMEM_SWIZZLED, 3, NULL));
}

static void expect_refused(const char *call, asyncgemm_status_t status) { check(call, status, REFUSED, 0); }

/* The calls a real handle must answer with success. */
static void check_handle(asyncgemm_handle_t handle) {
    int algo;
    check("asyncgemm_set_math_mode(TF32)", asyncgemm_set_math_mode(handle, ASYNCGEMM_MATH_TF32), EXACTLY,
          ASYNCGEMM_STATUS_SUCCESS);
    check("asyncgemm_set_math_mode(DEFAULT)", asyncgemm_set_math_mode(handle, ASYNCGEMM_MATH_DEFAULT), EXACTLY,
          ASYNCGEMM_STATUS_SUCCESS);
    check("asyncgemm_set_autotune(1)", asyncgemm_set_autotune(handle, 1), EXACTLY, ASYNCGEMM_STATUS_SUCCESS);
    check("asyncgemm_set_autotune(0)", asyncgemm_set_autotune(handle, 0), EXACTLY, ASYNCGEMM_STATUS_SUCCESS);
    for (algo = ASYNCGEMM_ALGO_AUTO; algo <= ASYNCGEMM_ALGO_SM100_TCGEN05; ++algo) {
        char call[64];
        int available = -7;
        sprintf(call, "asyncgemm_algo_available(algo = %d)", algo);
        check(call, asyncgemm_algo_available(handle, (asyncgemm_algo_t)algo, &available), EXACTLY,
              ASYNCGEMM_STATUS_SUCCESS);
        printf("    available = %d\n", available);
        if (available != 0 && available != 1) fail("*available is neither 0 nor 1");
    }
    check_refused_calls(handle, expect_refused);
}

/* A creation's outcome: NO_DRIVER when told so; on failure the handle is not written, on success it
   answers the handle-taking calls and is destroyed. */
static void check_creation(const char *call, asyncgemm_status_t status, asyncgemm_handle_t handle,
                           asyncgemm_handle_t untouched) {
    check(call, status, expect_no_driver ? EXACTLY : ANY_KNOWN, ASYNCGEMM_STATUS_NO_DRIVER);
    if (status != ASYNCGEMM_STATUS_SUCCESS && handle != untouched) fail("a failed creation wrote the handle");
    if (status == ASYNCGEMM_STATUS_SUCCESS) {
        if (handle == NULL || handle == untouched) {
            fail("a successful creation returned no handle");
            return;
        }
        check_handle(handle);
        check("asyncgemm_destroy(handle)", asyncgemm_destroy(handle), EXACTLY, ASYNCGEMM_STATUS_SUCCESS);
    }
}

int main(int argc, char **argv) {
    /* An address no handle can have, to see whether a failed creation wrote its output. */
    static char sentinel_storage;
    asyncgemm_handle_t const sentinel = (asyncgemm_handle_t)(void *)&sentinel_storage;
    asyncgemm_handle_t handle = sentinel;
    asyncgemm_status_t status;

    expect_no_driver = argc > 1 && strcmp(argv[1], "--expect-no-driver") == 0;
    printf("asyncgemm C API smoke test%s\n", expect_no_driver ? " (expecting no driver)" : "");

    check_informational();

    check("asyncgemm_create(NULL)", asyncgemm_create(NULL), REFUSED, 0);
    check("asyncgemm_create_for_device(NULL, 0)", asyncgemm_create_for_device(NULL, 0), REFUSED, 0);
    check("asyncgemm_create_for_device(&handle, -1)", asyncgemm_create_for_device(&handle, -1), REFUSED, 0);
    check("asyncgemm_create_for_device(&handle, 1 << 20)", asyncgemm_create_for_device(&handle, 1 << 20), REFUSED, 0);
    if (handle != sentinel) fail("a failed creation wrote the handle");
    check("asyncgemm_destroy(NULL)", asyncgemm_destroy(NULL), EXACTLY, ASYNCGEMM_STATUS_SUCCESS);

    check_null_handle("asyncgemm_set_math_mode(NULL, TF32)", asyncgemm_set_math_mode(NULL, ASYNCGEMM_MATH_TF32));
    check_null_handle("asyncgemm_set_autotune(NULL, 1)", asyncgemm_set_autotune(NULL, 1));
    check_refused_calls(NULL, check_null_handle);

    handle = sentinel;
    status = asyncgemm_create(&handle);
    check_creation("asyncgemm_create(&handle)", status, handle, sentinel);
    handle = sentinel;
    status = asyncgemm_create_for_device(&handle, 0);
    check_creation("asyncgemm_create_for_device(&handle, 0)", status, handle, sentinel);

    printf("%s: %d unexpected results\n", failures ? "FAILED" : "passed", failures);
    return failures ? 1 : 0;
}

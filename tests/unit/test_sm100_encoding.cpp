// The Blackwell family's encodings and plan, none of which this project can run: the tcgen05.mma
// instruction descriptor, the tcgen05 shared-memory descriptor, tensor-memory addresses, the
// tcgen05.cp shape that loads C into the accumulator, the resource plan, and what the planner hands
// the kernel.  Every expected value is worked out by hand from the PTX ISA (ISA 8.6+, sections
// "Instruction descriptor format for .kind::f16, .kind::tf32, ...", "Shared memory descriptor",
// "Tensor Memory addressing" and "tcgen05.cp") and written out as a literal.
#include <doctest/doctest.h>

#include "kernels/sm100/sm100_traits.h"
#include "plan/sm100_kernels.h"
#include "plan/sm100_plan.h"
#include "canonical_problem.h"

using namespace asyncgemm;
using namespace asyncgemm::sm100;
using asyncgemm::test::canonical_problem;

namespace {

// The shared-memory descriptor's fields, read back (tcgen05 layout).
struct Fields {
    uint32_t start, leading, stride, version, base_offset, leading_mode, swizzle;
};
Fields fields(uint64_t d) {
    return {static_cast<uint32_t>(d & 0x3FFF) << 4,         static_cast<uint32_t>((d >> 16) & 0x3FFF) << 4,
            static_cast<uint32_t>((d >> 32) & 0x3FFF) << 4, static_cast<uint32_t>((d >> 46) & 0x7),
            static_cast<uint32_t>((d >> 49) & 0x7),          static_cast<uint32_t>((d >> 52) & 0x1),
            static_cast<uint32_t>(d >> 61)};
}

}  // namespace

TEST_CASE("instruction descriptor: D f32 at bits 4-5, formats at 7 and 10, majors at 15-16, N >> 3 at 17, M >> 4 at 24") {
    // f16 x f16 -> f32, both K-major, M 128, N 128: 1 << 4 | (128 >> 3 = 16) << 17 | (128 >> 4 = 8) << 24.
    CHECK(instruction_descriptor(kF16, true, true, 128, 128) == 0x08200010u);
    // bf16: format 1 for A (bit 7) and B (bit 10).
    CHECK(instruction_descriptor(kBF16, true, true, 128, 128) == 0x08200490u);
    // tf32: format 2 for A (bit 8) and B (bit 11).
    CHECK(instruction_descriptor(kF32, true, true, 128, 128) == 0x08200910u);
    // MN-major ("transpose") A is bit 15, MN-major B bit 16.
    CHECK(instruction_descriptor(kF16, false, true, 128, 128) == 0x08208010u);
    CHECK(instruction_descriptor(kF16, true, false, 128, 128) == 0x08210010u);
    // Other shapes land in the same fields: M 64 -> 4 << 24, N 256 -> 32 << 17.
    CHECK(instruction_descriptor(kF16, true, true, 64, 256) == 0x04400010u);
    // Bits 0-3 (sparsity, saturation), 6, 13-14 (negation), 23, 29-31 stay clear.
    CHECK((instruction_descriptor(kBF16, false, false, 128, 256) & 0xE080604Fu) == 0u);
}

TEST_CASE("tcgen05 shared-memory descriptor: version 1 at bits 46-48, 128B swizzle = 2 at bits 61-63") {
    const uint64_t d = smem_descriptor(MmaUnit::Tcgen05, 0x1C400, 8192, 1024);
    CHECK(d == (0x1C40ull | (512ull << 16) | (64ull << 32) | (1ull << 46) | (2ull << 61)));
    const Fields f = fields(d);
    CHECK(f.start == 0x1C400);
    CHECK(f.leading == 8192);
    CHECK(f.stride == 1024);
    CHECK(f.version == 1);
    CHECK(f.base_offset == 0);   // atoms 1024-byte aligned
    CHECK(f.leading_mode == 0);  // relative offsets
    CHECK(f.swizzle == 2);
    // The same start and offsets as the wgmma encoding: only the fixed bits differ.
    CHECK((d ^ smem_descriptor(MmaUnit::Wgmma, 0x1C400, 8192, 1024)) == (1ull << 46));
}

TEST_CASE("tcgen05 operand descriptors of a stage: K-major 32 bytes per step, MN-major by element size") {
    // K-major (either type): a step is 32 bytes of K inside the 128-byte row; 8-row groups 1024 apart.
    Fields f = fields(k_major_descriptor(MmaUnit::Tcgen05, 0x8000, 0, 3));
    CHECK(f.start == 0x8000 + 3 * 32);
    CHECK(f.stride == 1024);
    // MN-major 16-bit: blocks of 64 elements x 64 K rows (8192 bytes) apart; a k16 step moves 16 rows.
    f = fields(mn_major_descriptor(MmaUnit::Tcgen05, 0x8000, 0, 1, 2));
    CHECK(f.start == 0x8000 + 2048);
    CHECK(f.leading == 8192);
    CHECK(f.stride == 1024);
    // MN-major tf32: blocks of 32 elements x 32 K rows (4096 bytes); a k8 step moves 8 rows.
    f = fields(mn_major_descriptor(MmaUnit::Tcgen05, 0x8000, 0, 3, 4));
    CHECK(f.start == 0x8000 + 3 * 1024);
    CHECK(f.leading == 4096);
    CHECK(block_k(kF16) == 64);
    CHECK(block_k(kF32) == 32);
    CHECK(kMmaSteps == 4);
}

TEST_CASE("tensor-memory addresses: lane in bits 16-31, column in bits 0-15") {
    CHECK(tmem_address(0, 0, 0) == 0u);
    CHECK(tmem_address(0, 32, 160) == 0x002000A0u);
    CHECK(tmem_address(0x00000100, 96, 32) == 0x00600120u);  // an allocation starting at column 256
    // Two accumulators of 128 fp32 columns: 256, a power of two tcgen05.alloc accepts.
    CHECK(kTmemColumns == 256);
}

TEST_CASE("C enters the accumulator by tcgen05.cp 128x256b: 16 copies of 8 columns cover the 128 x 128 tile") {
    CHECK(kSeedCopy.rows == 128);          // every lane: M = 128 puts row i in lane i
    CHECK(kSeedCopy.bits == 256);          // 256 bits of a row = 8 fp32 columns
    CHECK(kSeedCopy.columns == 8);
    CHECK(kSeedBoxColumns == 32);          // a TMA box: one 128-byte swizzled row of fp32
    CHECK(kSeedCopy.copies_per_box == 4);  // 4 x 32 bytes per 128-byte row
    CHECK(kSeedCopy.boxes == 4);
    CHECK(kSeedCopy.boxes * kSeedCopy.copies_per_box * kSeedCopy.columns == kTileN);
    // Copy 3 of a box reads bytes 96..127 of each row: the K-major descriptor's step 3.
    CHECK(fields(k_major_descriptor(MmaUnit::Tcgen05, 0x20000, 0, 3)).start == 0x20000 + 96);
    CHECK(kSeedBytes == 4u * 128u * 128u);
}

TEST_CASE("shared memory fits sm_100's 227 KB per block; seven warps with the epilogue on all four lane quarters") {
    CHECK(kStageBytes == 2u * 128u * 128u);
    CHECK(kSmemBytes == 4u * 32768u + 65536u + 4u * 1024u + 1024u);  // stages, C, MX scales, alignment
    CHECK(kSmemBytes + 256 <= 232448u);  // plus the static barriers
    CHECK(kThreads == 224);
    bool quarters[4] = {};
    for (int w = kFirstEpilogueWarp; w < kFirstEpilogueWarp + kEpilogueWarps; ++w) quarters[w % 4] = true;
    CHECK((quarters[0] && quarters[1] && quarters[2] && quarters[3]));
}

TEST_CASE("types: f16 and bf16 in any majors, f32 only as tf32, e4m3 and e5m2") {
    CHECK(supports_types(kF16, kF32, false));
    CHECK(supports_types(kBF16, kBF16, false));
    CHECK_FALSE(supports_types(kF32, kF32, false));
    CHECK(supports_types(kF32, kF16, true));
    CHECK(supports_types(kE4M3, kBF16, false));
    CHECK(supports_types(kE5M2, kF32, false));
    CHECK(kernel_index(kF16) == 0);
    CHECK(kernel_index(kF32) == 2);
    CHECK(kernel_index(kE4M3) == 3);
    CHECK(kernel_index(kE5M2) == 4);
}

TEST_CASE("instruction descriptor of kind::f8f6f4: A and B formats E4M3 = 0, E5M2 = 1 at bits 7 and 10") {
    // PTX ISA's table of the f8f6f4 formats: E4M3 0, E5M2 1, E2M3 3, E3M2 4, E2M1 5.
    CHECK(instruction_descriptor(kE4M3, true, true, 128, 128) == 0x08200010u);
    CHECK(instruction_descriptor(kE5M2, true, true, 128, 128) == 0x08200490u);
    CHECK((instruction_descriptor(kE5M2, true, true, 128, 128) >> 7 & 7u) == 1u);
    CHECK((instruction_descriptor(kE5M2, true, true, 128, 128) >> 10 & 7u) == 1u);
    // 32 bytes of K per MMA: k32 of 8-bit elements; a stage's 128-byte row is 128 of them.
    CHECK(kMmaKBytes / input_element_bytes(kE4M3) == 32);
    CHECK(block_k(kE4M3) == 128);
}

TEST_CASE("planner: C is seeded when it is f32, TMA can describe it, and there is a product") {
    GemmParams p = canonical_problem(300, 200, 128, kF16, kF32, true, false);
    p.beta = 0.5f;
    p.alpha = 2.f;
    Sm100Params s = plan::sm100_params(p);
    CHECK(s.seed_c == 1);
    CHECK(s.seed_scale == 0.25f);  // alpha * (A·B + C * beta / alpha)
    CHECK(s.instruction == 0x08210010u);
    CHECK(s.k_blocks == 2);  // 128 / 64
    CHECK(s.tiles_m == 3);
    CHECK(s.tiles_n == 2);
    CHECK(s.d_vectors == 1);

    GemmParams half = p;
    half.type_cd = kF16;  // tcgen05.cp copies 32-bit elements: the epilogue adds f16 C
    CHECK(plan::sm100_params(half).seed_c == 0);
    GemmParams no_product = p;
    no_product.alpha = 0.f;
    CHECK(plan::sm100_params(no_product).seed_c == 0);
    CHECK(plan::sm100_params(no_product).k_blocks == 0);
    GemmParams odd_ldc = p;
    odd_ldc.ldc = 201;  // not 16-byte rows: C goes through the epilogue, not MISALIGNED
    CHECK(plan::sm100_params(odd_ldc).seed_c == 0);
    CHECK(plan::sm100_params(odd_ldc).c_vectors == 0);
    CHECK(plan::sm100_tma_obstacle(odd_ldc).empty());
    GemmParams odd_ldd = p;
    odd_ldd.ldd = 203;
    CHECK(plan::sm100_params(odd_ldd).d_vectors == 0);
    CHECK(plan::sm100_tma_obstacle(odd_ldd).empty());  // D is stored by the threads

    GemmParams tf32 = canonical_problem(128, 128, 100, kF32, kF32, false, false);
    CHECK(plan::sm100_params(tf32).k_blocks == 4);  // ceil(100 / 32)
    CHECK(plan::sm100_params(tf32).instruction == 0x08218910u);
}

TEST_CASE("planner: tensor maps of one stage of A and B, and of C in 32 x 128 boxes") {
    GemmParams p = canonical_problem(300, 200, 128, kF16, kF32, true, false);
    const plan::TensorMap3d a = plan::sm100_a_map(p);
    CHECK(a.dims[0] == 128);  // K-major A: {k, m}
    CHECK(a.dims[1] == 300);
    CHECK(a.box[0] == 64);
    CHECK(a.box[1] == 128);
    const plan::TensorMap3d b = plan::sm100_b_map(p);
    CHECK(b.dims[0] == 200);  // MN-major B: {n, k} in boxes of 64 x 64
    CHECK(b.box[0] == 64);
    CHECK(b.box[1] == 64);
    const plan::TensorMap3d c = plan::sm100_c_map(p);
    CHECK(c.dims[0] == 200);
    CHECK(c.box[0] == 32);
    CHECK(c.box[1] == 128);
    CHECK(c.strides[0] == 200 * 4);
    GemmParams tf32 = canonical_problem(128, 128, 100, kF32, kF32, false, true);
    CHECK(plan::sm100_a_map(tf32).box[0] == 32);  // MN-major tf32: 32 x 32 boxes
    CHECK(plan::sm100_a_map(tf32).box[1] == 32);
    GemmParams misaligned = p;
    misaligned.lda = 101;
    CHECK(plan::sm100_tma_obstacle(misaligned).find("leading dimension of A") != std::string::npos);
}

TEST_CASE("instruction descriptor of kind::mxf8f6f4: scale IDs at 4-5 and 29-30, UE8M0 at 23, M >> 7 at 27") {
    // e4m3 x e4m3, K-major, M 128, N 128: (128 >> 3 = 16) << 17 | 1 << 23 | (128 >> 7 = 1) << 27.
    CHECK(mx_instruction_descriptor(kE4M3, 128, 128) == 0x08A00000u);
    CHECK(mx_instruction_descriptor(kE5M2, 128, 128) == 0x08A00480u);  // format 1 at bits 7 and 10
    // K step s of a stage reads byte s of every scale column: both IDs s.
    CHECK(with_scale_ids(0x08A00000u, 0) == 0x08A00000u);
    CHECK(with_scale_ids(0x08A00000u, 1) == 0x28A00010u);
    CHECK(with_scale_ids(0x08A00000u, 3) == 0x68A00030u);
    static_assert(kMmaSteps == kMxTileBlocks, "a stage's 4 MMAs are its 4 K blocks of scales");
}

TEST_CASE("MX scales in tensor memory: 512 columns with them, each stage's A and B 32 columns apart") {
    CHECK(tmem_columns(false) == 256);
    CHECK(tmem_columns(true) == 512);
    CHECK(mx_scale_column(0, 0) == 256);
    CHECK(mx_scale_column(0, 1) == 288);
    CHECK(mx_scale_column(3, 1) == 480);
    CHECK(tmem_address(0, 0, mx_scale_column(2, 0)) == 384u);
}

TEST_CASE("tcgen05.cp of an MX scale tile: unswizzled, 8-row groups 128 bytes apart, version 1") {
    const uint64_t d = mx_scale_copy_descriptor(0x1000);
    CHECK(d == 0x0000400800080100ull);
    const Fields f = fields(d);
    CHECK(f.start == 0x1000u);
    CHECK(f.leading == 128u);
    CHECK(f.stride == 128u);
    CHECK(f.version == 1u);
    CHECK(f.swizzle == 0u);
    CHECK(kMxStageBytes == 1024u);
}

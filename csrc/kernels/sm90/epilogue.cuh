// A consumer warpgroup's epilogue: D = alpha * acc + beta * C for its 64-row tile (or, where the
// launch fuses them, act(alpha * acc + beta * C + bias): last paragraph), through shared memory in
// chunks of 64 rows x 128 bytes with the 128-byte swizzle, each chunk stored by TMA
// (cp.async.bulk.tensor, clipped at the problem's edges: rows exactly, columns to 16-byte units, so
// a ragged right edge is stored by the threads instead) while the next one is written.  C, when
// beta != 0, is loaded by TMA into the same chunk buffer first, and each thread reads its elements
// from where it will write them.  16-bit D goes to shared memory by stmatrix, fp32 by 8-byte stores
// (two wavefronts per warp either way: the swizzle spreads the eight rows over all banks).  A 16-bit
// tile of more chunks than buffers may hold its last chunks in registers for the next tile's mainloop
// to store (HeldChunks).
//
// A fused bias and activation without C are applied to the accumulators in place, and the tile is
// then stored as a plain one (fuse_into_accumulators): one unrolled pass per activation, in
// consumers of their own (GELU (erf) through calls of eight elements, gelu_erf_eight; a bias per
// column staged in the consumer's first chunk buffer before the tile's chunks: ColumnBias).  With C
// (added before the activation), and for GELU (erf) beside block scales, the tile's alpha * acc is
// staged as fp32, 32 columns at a time, and one out-of-line pass for every D type adds
// beta * C and the bias, applies the activation and stores D rounded once, by the threads
// (store_tile_fused): inlined at each of a thread's 128 elements in every store variant, the
// activations had made one translation unit 13 times larger and spilled.
#pragma once

#include <cuda/ptx>
#include <stdint.h>

#include "kernels/common/convert.cuh"
#include "kernels/common/element_type.cuh"
#include "kernels/common/epilogue_math.h"
#include "kernels/common/fused_epilogue.cuh"
#include "kernels/common/mbarrier.cuh"
#include "kernels/common/tma_load.cuh"
#include "kernels/common/wgmma.cuh"
#include "kernels/sm90/shared_storage.cuh"
#include "kernels/sm90/sm90_params.h"

namespace asyncgemm::sm90 {

namespace ptx = cuda::ptx;

// Byte offset of byte `column_byte` of row `row` in a chunk buffer: 16-byte unit u of row r sits at
// unit u ^ (r % 8), as TMA's 128-byte swizzle places it.
__device__ __forceinline__ uint32_t swizzled_offset(int row, int column_byte) {
    return static_cast<uint32_t>(row) * kRowBytes +
           ((static_cast<uint32_t>(column_byte / 16) ^ static_cast<uint32_t>(row % 8)) * 16) + column_byte % 16;
}

__device__ __forceinline__ uint32_t pack(__half lo, __half hi) {
    return static_cast<uint32_t>(__half_as_ushort(lo)) | (static_cast<uint32_t>(__half_as_ushort(hi)) << 16);
}
__device__ __forceinline__ uint32_t pack(__nv_bfloat16 lo, __nv_bfloat16 hi) {
    return static_cast<uint32_t>(__bfloat16_as_ushort(lo)) | (static_cast<uint32_t>(__bfloat16_as_ushort(hi)) << 16);
}

// A chunk at the right edge of a D whose rows do not end on a 16-byte boundary: a TMA store writes
// whole 16-byte units, so it would overwrite the elements past the row's end (the padding of the
// leading dimension, or the next row).  The warpgroup copies such a chunk out itself, 16 bytes a
// thread where the unit lies inside the row, element by element at the edge.  (ld and the base are
// 16-byte aligned, or TMA would not have been chosen: sm90_tma_obstacle.)
template <typename TOut>
__device__ __forceinline__ void store_edge_chunk(const Sm90Params &p, const char *buffer, int thread, int32_t row0,
                                                 int32_t col0, int64_t batch) {
    constexpr int kPerUnit = 16 / static_cast<int>(sizeof(TOut));
    constexpr int kUnitsPerRow = static_cast<int>(kRowBytes / 16);
    TOut *const d = static_cast<TOut *>(p.d) + batch * p.stride_d;
    for (int u = thread; u < static_cast<int>(kEpilogueChunkRows) * kUnitsPerRow; u += kWarpgroupThreads) {
        const int row = u / kUnitsPerRow;
        const int unit = u % kUnitsPerRow;
        const int64_t r = static_cast<int64_t>(row0) + row;
        const int32_t c = col0 + unit * kPerUnit;
        if (r >= p.m || c >= p.n) continue;
        const char *src = buffer + swizzled_offset(row, unit * 16);
        TOut *dst = d + r * p.ldd + c;
        if (c + kPerUnit <= p.n) {
            *reinterpret_cast<uint4 *>(dst) = *reinterpret_cast<const uint4 *>(src);
        } else {
            for (int e = 0; e < p.n - c; ++e) dst[e] = reinterpret_cast<const TOut *>(src)[e];
        }
    }
}

// Columns of D in a chunk (one 128-byte row), and chunks in a warpgroup's tile.
template <typename TOut>
inline constexpr int kChunkColumns = static_cast<int>(kRowBytes / sizeof(TOut));
template <typename TOut, int Config>
inline constexpr int kTileChunks = warpgroup_n(kTileConfigs[Config]) / kChunkColumns<TOut>;

// Per-consumer epilogue state that lives across tiles: C loads' barrier phase, and which buffer the
// next chunk goes to where a tile has an odd number of chunks (they alternate over all of them).
struct EpilogueState {
    uint32_t c_phase = 0;
    uint32_t buffer = 0;
};

// The buffer that chunk `chunk` of a tile of Chunks chunks takes.  With an even number of chunks per
// tile the alternation is the same every tile and known at compile time (a run-time index costs the
// 128-accumulator kernels a spill); with an odd number it goes on across tiles.
template <int Chunks>
__device__ __forceinline__ int chunk_buffer(int chunk, EpilogueState &state) {
    if constexpr (Chunks % kEpilogueBuffers == 0) {
        return chunk % kEpilogueBuffers;
    } else {
        const int buffer = static_cast<int>(state.buffer);
        state.buffer = (state.buffer + 1) % kEpilogueBuffers;
        return buffer;
    }
}

// Stores one chunk of D, 64 rows from row0 and 128 bytes of columns from col: waits until the store
// issued from its buffer kEpilogueBuffers chunks ago has read it, loads C's chunk into it first when
// AddC, has write(buffer) put D's values there (swizzled), and stores it by TMA, or by the threads at
// a ragged right edge.
template <typename TOut, int Config, bool AddC, typename Write>
__device__ __forceinline__ void store_chunk(const Sm90Params &p, const SharedStorage<Config> &smem, int consumer,
                                            int thread, int buffer_index, int32_t row0, int32_t col, int64_t batch,
                                            EpilogueState &state, const Write &write) {
    const bool leader = thread == 0;
    const int barrier_id = 1 + consumer;
    char *buffer = smem.epilogue_buffer(consumer, buffer_index);
    if (leader) ptx::cp_async_bulk_wait_group_read(ptx::n32_t<kEpilogueBuffers - 1>{});
    named_barrier_sync(barrier_id, kWarpgroupThreads);
    if constexpr (AddC) {
        uint64_t *loaded = &smem.c_loaded[consumer];
        if (leader) {
            ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, loaded,
                                           uint32_t{kEpilogueChunkBytes});
            tma_load_box(buffer, &p.c_map, col, row0, p.c_batched ? static_cast<int32_t>(batch) : 0, loaded);
        }
        wait_parity(loaded, state.c_phase);
        state.c_phase ^= 1u;
    }
    write(buffer);
    // The generic-proxy writes must be visible to TMA (the async proxy) before the store reads them.
    ptx::fence_proxy_async(ptx::space_shared);
    named_barrier_sync(barrier_id, kWarpgroupThreads);
    if (p.d_rows_whole || col + kChunkColumns<TOut> <= p.n) {
        if (leader) {
            const int32_t coords[3] = {col, row0, static_cast<int32_t>(batch)};
            ptx::cp_async_bulk_tensor(ptx::space_global, ptx::space_shared, &p.d_map, coords, buffer);
            ptx::cp_async_bulk_commit_group();
        }
    } else {
        store_edge_chunk<TOut>(p, buffer, thread, row0, col, batch);
    }
}

// Writes a chunk of 16-bit D into its buffer with stmatrix.x4, from packed(i): the register holding
// the thread's chunk elements 2i and 2i + 1 in accumulator order (groups of 8 columns, in each the
// row halves 0-7 and 8-15, two columns each).  Each stmatrix.x4 writes groups g and g + 1: matrices
// (rows 0-7, g), (rows 8-15, g), (0-7, g + 1), (8-15, g + 1).
template <int Groups, typename Packed>
__device__ __forceinline__ void stmatrix_chunk(char *buffer, int thread, const Packed &packed) {
    const int warp = thread / 32;
    const int lane = thread % 32;
    const int matrix = lane / 8;
    const int row = 16 * warp + (matrix % 2) * 8 + lane % 8;
    const uint32_t base = smem_addr(buffer);
#pragma unroll
    for (int g = 0; g < Groups; g += 2) {
        const uint32_t r[4] = {packed(2 * g), packed(2 * g + 1), packed(2 * g + 2), packed(2 * g + 3)};
        stmatrix_x4(base + swizzled_offset(row, (g + matrix / 2) * 16), r);
    }
}

// Stores the first Chunks chunks of the warpgroup's tile (all by default).
// thread: the thread's index in its warpgroup; consumer: the warpgroup's index among the consumers.
// alpha == 0 means there is no product (acc is not read): D = beta * C.  AddC is beta != 0, a
// template parameter: as a run-time test ptxas if-converts it, and every element then pays a shared
// load, a conversion, an FMA and a select it throws away (twice the instructions of the store).
template <typename TOut, int Config, bool AddC, int Chunks = kTileChunks<TOut, Config>>
__device__ __forceinline__ void store_tile(const float (&acc)[warpgroup_n(kTileConfigs[Config]) / 2],
                                           const Sm90Params &p, const SharedStorage<Config> &smem, int consumer,
                                           int thread, int32_t row0, int32_t col0, int64_t batch, float alpha,
                                           EpilogueState &state) {
    constexpr int kColumns = kChunkColumns<TOut>;
    constexpr int kChunks = kTileChunks<TOut, Config>;
    constexpr int kGroups = kColumns / 8;  // 8-column accumulator groups per chunk
    static_assert(kChunks >= 1 && warpgroup_n(kTileConfigs[Config]) % kColumns == 0, "whole chunks");
    static_assert(Chunks >= 1 && Chunks <= kChunks, "a part of the tile's chunks");
    const int warp = thread / 32;
    const int lane = thread % 32;
    const float beta = p.beta;

    // Unrolled: the accumulator index must be a constant, or acc goes to local memory.
#pragma unroll
    for (int chunk = 0; chunk < Chunks; ++chunk) {
        const int buffer_index = chunk_buffer<kChunks>(chunk, state);
        store_chunk<TOut, Config, AddC>(
            p, smem, consumer, thread, buffer_index, row0, col0 + chunk * kColumns, batch, state, [&](char *buffer) {
                // D's value for the thread's element j of the chunk: accumulator group j / 4, row half
                // j % 4 / 2, column j % 2 of the pair.
                const auto value = [&](int j) {
                    const float product = scaled_product(alpha, acc[4 * chunk * kGroups + j]);
                    if constexpr (AddC) {
                        const int row = 16 * warp + lane / 4 + 8 * (j % 4 / 2);
                        const int byte = (8 * (j / 4) + 2 * (lane % 4) + j % 2) * static_cast<int>(sizeof(TOut));
                        const TOut old = *reinterpret_cast<const TOut *>(buffer + swizzled_offset(row, byte));
                        return plus_scaled_c(product, beta, to_float(old));
                    } else {
                        return product;
                    }
                };
                if constexpr (sizeof(TOut) == 2) {
                    stmatrix_chunk<kGroups>(buffer, thread, [&](int i) {
                        return pack(from_float<TOut>(value(2 * i)), from_float<TOut>(value(2 * i + 1)));
                    });
                } else {
#pragma unroll
                    for (int g = 0; g < kGroups; ++g) {
#pragma unroll
                        for (int h = 0; h < 2; ++h) {
                            const int row = 16 * warp + lane / 4 + 8 * h;
                            const int byte = (8 * g + 2 * (lane % 4)) * 4;
                            *reinterpret_cast<float2 *>(buffer + swizzled_offset(row, byte)) =
                                make_float2(value(4 * g + 2 * h), value(4 * g + 2 * h + 1));
                        }
                    }
                }
            });
    }
}

// Eight accumulators passed by value, in registers, to an out-of-line activation.
struct EightValues {
    float v[8];
};

// GELU (erf) of eight values, out of line: inlined at all 128 accumulators, its chain of twenty-odd
// instructions an element spilled 264 bytes beside them; a call takes eight at a time, so the
// elements' chains overlap eight deep and no further.
__device__ __noinline__ EightValues gelu_erf_eight(EightValues x) {
#pragma unroll
    for (int i = 0; i < 8; ++i) x.v[i] = activate(x.v[i], Activation::GeluErf);
    return x;
}

// acc = act(acc), the activation a constant, over a warpgroup tile's accumulators.
template <Activation kActivation, int kCount>
__device__ __forceinline__ void activate_accumulators(float (&acc)[kCount]) {
    if constexpr (kActivation == Activation::GeluErf) {
        static_assert(kCount % 8 == 0, "whole calls of eight");
#pragma unroll
        for (int first = 0; first < kCount; first += 8) {
            EightValues x;
#pragma unroll
            for (int i = 0; i < 8; ++i) x.v[i] = acc[first + i];
            x = gelu_erf_eight(x);
#pragma unroll
            for (int i = 0; i < 8; ++i) acc[first + i] = x.v[i];
        }
    } else {
#pragma unroll
        for (int i = 0; i < kCount; ++i) acc[i] = activate(acc[i], kActivation);
    }
}

// Element `index` of the launch's bias, as fp32.
__device__ __forceinline__ float load_bias(const Sm90Params &p, int64_t index) {
    switch (p.type_bias) {
    case kF32: return __ldg(static_cast<const float *>(p.bias) + index);
    case kF16: return to_float(__ldg(static_cast<const __half *>(p.bias) + index));
    default: return to_float(__ldg(static_cast<const __nv_bfloat16 *>(p.bias) + index));
    }
}

// A fused bias per column over a warpgroup tile's kN columns, for fuse_into_accumulators.  Each
// thread loads a value or two of it as the tile's mainloop begins, into registers that live across
// the mainloop, so the loads' latency hides behind the MMAs; once the accumulators are complete the
// values are staged as fp32 in the consumer's first epilogue buffer, and each thread reads its kN / 4
// columns there in pairs.  (Each thread's 64 scattered loads of the bias at the epilogue, and their
// addresses and conversions, took 2.7% of a 4096 x 14336 x 4096 launch: bench/RESULTS.md.)
template <int kN>
struct ColumnBias {
    static constexpr int kPerThread = (kN + kWarpgroupThreads - 1) / kWarpgroupThreads;
    float values[kPerThread];

    // Loads the tile's values, columns col0.. of batch `batch` (0 past D's edge).
    __device__ __forceinline__ void load(const Sm90Params &p, int64_t batch, int32_t col0, int thread) {
#pragma unroll
        for (int j = 0; j < kPerThread; ++j) {
            const int column = thread + j * kWarpgroupThreads;
            const int32_t c = col0 + column;
            values[j] = column < kN && c < p.n ? load_bias(p, batch * p.stride_bias + c) : 0.f;
        }
    }

    // Adds the values to the tile's accumulators (wgmma's m64 layout: acc[4g + 2h + e] lies in column
    // 8g + 2 (thread % 4) + e), through `staged`: an epilogue buffer of the consumer's that no store
    // reads any more, and no thread writes until the warpgroup's next barrier.
    __device__ __forceinline__ void add_to(float (&acc)[kN / 2], float *staged, int consumer, int thread) const {
        named_barrier_sync(1 + consumer, kWarpgroupThreads);
#pragma unroll
        for (int j = 0; j < kPerThread; ++j) {
            const int column = thread + j * kWarpgroupThreads;
            if (column < kN) staged[column] = values[j];
        }
        named_barrier_sync(1 + consumer, kWarpgroupThreads);
        const float2 *pairs = reinterpret_cast<const float2 *>(staged + 2 * (thread % 4));
#pragma unroll
        for (int g = 0; g < kN / 8; ++g) {
            const float2 b = pairs[4 * g];
            acc[4 * g] += b.x;
            acc[4 * g + 1] += b.y;
            acc[4 * g + 2] += b.x;
            acc[4 * g + 3] += b.y;
        }
    }
};

// Adds one batch's bias per row to a warpgroup tile's accumulators: the thread's rows row and row + 8
// (0 past D's edge).  (row0: the warpgroup tile's first row.)
template <int kN>
__device__ __forceinline__ void add_row_bias(float (&acc)[kN / 2], const Sm90Params &p, int64_t batch, int32_t row0,
                                             int thread) {
    // wgmma's m64 layout: acc[4g + 2h + e] lies in row 16 warp + lane / 4 + 8h.
    const int32_t row = row0 + 16 * (thread / 32) + thread % 32 / 4;
    const int64_t first = batch * p.stride_bias;
    const float lo = row < p.m ? load_bias(p, first + row) : 0.f;
    const float hi = row + 8 < p.m ? load_bias(p, first + row + 8) : 0.f;
#pragma unroll
    for (int i = 0; i < kN / 2; ++i) acc[i] += (i & 2) != 0 ? hi : lo;
}

// Whether a launch's fused bias and activation are applied to the accumulators (fuse_into_accumulators):
// without C (beta == 0), GELU (erf) beside block scales (kBlockScaled) excepted, where its calls
// spilled 152 bytes in the 64 x 256 8-bit kernel; else staged (store_tile_fused).
template <bool kBlockScaled>
__device__ __forceinline__ bool fuses_in_registers(const Sm90Params &p) {
    return p.beta == 0.f && !(kBlockScaled && static_cast<Activation>(p.activation) == Activation::GeluErf);
}

// The fused bias and activation of a launch that fuses_in_registers, applied to a warpgroup tile's
// accumulators in place: acc = act(alpha * acc + bias) in fp32, so that store_tile then stores the
// tile as a plain one (alpha 1: stmatrix and TMA, the stores overlapping what follows).  alpha is
// applied where it is not 1 (a branch of the whole launch), a bias per column from `column_bias`
// (loaded as the mainloop began), and the activation, a launch constant, is chosen once around
// unrolled code of its own (GELU (erf) compiled only where fuses_in_registers lets it come).  thread:
// the thread's index in its warpgroup; row0: the warpgroup tile's first row.
template <int kN, int Config, bool kBlockScaled>
__device__ __forceinline__ void fuse_into_accumulators(float (&acc)[kN / 2], const Sm90Params &p,
                                                       const SharedStorage<Config> &smem, int consumer, int thread,
                                                       int32_t row0, int64_t batch, float alpha,
                                                       const ColumnBias<kN> &column_bias) {
    if (alpha != 1.f) {
#pragma unroll
        for (int i = 0; i < kN / 2; ++i) acc[i] = scaled_product(alpha, acc[i]);
    }
    if (p.bias != nullptr) {
        if (p.bias_per_row != 0) {
            add_row_bias<kN>(acc, p, batch, row0, thread);
        } else {
            // Every store from the buffer has read it: they were issued before this tile's mainloop.
            if (thread == 0) ptx::cp_async_bulk_wait_group_read(ptx::n32_t<0>{});
            column_bias.add_to(acc, reinterpret_cast<float *>(smem.epilogue_buffer(consumer, 0)), consumer, thread);
        }
    }
    switch (static_cast<Activation>(p.activation)) {
    case Activation::Relu: activate_accumulators<Activation::Relu>(acc); break;
    case Activation::GeluTanh: activate_accumulators<Activation::GeluTanh>(acc); break;
    case Activation::GeluErf:
        if constexpr (!kBlockScaled) activate_accumulators<Activation::GeluErf>(acc);
        break;
    case Activation::Silu: activate_accumulators<Activation::Silu>(acc); break;
    case Activation::None: break;
    }
}

// Columns of fp32 a fused epilogue stages at a time (one 128-byte row), and accumulator groups in
// them.
inline constexpr int kStagedColumns = static_cast<int>(kRowBytes / sizeof(float));
inline constexpr int kStagedGroups = kStagedColumns / 8;

// Rows of a staged part that each thread finishes: the warpgroup's threads lie across its
// kStagedColumns columns, kPartRowStep rows apart.
inline constexpr int kPartRowStep = kWarpgroupThreads / kStagedColumns;
inline constexpr int kPartRows = static_cast<int>(kEpilogueChunkRows) / kPartRowStep;

// Whether a thread's element i of a part lies inside D, of `rows` rows from its first: all do in a
// part whose 64 rows all lie inside (kWhole), and that part's code tests none.
template <bool kWhole>
__device__ __forceinline__ bool inside(int i, int rows) {
    return kWhole || kPartRowStep * i < rows;
}

// Adds beta * C (where beta != 0; C from `c`, c_step bytes a row of the thread's) and the bias to a
// thread's elements of a part: a bias per row from the tile's rows staged in shared memory
// (`row_bias`, from the thread's first row), else one per column from the bias itself (0 where there
// is none).
template <typename TOut, bool kWhole>
__device__ __forceinline__ void add_c_and_bias(float (&v)[kPartRows], const char *c, int64_t c_step, float beta,
                                               const FusedEpilogue<TOut> &fused, const float *row_bias,
                                               int32_t column, int rows) {
    if (beta != 0.f) {
#pragma unroll
        for (int i = 0; i < kPartRows; ++i)
            if (inside<kWhole>(i, rows))
                v[i] = plus_scaled_c(v[i], beta, to_float(*reinterpret_cast<const TOut *>(c + i * c_step)));
    }
    if (row_bias != nullptr) {
#pragma unroll
        for (int i = 0; i < kPartRows; ++i) v[i] += row_bias[kPartRowStep * i];
    } else {
        const float bias = fused.bias_value(column);
#pragma unroll
        for (int i = 0; i < kPartRows; ++i) v[i] += bias;
    }
}

// Stores a thread's finished elements of a part to D from `d` on, d_step bytes a row of the thread's.
template <typename TOut, bool kWhole>
__device__ __forceinline__ void store_part(const float (&v)[kPartRows], char *d, int64_t d_step, int rows) {
#pragma unroll
    for (int i = 0; i < kPartRows; ++i)
        if (inside<kWhole>(i, rows)) *reinterpret_cast<TOut *>(d + i * d_step) = from_float<TOut>(v[i]);
}

// Applies the activation, a constant, to a thread's elements of a part.
template <Activation kActivation>
__device__ __forceinline__ void activate_part(float (&v)[kPartRows]) {
#pragma unroll
    for (int i = 0; i < kPartRows; ++i) v[i] = activate(v[i], kActivation);
}

// The fused epilogue of one staged part of a tile: 64 rows x kStagedColumns columns of alpha * acc at
// D's (row0, col) of batch `batch`, fp32 in `stage` (swizzled as an fp32 chunk).  Each thread takes
// one column and every kPartRowStep-th row: beta * C added where beta != 0 (read from C itself), then
// the bias (a bias per row from `row_bias`, the tile's 64 values that store_tile_fused staged) and
// the activation, rounded once and stored to D by the threads (a warp a row's 32 elements at a time,
// any alignment, the edges skipped).
//  - The parameters are read once, first: the pass reaches them through a generic reference that
//    every store to D might alias, so a field read after a store would be read again.  Every load of
//    the part comes before the first store too, and the elements' chains (the activation's exp and
//    reciprocal) overlap; the staged values are read whole, rows past D's edge included, at constant
//    offsets from two addresses (rows 8 apart share the swizzle).
//  - Out of line and one function for every D type, C or not and activation (each a branch around
//    its own unrolled code): the kernel then has one fused consumer, not one per D type and C, each
//    with its own copy of the mainloop; inlined at every part of an unrolled tile, the activations
//    made the translation unit several times larger.  ptxas allocates the call's registers around
//    the caller's live accumulators and spills nothing for it.
__device__ __noinline__ void fuse_staged_part(const Sm90Params &p, const char *stage, const float *row_bias,
                                              int32_t row0, int32_t col, int64_t batch, int thread) {
    const int column = thread % kStagedColumns;
    const int first = thread / kStagedColumns;
    const int32_t cn = col + column;
    const int32_t m = p.m, n = p.n, type_cd = p.type_cd;
    const int64_t ldd = p.ldd, ldc = p.ldc, stride_d = p.stride_d, stride_c = p.c_batched ? p.stride_c : 0;
    const float beta = p.beta;
    const Activation activation = static_cast<Activation>(p.activation);
    void *const d_base = p.d;
    const void *const c_base = p.c;
    const void *const bias = p.bias;
    const int64_t stride_bias = p.stride_bias;
    const int32_t type_bias = p.type_bias;
    const bool bias_per_row = p.bias_per_row != 0;
    if (cn >= n) return;
    const bool whole = m - row0 >= static_cast<int>(kEpilogueChunkRows);
    const int rows = min(static_cast<int>(kEpilogueChunkRows), m - row0) - first;  // the thread's, from `first`
    const int64_t first_row = int64_t{row0} + first;

    float v[kPartRows];
    const char *const even = stage + swizzled_offset(first, 4 * column);
    const char *const odd = stage + swizzled_offset(first + kPartRowStep, 4 * column);
#pragma unroll
    for (int i = 0; i < kPartRows; ++i)
        v[i] = *reinterpret_cast<const float *>((i % 2 ? odd : even) + (i / 2) * 2 * kPartRowStep * kRowBytes);

    with_output_type(type_cd, [&](auto out) {
        using TOut = decltype(out);
        const FusedEpilogue<TOut> fused(bias, stride_bias, type_bias, bias_per_row, static_cast<int32_t>(activation),
                                        batch);
        const char *c = static_cast<const char *>(c_base) +
                        static_cast<int64_t>(sizeof(TOut)) * (batch * stride_c + first_row * ldc + cn);
        const int64_t c_step = static_cast<int64_t>(sizeof(TOut)) * kPartRowStep * ldc;
        const float *const thread_row_bias = bias != nullptr && bias_per_row ? row_bias + first : nullptr;
        if (whole) {
            add_c_and_bias<TOut, true>(v, c, c_step, beta, fused, thread_row_bias, cn, rows);
        } else {
            add_c_and_bias<TOut, false>(v, c, c_step, beta, fused, thread_row_bias, cn, rows);
        }
    });
    switch (activation) {
    case Activation::None: break;
    case Activation::Relu: activate_part<Activation::Relu>(v); break;
    case Activation::GeluTanh: activate_part<Activation::GeluTanh>(v); break;
    case Activation::GeluErf: activate_part<Activation::GeluErf>(v); break;
    case Activation::Silu: activate_part<Activation::Silu>(v); break;
    }
    with_output_type(type_cd, [&](auto out) {
        using TOut = decltype(out);
        char *d = static_cast<char *>(d_base) +
                  static_cast<int64_t>(sizeof(TOut)) * (batch * stride_d + first_row * ldd + cn);
        const int64_t d_step = static_cast<int64_t>(sizeof(TOut)) * kPartRowStep * ldd;
        if (whole) {
            store_part<TOut, true>(v, d, d_step, rows);
        } else {
            store_part<TOut, false>(v, d, d_step, rows);
        }
    });
}

// store_tile through the launch's fused bias and activation, for the whole tile, without TMA: each
// part of kStagedColumns columns is staged as fp32 alpha * acc in the consumer's epilogue buffers in
// turn, and fuse_staged_part finishes and stores it.  One barrier a part: a buffer is staged again
// two parts later, after every thread has passed the barrier of the part between, so after its own
// pass over it.  A bias per row is staged first, the tile's 64 values in shared memory (0 past D's
// last row), so that every part reads it there and not from global memory; the barrier before it
// lets the previous tile's last pass finish reading the values it replaces.
template <int Config>
__device__ __forceinline__ void store_tile_fused(const float (&acc)[warpgroup_n(kTileConfigs[Config]) / 2],
                                                 const Sm90Params &p, const SharedStorage<Config> &smem, int consumer,
                                                 int thread, int32_t row0, int32_t col0, int64_t batch, float alpha) {
    constexpr int kParts = warpgroup_n(kTileConfigs[Config]) / kStagedColumns;
    static_assert(kParts % kEpilogueBuffers == 0, "every tile starts on the first buffer");
    const int warp = thread / 32;
    const int lane = thread % 32;
    float *const row_bias = smem.tile_row_bias(consumer);
    if (p.bias != nullptr && p.bias_per_row != 0) {
        named_barrier_sync(1 + consumer, kWarpgroupThreads);
        if (thread < static_cast<int>(kEpilogueChunkRows)) {
            with_output_type(p.type_cd, [&](auto out) {
                const FusedEpilogue<decltype(out)> fused(p.bias, p.stride_bias, p.type_bias, true, p.activation, batch);
                row_bias[thread] = row0 + thread < p.m ? fused.bias_value(row0 + thread) : 0.f;
            });
        }
    }

    // Unrolled: the accumulator index must be a constant.
#pragma unroll
    for (int part = 0; part < kParts; ++part) {
        char *stage = smem.epilogue_buffer(consumer, part % kEpilogueBuffers);
#pragma unroll
        for (int g = 0; g < kStagedGroups; ++g) {
            const int group = part * kStagedGroups + g;  // of the tile: accumulators 4 group ..
#pragma unroll
            for (int h = 0; h < 2; ++h) {
                const int row = 16 * warp + lane / 4 + 8 * h;
                *reinterpret_cast<float2 *>(stage + swizzled_offset(row, (8 * g + 2 * (lane % 4)) * 4)) =
                    make_float2(scaled_product(alpha, acc[4 * group + 2 * h]),
                                scaled_product(alpha, acc[4 * group + 2 * h + 1]));
            }
        }
        named_barrier_sync(1 + consumer, kWarpgroupThreads);
        fuse_staged_part(p, stage, row_bias, row0, col0 + part * kStagedColumns, batch, thread);
    }
}

// The last chunks of a warpgroup's tile of 16-bit D, alpha applied (no C), held in registers two
// elements to a register.  A tile of more chunks than buffers (64 x 256: four) would otherwise wait,
// with the tensor pipe idle, for its first chunks' stores to read their buffers before writing the
// rest.  Instead the consumer stores the first kEpilogueBuffers chunks as the mainloop ends, holds
// the others, and stores them during the next tile's first K blocks, one a block while its wgmmas
// run.
template <typename TOut, int Config>
struct HeldChunks {
    static constexpr int kChunks = kTileChunks<TOut, Config>;
    static constexpr int kFirst = kEpilogueBuffers;  // the first chunk held
    static constexpr int kGroups = kChunkColumns<TOut> / 8;
    static constexpr int kPerChunk = 2 * kGroups;  // registers
    static_assert(sizeof(TOut) == 2 && kChunks > kFirst && kChunks % kEpilogueBuffers == 0,
                  "16-bit tiles of more chunks than buffers, a whole number of rounds of them");

    uint32_t values[(kChunks - kFirst) * kPerChunk];
    int32_t row0 = 0, col0 = 0;
    int64_t batch = 0;
    int next = kChunks;  // the next chunk to store: kChunks when none is held

    // Packs chunks kFirst.. of the tile; `store_tile<..., kFirst>` stores the others.
    __device__ __forceinline__ void hold(const float (&acc)[warpgroup_n(kTileConfigs[Config]) / 2], float alpha,
                                         int32_t row, int32_t col, int64_t batch_index) {
#pragma unroll
        for (int i = 0; i < (kChunks - kFirst) * kPerChunk; ++i) {
            const int j = kFirst * kPerChunk + i;  // pair j of the accumulators: elements 2j and 2j + 1
            values[i] = pack(from_float<TOut>(scaled_product(alpha, acc[2 * j])),
                             from_float<TOut>(scaled_product(alpha, acc[2 * j + 1])));
        }
        row0 = row;
        col0 = col;
        batch = batch_index;
        next = kFirst;
    }

    // Stores the next held chunk, if any.
    __device__ __forceinline__ void store_next(const Sm90Params &p, const SharedStorage<Config> &smem, int consumer,
                                               int thread, EpilogueState &state) {
        // One branch per chunk, so every register index is a constant.
#pragma unroll
        for (int chunk = kFirst; chunk < kChunks; ++chunk)
            if (next == chunk) store(p, smem, consumer, thread, state, chunk);
        if (next < kChunks) ++next;
    }

    // Stores every held chunk.
    __device__ __forceinline__ void store_rest(const Sm90Params &p, const SharedStorage<Config> &smem, int consumer,
                                               int thread, EpilogueState &state) {
#pragma unroll
        for (int chunk = kFirst; chunk < kChunks; ++chunk)
            if (next <= chunk) store(p, smem, consumer, thread, state, chunk);
        next = kChunks;
    }

private:
    __device__ __forceinline__ void store(const Sm90Params &p, const SharedStorage<Config> &smem, int consumer,
                                          int thread, EpilogueState &state, int chunk) {
        store_chunk<TOut, Config, false>(
            p, smem, consumer, thread, chunk_buffer<kChunks>(chunk, state), row0, col0 + chunk * kChunkColumns<TOut>,
            batch, state, [&](char *buffer) {
                stmatrix_chunk<kGroups>(buffer, thread,
                                        [&](int i) { return values[(chunk - kFirst) * kPerChunk + i]; });
            });
    }
};

}  // namespace asyncgemm::sm90

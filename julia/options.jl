# The symbols the high-level API takes for the C API's enumerations.

const ALGORITHMS = (auto=ASYNCGEMM_ALGO_AUTO, simt=ASYNCGEMM_ALGO_SIMT, async_copy=ASYNCGEMM_ALGO_ASYNC_COPY,
                    pipelined=ASYNCGEMM_ALGO_PIPELINED, sm90_tma_wgmma=ASYNCGEMM_ALGO_SM90_TMA_WGMMA,
                    sm100_tcgen05=ASYNCGEMM_ALGO_SM100_TCGEN05)

const COPY_ALGORITHMS = (auto=ASYNCGEMM_COPY_AUTO, sync=ASYNCGEMM_COPY_SYNC, async=ASYNCGEMM_COPY_ASYNC,
                         pipelined=ASYNCGEMM_COPY_PIPELINED, tma=ASYNCGEMM_COPY_TMA)

const SMEM_LAYOUTS = (auto=ASYNCGEMM_SMEM_AUTO, plain=ASYNCGEMM_SMEM_PLAIN, padded=ASYNCGEMM_SMEM_PADDED,
                      swizzled=ASYNCGEMM_SMEM_SWIZZLED)

# :gelu is the tanh form, as NNlib's gelu is.
const ACTIVATIONS = (none=ASYNCGEMM_ACT_NONE, relu=ASYNCGEMM_ACT_RELU, gelu=ASYNCGEMM_ACT_GELU_TANH,
                     gelu_tanh=ASYNCGEMM_ACT_GELU_TANH, gelu_erf=ASYNCGEMM_ACT_GELU_ERF, silu=ASYNCGEMM_ACT_SILU)

const OPS = (N=ASYNCGEMM_OP_N, T=ASYNCGEMM_OP_T)

const MATH_MODES = (default=ASYNCGEMM_MATH_DEFAULT, tf32=ASYNCGEMM_MATH_TF32)

# What set_math_mode! takes: a mode, or `:auto` (nothing) to follow CUDA.math_mode().
const MATH_SETTINGS = (; auto=nothing, MATH_MODES...)

# The enumerator `options` names `key`; `what` names the keyword in the error.
function option(options::NamedTuple, key::Symbol, what::AbstractString)
    haskey(options, key) && return options[key]
    throw(ArgumentError("$what must be one of $(join(map(repr, keys(options)), ", ")), not $(repr(key))"))
end

// Whether a Julia type in a foreign call has the width and kind of a C type (c_header.mjs's
// representation): Cint for int and enums, Int64 for int64_t, Cfloat for float, a pointer for a
// pointer (Ptr, CuPtr, Ref, CuRef, Cstring, CUstream), with what it points to compared as far
// as C says (void * takes any pointer).

// The Julia type node as the C representation, or null when it is no type this check knows.
// A name it does not know is an opaque struct where a pointer points to it (Ptr{CUstream_st}).
export function juliaType(node, pointee = false) {
    if (node === null) return { kind: 'void' };
    if (node.type === 'identifier') return NAMED[node.text] ?? (pointee ? { kind: 'opaque' } : null);
    if (node.type === 'parametrized_type_expression') {
        const [base, curly] = node.namedChildren;
        if (!POINTERS.has(base.text) || curly.namedChildCount !== 1) return null;
        const to = juliaType(curly.namedChild(0), true);
        return to === null ? null : { kind: 'pointer', to };
    }
    return null;
}

const POINTERS = new Set(['Ptr', 'CuPtr', 'Ref', 'CuRef']);

const NAMED = {
    Cint: { kind: 'int', bits: 32, signed: true },
    Int32: { kind: 'int', bits: 32, signed: true },
    Cuint: { kind: 'int', bits: 32, signed: false },
    UInt32: { kind: 'int', bits: 32, signed: false },
    Int64: { kind: 'int', bits: 64, signed: true },
    Clonglong: { kind: 'int', bits: 64, signed: true },
    UInt64: { kind: 'int', bits: 64, signed: false },
    Csize_t: { kind: 'int', bits: 64, signed: false },
    Cfloat: { kind: 'float', bits: 32 },
    Float32: { kind: 'float', bits: 32 },
    Cdouble: { kind: 'float', bits: 64 },
    Float64: { kind: 'float', bits: 64 },
    Cchar: { kind: 'char' },
    UInt8: { kind: 'char' },
    Cvoid: { kind: 'void' },
    Nothing: { kind: 'void' },
    Cstring: { kind: 'pointer', to: { kind: 'char' } },
    CUstream: { kind: 'pointer', to: { kind: 'opaque' } },
};

// Whether a value of Julia type `julia` passes as C type `c`.
export function matches(c, julia) {
    if (c.kind !== julia.kind) return false;
    switch (c.kind) {
    case 'int': return c.bits === julia.bits && c.signed === julia.signed;
    case 'float': return c.bits === julia.bits;
    case 'pointer':
        if (c.to.kind === 'void') return true;  // void * takes any pointer
        // A handle (pointer to an incomplete struct) is a pointer to nothing Julia can read.
        if (c.to.kind === 'opaque') return julia.to.kind === 'void' || julia.to.kind === 'opaque';
        return matches(c.to, julia.to);
    default: return true;  // void, char, opaque
    }
}

// "a 32-bit signed integer", "a pointer to a pointer", ...: what a type is, for messages.
export function describe(type) {
    switch (type.kind) {
    case 'int': return `a ${type.bits}-bit ${type.signed ? 'signed' : 'unsigned'} integer`;
    case 'float': return `a ${type.bits}-bit float`;
    case 'pointer': return `a pointer to ${describe(type.to)}`;
    case 'char': return 'a char';
    case 'opaque': return 'an opaque struct';
    default: return 'nothing (void)';
    }
}

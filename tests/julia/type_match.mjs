// Whether a Julia type in a foreign call has the width and kind of a C type (c_header.mjs's
// representation): Cint for int and enums, Int64 for int64_t, Cfloat for float, a pointer for a
// pointer (Ptr, CuPtr, Ref, CuRef, Cstring, CUstream), with what it points to compared as far
// as C says (void * takes any pointer). A C struct is matched by a struct of the Julia sources
// whose fields mirror its members one by one: same names in the same order, each of the member's
// width and kind; a pointer to one is a host pointer (Ptr or Ref), since the library reads it there.

// The Julia type node as the C representation, or null when it is no type this check knows.
// `defined` maps the names the Julia sources define to their representations: an @enum is its
// base type with enum: name; a struct is { kind: 'struct', name, file, line, fields: [{ name,
// line, spelling, type }] }, a field's spelling and type null when it has no ::Type and its type
// null when this check does not know it. A name neither knows is an opaque struct where a pointer
// points to it (Ptr{CUstream_st}).
export function juliaType(node, defined = new Map(), pointee = false) {
    if (node === null) return { kind: 'void' };
    if (node.type === 'identifier') {
        return NAMED[node.text] ?? defined.get(node.text) ?? (pointee ? { kind: 'opaque', name: node.text } : null);
    }
    if (node.type === 'parametrized_type_expression') {
        const [base, curly] = node.namedChildren;
        if (!POINTERS.has(base.text) || curly.namedChildCount !== 1) return null;
        const to = juliaType(curly.namedChild(0), defined, true);
        if (to === null) return null;
        return base.text.startsWith('Cu') ? { kind: 'pointer', to, device: true } : { kind: 'pointer', to };
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
    case 'int':
        // An @enum of the Julia sources stands for the C enum of its name alone.
        if (c.enum !== undefined && julia.enum !== undefined && c.enum !== julia.enum) return false;
        return c.bits === julia.bits && c.signed === julia.signed;
    case 'float': return c.bits === julia.bits;
    case 'pointer':
        if (c.to.kind === 'void') return true;  // void * takes any pointer
        // A handle (pointer to an incomplete struct) is a pointer to nothing Julia can read.
        if (c.to.kind === 'opaque') return julia.to.kind === 'void' || julia.to.kind === 'opaque';
        // A struct the library reads or writes on the host, never a copy in device memory.
        if (c.to.kind === 'struct' && julia.device) return false;
        return matches(c.to, julia.to);
    case 'struct': return fieldProblems(c, julia).length === 0;
    default: return true;  // void, char, opaque
    }
}

// Why the fields of Julia struct `julia` do not mirror the members of C struct `c`, as
// [{ line, what }] (line: the Julia field's, or the struct's), [] when they do. Names are compared
// in order up to the first that differs (after it every field would be out of step); types where
// the names agree.
export function fieldProblems(c, julia) {
    const problems = [];
    const fields = julia.fields, members = c.members;
    if (fields.length !== members.length) {
        const names = new Set(fields.map((field) => field.name));
        const lacking = members.filter((member) => !names.has(member.name)).map((member) => member.name);
        const known = new Set(members.map((member) => member.name));
        const extra = fields.filter((field) => !known.has(field.name)).map((field) => field.name);
        problems.push({
            line: julia.line,
            what: `has ${count(fields.length, 'field')}, the header's ${c.name} has ${count(members.length, 'member')}` +
                  (lacking.length > 0 ? `; it lacks ${lacking.join(', ')}` : '') +
                  (extra.length > 0 ? `; the header has no ${extra.join(', ')}` : ''),
        });
    }
    for (let i = 0; i < Math.min(fields.length, members.length); i++) {
        const field = fields[i], member = members[i];
        const which = `field ${i + 1} (${field.name})`;
        if (field.name !== member.name) {
            problems.push({ line: field.line, what: `field ${i + 1} is ${field.name}, the header's member ${i + 1} is ` +
                                                   `${member.name} (${member.spelling} at offset ${member.offset})` });
            break;
        }
        const header = `the header's ${member.spelling} (offset ${member.offset})`;
        if (field.spelling === null) {
            problems.push({ line: field.line, what: `${which} has no ::Type, ${header} is ${describe(member.type)}` });
        } else if (field.type === null) {
            problems.push({ line: field.line, what: `${which}: Julia ${field.spelling} is not a type this check knows` });
        } else if (!matches(member.type, field.type)) {
            problems.push({ line: field.line, what: `${which}: Julia ${field.spelling} is ${describe(field.type)}, ` +
                                                   `${header} is ${describe(member.type)}` });
        }
    }
    return problems;
}

const count = (n, what) => `${n} ${what}${n === 1 ? '' : 's'}`;

// "a 32-bit signed integer", "a pointer to a pointer", ...: what a type is, for messages.
export function describe(type) {
    switch (type.kind) {
    case 'int': return `a ${type.bits}-bit ${type.signed ? 'signed' : 'unsigned'} integer` +
                       (type.enum === undefined ? '' : ` (${type.enum})`);
    case 'float': return `a ${type.bits}-bit float`;
    case 'pointer': return `a ${type.device ? 'device ' : ''}pointer to ${describe(type.to)}`;
    case 'char': return 'a char';
    case 'struct': return `the struct ${type.name}`;
    case 'opaque': return type.name === undefined ? 'an opaque struct' : `an opaque struct (${type.name}: no struct of the Julia sources)`;
    default: return 'nothing (void)';
    }
}

// What Julia source says about the C API, read from tree-sitter-julia's tree: every foreign call
// (ccall, @ccall and macros named *_ccall such as @gcsafe_ccall), every enumeration
// (@enum and `const ASYNCGEMM_... = value`) and every struct (whose fields may mirror a C struct).

// [{ line, symbol, returns, args: [{ name, type }] }]: types are Julia type nodes; symbol is null
// (with `why`) when the call's target is not a literal function name.
export function foreignCalls(tree) {
    const calls = [];
    walk(tree.rootNode, (node) => {
        if (node.type === 'macrocall_expression' && macroName(node).endsWith('ccall')) {
            calls.push(macroCcall(node));
        } else if (node.type === 'call_expression' && node.namedChild(0).text === 'ccall') {
            calls.push(plainCcall(node));
        }
    });
    return calls;
}

// [{ line, name, base (type node or null), members: [{ line, name, value (BigInt) or null }] }]
// for @enum, and { line, name: null, members: [one] } for each `const ASYNCGEMM_X = value`.
export function enumerations(tree) {
    const enums = [];
    walk(tree.rootNode, (node) => {
        if (node.type === 'macrocall_expression' && macroName(node) === 'enum') {
            enums.push(enumMacro(node));
        } else if (node.type === 'const_statement') {
            const constant = constantMember(node.namedChild(0));
            if (constant !== null) enums.push({ line: constant.line, name: null, base: null, members: [constant] });
        }
    });
    return enums;
}

// [{ line, name, fields: [{ line, name, type (type node, or null when untyped) }] }] for every
// struct and mutable struct, @kwdef ones included; name is null for a parametric struct, which
// mirrors no C struct. Inner constructors and docstrings are not fields.
export function structures(tree) {
    const structs = [];
    walk(tree.rootNode, (node) => {
        if (node.type !== 'struct_definition') return;
        const head = node.namedChildren.find((child) => child.type === 'type_head').namedChild(0);
        // `S <: Super`: the name is on the left.
        const named = head.type === 'binary_expression' ? head.namedChild(0) : head;
        const fields = [];
        for (const child of node.namedChildren) {
            // @kwdef's `name::Type = default` declares the field on the left.
            const field = child.type === 'assignment' ? child.namedChild(0) : child;
            if (field.type === 'typed_expression' && field.namedChild(0).type === 'identifier') {
                fields.push({ line: line(field), name: field.namedChild(0).text, type: field.namedChild(1) });
            } else if (field.type === 'identifier') {
                fields.push({ line: line(field), name: field.text, type: null });
            }
        }
        structs.push({ line: line(node), name: named.type === 'identifier' ? named.text : null, fields });
    });
    return structs;
}

function walk(node, visit) {
    visit(node);
    for (const child of node.namedChildren) walk(child, visit);
}

const line = (node) => node.startPosition.row + 1;

// `@gcsafe_ccall` and `GPUToolbox.@gcsafe_ccall` are both "gcsafe_ccall".
function macroName(node) {
    return node.namedChildren.find((child) => child.type === 'macro_identifier').namedChild(0).text;
}

// @ccall [option=value ...] [lib.]name(arg::Type, ...)::Return; the return type defaults to Cvoid.
function macroCcall(node) {
    const parts = node.namedChildren.find((child) => child.type === 'macro_argument_list').namedChildren;
    let call = parts.at(-1), returns = null;
    if (call.type === 'typed_expression') {
        [call, returns] = [call.namedChild(0), call.namedChild(1)];
    }
    if (call.type !== 'call_expression') return unreadable(node, 'is not a call of the form lib.name(arg::Type, ...)');
    const target = call.namedChild(0);
    const symbol = target.type === 'field_expression' ? target.namedChild(1) : target;
    if (symbol.type !== 'identifier') return unreadable(node, 'calls a function pointer, not a named function');
    const args = call.namedChild(1).namedChildren.map((arg) => (arg.type === 'typed_expression'
        ? { name: arg.namedChild(0).text, type: arg.namedChild(1) }
        : { name: arg.text, type: null }));
    return { line: line(node), symbol: symbol.text, returns, args };
}

// ccall((:name, lib), Return, (Type, ...), args...) or ccall(:name, ...).
function plainCcall(node) {
    const [target, returns, types, ...values] = node.namedChild(1).namedChildren;
    const quoted = target?.type === 'tuple_expression' ? target.namedChild(0) : target;
    if (quoted?.type !== 'quote_expression') return unreadable(node, 'does not name its function as :name');
    if (types?.type !== 'tuple_expression') return unreadable(node, 'does not list its argument types as a tuple');
    const args = types.namedChildren.map((type, i) => ({ name: values[i]?.text ?? `#${i + 1}`, type }));
    return { line: line(node), symbol: quoted.namedChild(0).text, returns, args };
}

function unreadable(node, why) {
    return { line: line(node), symbol: null, why: `\`${node.text.split('\n')[0]}\` ${why}` };
}

// @enum Name[::Base] begin A [= v] ... end, or @enum Name[::Base] A [= v] ...
function enumMacro(node) {
    const [head, ...rest] = node.namedChildren.find((child) => child.type === 'macro_argument_list').namedChildren;
    const [name, base] = head.type === 'typed_expression' ? [head.namedChild(0), head.namedChild(1)] : [head, null];
    const memberNodes = rest.length === 1 && rest[0].type === 'compound_statement' ? rest[0].namedChildren : rest;
    return {
        line: line(node),
        name: name.text,
        base,
        members: memberNodes.filter((member) => member.type !== 'line_comment' && member.type !== 'block_comment')
            .map(enumMember),
    };
}

function enumMember(node) {
    if (node.type === 'identifier') return { line: line(node), name: node.text, value: undefined };
    if (node.type === 'assignment' && node.namedChild(0).type === 'identifier') {
        return { line: line(node), name: node.namedChild(0).text, value: integer(node.namedChild(2)) };
    }
    return { line: line(node), name: node.text, value: null };
}

// `ASYNCGEMM_X = 3` or `ASYNCGEMM_X = Cint(3)`; null for any other constant.
function constantMember(assignment) {
    if (assignment?.type !== 'assignment' || !/^ASYNCGEMM_/.test(assignment.namedChild(0).text)) return null;
    let value = assignment.namedChild(2);
    if (value.type === 'call_expression' && value.namedChild(1).namedChildCount === 1) {
        value = value.namedChild(1).namedChild(0);
    }
    return { line: line(assignment), name: assignment.namedChild(0).text, value: integer(value) };
}

// The value of an integer literal, possibly negated; null for anything else.
function integer(node) {
    if (node.type === 'unary_expression' && node.namedChild(0).text === '-') {
        const value = integer(node.namedChild(1));
        return value === null ? null : -value;
    }
    if (node.type !== 'integer_literal') return null;
    return BigInt(node.text.replaceAll('_', ''));
}

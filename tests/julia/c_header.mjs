// A small reader of a C header as a C compiler would see it (not as C++): enough preprocessor to
// pick the active lines and expand object-like macros, then the typedefs (enums, structs, pointers
// to structs, aliases) and function prototypes at file scope. What it cannot read it throws on,
// so a header that outgrows it fails the check instead of passing it unread.
import { readFileSync } from 'node:fs';

// { functions: Map name -> { line, returns, params: [{ name, type, spelling }] },
//   enums: Map typedef name -> { line, members: Map name -> value },
//   structs: Map typedef name -> the struct's type }.
// A type is { kind: 'int', bits, signed } | { kind: 'float', bits } | { kind: 'char' } |
// { kind: 'void' } | { kind: 'opaque' } | { kind: 'pointer', to: type } |
// { kind: 'struct', name, line, members: [{ name, type, spelling, line, offset }], size, align },
// plus enum: name for enums. A struct's offsets, size and alignment are x86-64's (layoutOf).
export function readHeader(file) {
    const tokens = expandMacros(preprocess(tokenize(readFileSync(file, 'utf8'), file), file));
    const header = { functions: new Map(), enums: new Map(), structs: new Map() };
    const typedefs = new Map();
    for (const statement of statements(tokens, file)) {
        if (statement[0].text === 'typedef') {
            readTypedef(statement, header, typedefs, file);
        } else if (statement.some((token) => token.text === '(')) {
            readPrototype(statement, header, typedefs, file);
        } else {
            throw new Error(`${file}:${statement[0].line}: cannot read \`${spell(statement)}\``);
        }
    }
    return header;
}

// ---- tokens --------------------------------------------------------------------------------------

// Tokens with their line; comments dropped; a preprocessor directive is one token of kind
// 'directive' holding its whole (continued) line.
function tokenize(source, file) {
    const tokens = [];
    const pattern = new RegExp([
        String.raw`(?<space>[ \t\r\f\v]+|\\\n)`,
        String.raw`(?<newline>\n)`,
        String.raw`(?<comment>/\*[\s\S]*?\*/|//[^\n]*)`,
        String.raw`(?<directive>#(?:[^\n\\]|\\[\s\S])*)`,
        String.raw`(?<string>"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*')`,
        String.raw`(?<number>(?:0[xX][0-9a-fA-F]+|\d+)[uUlL]*)`,
        String.raw`(?<identifier>[A-Za-z_]\w*)`,
        String.raw`(?<punctuation>\.\.\.|&&|\|\||[=!<>]=|<<|>>|[{}()\[\];,*=&|!<>+\-~?:.])`,
    ].join('|'), 'y');
    let line = 1, atLineStart = true;
    while (pattern.lastIndex < source.length) {
        const start = pattern.lastIndex;
        const match = pattern.exec(source);
        if (match === null) throw new Error(`${file}:${line}: unexpected character \`${source[start]}\``);
        const [kind, text] = Object.entries(match.groups).find(([, value]) => value !== undefined);
        if (kind === 'directive' && !atLineStart) throw new Error(`${file}:${line}: \`#\` inside a line`);
        if (kind !== 'space' && kind !== 'newline' && kind !== 'comment') tokens.push({ kind, text, line });
        line += text.split('\n').length - 1;
        if (kind === 'newline') atLineStart = true;
        else if (kind !== 'space' && kind !== 'comment') atLineStart = false;
    }
    return tokens;
}

// ---- preprocessor --------------------------------------------------------------------------------

// The tokens of the active lines, with `defines` (object-like macros: name -> body tokens)
// attached. #include is skipped: the types of <stdint.h> are known by name. Function-like macros
// are outside what a public header here needs.
function preprocess(tokens, file) {
    const defines = new Map();
    const active = [];
    const stack = [];  // per open #if: { taking: this branch is active, taken: some branch was }
    const live = () => stack.every((frame) => frame.taking);
    for (const token of tokens) {
        if (token.kind !== 'directive') {
            if (live()) active.push(token);
            continue;
        }
        const where = `${file}:${token.line}`;
        const body = token.text.slice(1).replace(/\\\n/g, ' ').trim();
        const [, directive, rest] = body.match(/^(\w*)\s*([\s\S]*)$/);
        switch (directive) {
        case 'ifdef': case 'ifndef': case 'if': {
            if (!live()) {  // inside a skipped branch: skip the whole #if, evaluating nothing
                stack.push({ taking: false, taken: true });
                break;
            }
            const value = directive === 'if' ? Boolean(evaluate(rest, defines, where)) : defines.has(rest.trim());
            const taking = directive === 'ifndef' ? !value : value;
            stack.push({ taking, taken: taking });
            break;
        }
        case 'elif': case 'else': {
            const frame = stack.at(-1);
            if (frame === undefined) throw new Error(`${where}: #${directive} without #if`);
            frame.taking = !frame.taken && (directive === 'else' || Boolean(evaluate(rest, defines, where)));
            frame.taken ||= frame.taking;
            break;
        }
        case 'endif':
            if (stack.pop() === undefined) throw new Error(`${where}: #endif without #if`);
            break;
        case 'define': {
            if (!live()) break;
            const [, name, parameters, value] = rest.match(/^(\w+)(\()?\s*([\s\S]*)$/);
            if (parameters) throw new Error(`${where}: function-like macro ${name} is not supported`);
            defines.set(name, tokenize(value, file).map((t) => ({ ...t, line: token.line })));
            break;
        }
        case 'undef':
            if (live()) defines.delete(rest.trim());
            break;
        case 'include': case 'pragma': case '':
            break;
        default:
            if (live()) throw new Error(`${where}: #${directive} is not supported`);
        }
    }
    if (stack.length > 0) throw new Error(`${file}: #if without #endif`);
    active.defines = defines;
    return active;
}

// The value of an #if expression: integers, defined(X), defined X, macros (undefined ones are 0),
// ! && || == != < > <= >= and parentheses.
function evaluate(expression, defines, where) {
    const tokens = tokenize(expression, where).map((t) => t.text);
    let i = 0;
    const fail = () => { throw new Error(`${where}: cannot evaluate #if ${expression}`); };
    const expect = (text) => (tokens[i] === text ? i++ : fail());
    const primary = () => {
        const token = tokens[i++];
        if (token === '!') return Number(!primary());
        if (token === '(') { const value = or(); expect(')'); return value; }
        if (token === 'defined') {
            const parenthesized = tokens[i] === '(';
            if (parenthesized) i++;
            const name = tokens[i++];
            if (parenthesized) expect(')');
            return Number(defines.has(name));
        }
        if (/^\d/.test(token ?? '')) return Number.parseInt(token, token.startsWith('0x') ? 16 : 10);
        if (/^[A-Za-z_]/.test(token ?? '')) {
            const body = defines.get(token);
            return body === undefined ? 0 : evaluate(body.map((t) => t.text).join(' '), defines, where);
        }
        return fail();
    };
    const comparison = () => {
        let value = primary();
        const operators = { '==': (a, b) => a === b, '!=': (a, b) => a !== b, '<': (a, b) => a < b,
                            '>': (a, b) => a > b, '<=': (a, b) => a <= b, '>=': (a, b) => a >= b };
        while (tokens[i] in operators) value = Number(operators[tokens[i++]](value, primary()));
        return value;
    };
    const and = () => { let value = comparison(); while (tokens[i] === '&&') { i++; value = Number(comparison() && value); } return value; };
    const or = () => { let value = and(); while (tokens[i] === '||') { i++; value = Number(and() || value); } return value; };
    const value = or();
    if (i !== tokens.length) fail();
    return value;
}

// Object-like macros replaced by their bodies (a macro is not expanded inside itself), then
// __attribute__((...)) dropped: it says nothing about a type.
function expandMacros(tokens) {
    const expand = (token, expanding) => {
        const body = token.kind === 'identifier' && !expanding.has(token.text) && tokens.defines.get(token.text);
        if (!body) return [token];
        const inner = new Set(expanding).add(token.text);
        return body.flatMap((t) => expand({ ...t, line: token.line }, inner));
    };
    const expanded = tokens.flatMap((token) => expand(token, new Set()));
    const result = [];
    for (let i = 0; i < expanded.length; i++) {
        if (expanded[i].text !== '__attribute__') {
            result.push(expanded[i]);
            continue;
        }
        let depth = 0;
        do {
            const text = expanded[++i]?.text;
            if (text === undefined) break;
            if (text === '(') depth++;
            if (text === ')') depth--;
        } while (depth > 0);
    }
    return result;
}

// ---- declarations --------------------------------------------------------------------------------

// File-scope statements: token runs ending in `;` at brace depth 0 (the `;` dropped).
function statements(tokens, file) {
    const result = [];
    let current = [], depth = 0;
    for (const token of tokens) {
        if (token.text === '{') depth++;
        if (token.text === '}') depth--;
        if (token.text === ';' && depth === 0) {
            result.push(current);
            current = [];
        } else {
            current.push(token);
        }
    }
    if (current.length > 0) throw new Error(`${file}:${current[0].line}: declaration without \`;\``);
    return result;
}

function readTypedef(statement, header, typedefs, file) {
    const where = `${file}:${statement[0].line}`;
    const name = statement.at(-1).text;
    if (statement[1].text === 'enum') {
        const open = statement.findIndex((token) => token.text === '{');
        const close = statement.findIndex((token) => token.text === '}');
        if (open < 0 || close !== statement.length - 2) throw new Error(`${where}: cannot read enum ${name}`);
        header.enums.set(name, { line: statement[0].line, members: enumMembers(statement.slice(open + 1, close), where) });
        typedefs.set(name, { kind: 'int', bits: 32, signed: true, enum: name });
        return;
    }
    if (statement[1].text === 'struct' && statement.some((token) => token.text === '{')) {
        // typedef struct [tag] { members } name;
        const open = statement.findIndex((token) => token.text === '{');
        const close = statement.findIndex((token) => token.text === '}');
        if (open > 3 || close !== statement.length - 2 || statement.at(-1).kind !== 'identifier') {
            throw new Error(`${where}: cannot read struct ${name}`);
        }
        const type = structType(name, statement[0].line, structMembers(statement.slice(open + 1, close), typedefs, file));
        header.structs.set(name, type);
        typedefs.set(name, type);
        return;
    }
    typedefs.set(name, cType(statement.slice(1, -1), typedefs, where));
}

// `type name;`, `type name1, *name2;`, ...: one entry per declarator, in order. A declarator is
// its stars and a name (each declarator its own stars, as in `const void *a, *b;`); arrays,
// bit-fields and function pointers are outside what the public header needs.
function structMembers(tokens, typedefs, file) {
    const members = [];
    for (const declaration of split(tokens, ';')) {
        if (declaration.length === 0) continue;  // after the last `;`
        const where = `${file}:${declaration[0].line}`;
        const unreadable = () => { throw new Error(`${where}: cannot read the struct member \`${spell(declaration)}\``); };
        const [first, ...others] = split(declaration, ',');
        // The first declarator's stars and name end the base type's words.
        let start = first.length - 1;
        if (start < 1 || first[start].kind !== 'identifier') unreadable();
        while (start > 0 && (first[start - 1].text === '*' || first[start - 1].text === 'const')) start--;
        const base = first.slice(0, start);
        if (base.length === 0 || base.some((token) => token.text === '*')) unreadable();
        for (const declarator of [first.slice(start), ...others]) {
            const name = declarator.at(-1);
            const stars = declarator.slice(0, -1);
            if (name?.kind !== 'identifier' || stars.some((token) => token.text !== '*' && token.text !== 'const')) unreadable();
            const typeTokens = [...base, ...stars];
            members.push({ name: name.text, type: cType(typeTokens, typedefs, where), spelling: spell(typeTokens),
                           line: name.line });
        }
    }
    return members;
}

// A struct of these members as x86-64 lays it out: each at the next multiple of its alignment,
// the size rounded up to the largest alignment.
function structType(name, line, members) {
    let offset = 0, align = 1;
    const where = (member) => `struct ${name} member ${member.name}`;
    for (const member of members) {
        const layout = layoutOf(member.type, where(member));
        member.offset = roundUp(offset, layout.align);
        offset = member.offset + layout.size;
        align = Math.max(align, layout.align);
    }
    return { kind: 'struct', name, line, members, size: roundUp(offset, align), align };
}

// { size, align } in bytes of a complete type on x86-64 (System V): int and enums 4, int64_t and
// size_t 8, float 4, double 8, pointers 8, char 1, structs as structType lays them out.
export function layoutOf(type, what = 'a type') {
    switch (type.kind) {
    case 'int': case 'float': return { size: type.bits / 8, align: type.bits / 8 };
    case 'pointer': return { size: 8, align: 8 };
    case 'char': return { size: 1, align: 1 };
    case 'struct': return { size: type.size, align: type.align };
    default: throw new Error(`${what}: ${type.kind} has no size`);
    }
}

const roundUp = (n, multiple) => Math.ceil(n / multiple) * multiple;

// NAME [= integer], ... with C's implicit values: 0 first, then one more than the member before.
function enumMembers(tokens, where) {
    const members = new Map();
    let next = 0n;
    for (const member of split(tokens, ',')) {
        if (member.length === 0) continue;  // a trailing comma
        const [name, equals, ...value] = member.map((token) => token.text);
        if (equals !== undefined) {
            const text = value.join('');
            if (equals !== '=' || !/^-?(0[xX][0-9a-fA-F]+|\d+)$/.test(text)) {
                throw new Error(`${where}: enumerator ${name}: cannot read value \`${text}\``);
            }
            next = text.startsWith('-') ? -BigInt(text.slice(1)) : BigInt(text);
        }
        members.set(name, next);
        next += 1n;
    }
    return members;
}

function readPrototype(statement, header, typedefs, file) {
    const line = statement[0].line;
    const where = `${file}:${line}`;
    const open = statement.findIndex((token) => token.text === '(');
    if (open < 2 || statement.at(-1).text !== ')' || statement[open - 1].kind !== 'identifier') {
        throw new Error(`${where}: cannot read \`${spell(statement)}\``);
    }
    const name = statement[open - 1].text;
    const returns = cType(statement.slice(0, open - 1).filter((t) => t.text !== 'extern'), typedefs, where);
    const inside = statement.slice(open + 1, -1);
    const params = inside.length === 1 && inside[0].text === 'void' ? [] : split(inside, ',').map((param) => {
        const named = param.length > 1 && param.at(-1).kind === 'identifier';
        const typeTokens = named ? param.slice(0, -1) : param;
        return { name: named ? param.at(-1).text : '', type: cType(typeTokens, typedefs, where), spelling: spell(typeTokens) };
    });
    header.functions.set(name, { line, returns, returnSpelling: spell(statement.slice(0, open - 1)), params });
}

// The type that qualifiers, a base name and stars spell.
function cType(tokens, typedefs, where) {
    const words = tokens.map((token) => token.text).filter((text) => text !== 'const' && text !== 'volatile');
    const firstStar = words.includes('*') ? words.indexOf('*') : words.length;
    if (words.slice(firstStar).some((text) => text !== '*')) {
        throw new Error(`${where}: cannot read type \`${words.join(' ')}\``);
    }
    let type = baseType(words.slice(0, firstStar), typedefs, where);
    for (let i = firstStar; i < words.length; i++) type = { kind: 'pointer', to: type };
    return type;
}

function baseType(words, typedefs, where) {
    const text = words.join(' ');
    const builtins = {
        'void': { kind: 'void' },
        'char': { kind: 'char' },
        'int': { kind: 'int', bits: 32, signed: true },
        'unsigned int': { kind: 'int', bits: 32, signed: false },
        'int32_t': { kind: 'int', bits: 32, signed: true },
        'uint32_t': { kind: 'int', bits: 32, signed: false },
        'int64_t': { kind: 'int', bits: 64, signed: true },
        'uint64_t': { kind: 'int', bits: 64, signed: false },
        'size_t': { kind: 'int', bits: 64, signed: false },
        'float': { kind: 'float', bits: 32 },
        'double': { kind: 'float', bits: 64 },
    };
    if (text in builtins) return builtins[text];
    if (words.length === 2 && (words[0] === 'struct' || words[0] === 'union')) return { kind: 'opaque' };
    if (words.length === 1 && typedefs.has(text)) return typedefs.get(text);
    throw new Error(`${where}: unknown type \`${text}\``);
}

function split(tokens, separator) {
    const parts = [[]];
    let depth = 0;
    for (const token of tokens) {
        if (token.text === '(' || token.text === '{') depth++;
        if (token.text === ')' || token.text === '}') depth--;
        if (token.text === separator && depth === 0) parts.push([]);
        else parts.at(-1).push(token);
    }
    return parts;
}

function spell(tokens) {
    return tokens.map((token) => token.text).join(' ');
}

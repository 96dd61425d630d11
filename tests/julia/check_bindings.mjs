// The Julia bindings match the C API:
//   node check_bindings.mjs --parser PREFIX --header asyncgemm.h --library libasyncgemm.so
//                           [--readelf PATH] [--expect TEXT]... PATH...
// For every foreign call in the .jl files under PATHs: its function is declared in the header and
// exported by the library, it passes as many arguments as the header declares, and each argument
// type, and the return type, has the C type's width and kind (type_match.mjs). Every function of
// the header has a foreign call and every enum an @enum of its name, with its members and values
// over a 32-bit base type; every other ASYNCGEMM_* constant has the header's value. Every struct
// typedef has a Julia struct of its name whose fields mirror its members one by one (names, order,
// width and kind), and a pointer to it is passed as a Ptr or Ref to such a struct.
import { parseArgs } from 'node:util';
import path from 'node:path';
import { readHeader } from './c_header.mjs';
import { exportedFunctions } from './elf_exports.mjs';
import { enumerations, foreignCalls, structures } from './julia_bindings.mjs';
import { juliaFiles } from './julia_files.mjs';
import { juliaParser, syntaxErrors } from './julia_parser.mjs';
import { finish, run } from './report.mjs';
import { describe, fieldProblems, juliaType, matches } from './type_match.mjs';

await run('julia bindings', async () => {
    const { values, positionals } = parseArgs({
        options: {
            parser: { type: 'string' },
            header: { type: 'string' },
            library: { type: 'string' },
            readelf: { type: 'string', default: 'readelf' },
            expect: { type: 'string', multiple: true, default: [] },
        },
        allowPositionals: true,
    });
    if (!values.parser || !values.header || !values.library || positionals.length === 0) {
        throw new Error('usage: --parser PREFIX --header H --library L [--readelf R] [--expect TEXT]... PATH...');
    }
    const header = readHeader(values.header);
    const exported = exportedFunctions(values.library, values.readelf);
    const parser = await juliaParser(values.parser);
    const problems = [];
    const bound = new Set(), mirrored = new Set(), mirroredStructs = new Set();
    let callCount = 0, memberCount = 0;
    // Every file is read before any call is checked: a call may pass a struct another file defines.
    const files = juliaFiles(positionals).map((file) => ({ file, tree: parser.parse(file) }));
    const scopes = definitions(files);
    for (const { file, tree } of files) {
        for (const { line, what } of syntaxErrors(tree)) problems.push(`${file}:${line}: ${what}: cannot check it`);
        const defined = scopes.get(file);
        for (const call of foreignCalls(tree)) {
            callCount++;
            if (call.symbol !== null) bound.add(call.symbol);
            problems.push(...checkCall(call, header, exported, values, defined).map((what) => `${file}:${call.line}: ${what}`));
        }
        for (const enumeration of enumerations(tree)) {
            memberCount += enumeration.members.length;
            mirrored.add(enumeration.name);
            problems.push(...checkEnumeration(enumeration, header).map(([line, what]) => `${file}:${line}: ${what}`));
        }
        for (const { name } of structures(tree)) {
            if (name === null || defined.get(name)?.file !== file) continue;
            const declared = header.structs.get(name);
            if (declared !== undefined) {
                mirroredStructs.add(name);
                problems.push(...fieldProblems(declared, defined.get(name))
                    .map(({ line, what }) => `${file}:${line}: struct ${name} ${what}`));
            } else if (name.startsWith('asyncgemm_')) {
                problems.push(`${file}:${defined.get(name).line}: struct ${name}: the header has no struct of that name`);
            }
        }
    }
    for (const [name, declaration] of header.functions) {
        if (!bound.has(name)) problems.push(`${values.header}:${declaration.line}: ${name} has no Julia binding`);
    }
    for (const [name, declaration] of header.enums) {
        if (!mirrored.has(name)) problems.push(`${values.header}:${declaration.line}: ${name} has no Julia @enum`);
    }
    for (const [name, declaration] of header.structs) {
        if (!mirroredStructs.has(name)) problems.push(`${values.header}:${declaration.line}: ${name} has no Julia struct`);
    }
    finish('julia bindings', problems, values.expect,
           `${callCount} foreign calls bind the ${header.functions.size} functions of ${values.header} ` +
           `exported by ${path.basename(values.library)}; ${memberCount} enum constants have its values` +
           [...header.structs.values()].map((struct) => `; the fields of ${struct.name} mirror its ` +
                                            `${struct.members.length} members (${struct.size} bytes)`).join(''));
});

// For each file, the types the Julia sources define by name (@enum and struct), as type_match.mjs
// represents them: the file's own definitions, else the first of another file (a fixture may
// define again, wrongly, what julia/ defines, and its calls then pass its own).
function definitions(files) {
    const own = new Map();  // file -> Map name -> type
    const structs = [];     // [file, parsed struct, its type], to resolve the fields once all are known
    for (const { file, tree } of files) {
        const types = new Map();
        for (const enumeration of enumerations(tree)) {
            if (enumeration.name === null) continue;
            // Julia's default base is Int32.
            const base = enumeration.base === null ? { kind: 'int', bits: 32, signed: true } : juliaType(enumeration.base);
            if (base !== null) types.set(enumeration.name, { ...base, enum: enumeration.name });
        }
        for (const parsed of structures(tree)) {
            if (parsed.name === null) continue;
            const type = { kind: 'struct', name: parsed.name, file, line: parsed.line, fields: [] };
            types.set(parsed.name, type);
            structs.push([file, parsed, type]);
        }
        own.set(file, types);
    }
    const everywhere = new Map();
    for (const types of own.values()) {
        for (const [name, type] of types) if (!everywhere.has(name)) everywhere.set(name, type);
    }
    const scopes = new Map([...own].map(([file, types]) => [file, new Map([...everywhere, ...types])]));
    for (const [file, parsed, type] of structs) {
        type.fields = parsed.fields.map((field) => ({
            name: field.name,
            line: field.line,
            spelling: field.type === null ? null : field.type.text,
            type: field.type === null ? null : juliaType(field.type, scopes.get(file)),
        }));
    }
    return scopes;
}

function checkCall(call, header, exported, { header: headerFile, library }, defined) {
    if (call.symbol === null) return [`${call.why}: cannot check it`];
    const { symbol } = call;
    const declaration = header.functions.get(symbol);
    if (declaration === undefined) return [`${symbol} is not declared in ${headerFile}`];
    const problems = [];
    if (!exported.has(symbol)) problems.push(`${symbol} is not exported by ${path.basename(library)}`);
    if (call.args.length !== declaration.params.length) {
        const count = (n) => `${n} argument${n === 1 ? '' : 's'}`;
        problems.push(`${symbol} passes ${count(call.args.length)}; ${headerFile} declares ` +
                      count(declaration.params.length));
        return problems;
    }
    call.args.forEach((arg, i) => {
        const param = declaration.params[i];
        const what = `${symbol} argument ${i + 1} (${param.name})`;
        if (arg.type === null) {
            problems.push(`${what}: \`${arg.name}\` has no ::Type`);
            return;
        }
        problems.push(...typeProblem(what, arg.type, param.type, param.spelling, defined));
    });
    problems.push(...typeProblem(`${symbol} returns`, call.returns, declaration.returns, declaration.returnSpelling,
                                 defined));
    return problems;
}

function typeProblem(what, node, cType, cSpelling, defined) {
    const julia = juliaType(node, defined);
    const spelled = node === null ? 'Cvoid (the default)' : node.text;
    if (julia === null) return [`${what}: Julia ${spelled} is not a type this check knows`];
    if (matches(cType, julia)) return [];
    if (cType.kind === 'pointer' && cType.to.kind === 'struct' && julia.kind === 'pointer' &&
        julia.to.kind === 'struct' && !julia.device) {
        // The pointer is right; the struct it points to is not: say where and which field.
        const fields = fieldProblems(cType.to, julia.to);
        const more = fields.length > 1 ? ` (and ${fields.length - 1} more)` : '';
        return [`${what}: Julia ${spelled} points to the struct ${julia.to.name} of ${julia.to.file}:${julia.to.line}, ` +
                `which does not mirror the header's ${cType.to.name}: ${fields[0].what}${more}`];
    }
    return [`${what}: Julia ${spelled} is ${describe(julia)}, the header's ${cSpelling} is ${describe(cType)}`];
}

// [line, problem] pairs.
function checkEnumeration(enumeration, header) {
    const problems = [];
    const declared = enumeration.name === null ? undefined : header.enums.get(enumeration.name);
    if (declared !== undefined) {
        // Julia's default base, Int32, is C's enum width.
        if (enumeration.base !== null) {
            const base = juliaType(enumeration.base);
            if (base === null || !matches({ kind: 'int', bits: 32, signed: true }, base)) {
                problems.push([enumeration.line, `@enum ${enumeration.name}::${enumeration.base.text} is not a ` +
                                                 '32-bit signed integer, as C enums are']);
            }
        }
        const named = new Set(enumeration.members.map((member) => member.name));
        for (const name of declared.members.keys()) {
            if (!named.has(name)) problems.push([enumeration.line, `@enum ${enumeration.name} lacks ${name}`]);
        }
    } else if (enumeration.name !== null && enumeration.name.startsWith('asyncgemm_')) {
        problems.push([enumeration.line, `@enum ${enumeration.name}: the header has no enum of that name`]);
    }
    let next = 0n;  // Julia's implicit values, like C's: 0 first, then one more than the member before
    for (const member of enumeration.members) {
        if (member.value === null) {
            problems.push([member.line, `cannot read the enum member \`${member.name}\``]);
            continue;
        }
        const value = member.value ?? next;
        next = value + 1n;
        const expected = declared?.members.get(member.name) ?? enumeratorValue(header, member.name);
        if (expected === undefined) {
            if (declared !== undefined || member.name.startsWith('ASYNCGEMM_')) {
                problems.push([member.line, `${member.name} is not an enumerator of ${declared ? enumeration.name : 'the header'}`]);
            }
        } else if (expected !== value) {
            problems.push([member.line, `${member.name} = ${value}, but the header gives ${expected}`]);
        }
    }
    return problems;
}

function enumeratorValue(header, name) {
    for (const { members } of header.enums.values()) {
        if (members.has(name)) return members.get(name);
    }
    return undefined;
}

// The package's sources and its Project.toml agree, as far as loading it depends on them:
//   node check_project.mjs --parser PREFIX --project Project.toml [--expect TEXT]...
// The sources are the entry file (entryfile, else src/<name>.jl) and every file it include()s,
// recursively. Each package a using/import names is in [deps] (Base, Core and the package itself
// aside), so Pkg installs it. Each macro called by a name ending in "ccall", other than Base's
// @ccall, is selected by name by a using/import (`using GPUToolbox: @gcsafe_ccall`): the bindings
// check takes such macros for ccalls, and a macro no statement brings in fails the load. Each
// [deps] entry has a [compat] entry, as does julia, and each [compat] entry names a dependency, so
// the versions the package admits are stated for all of them.
import { parseArgs } from 'node:util';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { imports, includes, macroCalls } from './julia_imports.mjs';
import { juliaParser, syntaxErrors } from './julia_parser.mjs';
import { readProject } from './project_toml.mjs';
import { finish, run } from './report.mjs';

const ALWAYS_LOADED = new Set(['Base', 'Core']);

await run('julia project', async () => {
    const { values } = parseArgs({
        options: {
            parser: { type: 'string' },
            project: { type: 'string' },
            expect: { type: 'string', multiple: true, default: [] },
        },
    });
    if (!values.parser || !values.project) throw new Error('usage: --parser PREFIX --project Project.toml [--expect TEXT]...');
    const project = readProject(values.project);
    const { deps, weakdeps, extras, compat } = project.tables;
    const parser = await juliaParser(values.parser);
    const problems = [];

    // The sources, in include order, with what each loads.
    const root = path.dirname(values.project);
    const entry = path.join(root, project.entryfile ?? path.join('src', `${project.name}.jl`));
    const files = [], loads = [], selected = new Set(), macros = [];
    const visit = (file, from) => {
        if (files.includes(file)) return;
        if (!existsSync(file)) {
            problems.push(`${from}: ${path.relative(root, file)} does not exist`);
            return;
        }
        files.push(file);
        const tree = parser.parse(file);
        for (const { line, what } of syntaxErrors(tree)) problems.push(`${file}:${line}: ${what}: cannot check it`);
        for (const { line, root: name, names } of imports(tree)) {
            if (name !== null) loads.push({ at: `${file}:${line}`, name });
            names.forEach((selection) => selected.add(selection));
        }
        for (const call of macroCalls(tree)) macros.push({ at: `${file}:${call.line}`, ...call });
        for (const { line, path: included, why } of includes(tree)) {
            if (included === null) problems.push(`${file}:${line}: ${why}: cannot follow it`);
            else visit(path.join(path.dirname(file), included), `${file}:${line}`);
        }
    };
    visit(entry, values.project);

    for (const { at, name } of loads) {
        if (!ALWAYS_LOADED.has(name) && name !== project.name && !deps.has(name)) {
            problems.push(`${at}: ${name} is loaded but not in [deps] of ${values.project}`);
        }
    }
    for (const { at, name, qualified } of macros) {
        if (qualified || name === 'ccall' || !name.endsWith('ccall')) continue;
        if (!selected.has(`@${name}`)) {
            problems.push(`${at}: @${name} is called, but no using/import selects it (using Package: @${name})`);
        }
    }
    for (const [name, { line }] of deps) {
        if (!compat.has(name)) problems.push(`${values.project}:${line}: ${name} is in [deps] but has no [compat] entry`);
    }
    if (!compat.has('julia')) problems.push(`${values.project}: [compat] has no julia entry`);
    for (const [name, { line }] of compat) {
        if (name !== 'julia' && !deps.has(name) && !weakdeps.has(name) && !extras.has(name)) {
            problems.push(`${values.project}:${line}: [compat] names ${name}, which is not a dependency`);
        }
    }
    finish('julia project', problems, values.expect,
           `${files.length} files from ${path.relative(root, entry)} load ${new Set(loads.map((l) => l.name)).size} ` +
           `modules, all in [deps] of ${values.project} with [compat] entries`);
});

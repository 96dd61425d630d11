// The parts of a Julia Project.toml the package check reads: name, entryfile and the [deps],
// [weakdeps], [extras] and [compat] tables. A reader of the flat `key = "value"` lines Pkg writes,
// not a TOML parser: other lines (arrays, inline tables) are skipped.
import { readFileSync } from 'node:fs';

// { name, entryfile (or null), tables: { deps, weakdeps, extras, compat: Map(key -> { line, value }) } }
export function readProject(file) {
    const top = new Map();
    const tables = { deps: new Map(), weakdeps: new Map(), extras: new Map(), compat: new Map() };
    let table = top;
    readFileSync(file, 'utf8').split('\n').forEach((text, i) => {
        const header = text.match(/^\s*\[([^\]]+)\]\s*(#.*)?$/);
        if (header) {
            table = tables[header[1].trim()] ?? null;  // a table not read here
            return;
        }
        const entry = text.match(/^\s*("?)([A-Za-z0-9_.-]+)\1\s*=\s*"([^"]*)"\s*(#.*)?$/);
        if (entry && table !== null) table.set(entry[2], { line: i + 1, value: entry[3] });
    });
    const name = top.get('name')?.value;
    if (!name) throw new Error(`${file} has no name = "..."`);
    return { name, entryfile: top.get('entryfile')?.value ?? null, tables };
}

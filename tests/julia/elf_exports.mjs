// The functions a shared library exports: defined, global or weak, default visibility, as
// `readelf --dyn-syms --wide` lists them (symbol versions such as @@ASYNCGEMM_0 dropped).
import { execFileSync } from 'node:child_process';

export function exportedFunctions(library, readelf = 'readelf') {
    const listing = execFileSync(readelf, ['--dyn-syms', '--wide', library], { encoding: 'utf8' });
    const names = new Set();
    for (const line of listing.split('\n')) {
        // Num: Value Size Type Bind Vis Ndx Name
        const fields = line.trim().split(/\s+/);
        if (fields.length < 8 || !/^\d+:$/.test(fields[0])) continue;
        const [, , , type, bind, visibility, section, name] = fields;
        if (type === 'FUNC' && (bind === 'GLOBAL' || bind === 'WEAK') && visibility === 'DEFAULT' && section !== 'UND') {
            names.add(name.replace(/@.*$/, ''));
        }
    }
    return names;
}

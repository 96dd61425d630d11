// The .jl files named by a list of files and folders (folders searched recursively), sorted.
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';

export function juliaFiles(paths) {
    const files = [];
    for (const given of paths) {
        if (statSync(given).isDirectory()) {
            for (const entry of readdirSync(given, { recursive: true })) {
                if (entry.endsWith('.jl')) files.push(path.join(given, entry));
            }
        } else {
            files.push(given);
        }
    }
    if (files.length === 0) throw new Error(`no .jl file in ${paths.join(', ')}`);
    return files.sort();
}

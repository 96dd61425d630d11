// Every Julia file parses: node check_syntax.mjs --parser PREFIX [--expect TEXT]... PATH...
// PATHs are .jl files or folders searched for them. Any ERROR or MISSING node of tree-sitter-julia's
// tree is a problem, reported as file:line:column.
import { parseArgs } from 'node:util';
import { juliaParser, syntaxErrors } from './julia_parser.mjs';
import { juliaFiles } from './julia_files.mjs';
import { finish, run } from './report.mjs';

await run('julia syntax', async () => {
    const { values, positionals } = parseArgs({
        options: { parser: { type: 'string' }, expect: { type: 'string', multiple: true, default: [] } },
        allowPositionals: true,
    });
    if (!values.parser || positionals.length === 0) throw new Error('usage: --parser PREFIX [--expect TEXT]... PATH...');
    const parser = await juliaParser(values.parser);
    const files = juliaFiles(positionals);
    const problems = [];
    for (const file of files) {
        for (const { line, column, what } of syntaxErrors(parser.parse(file))) {
            problems.push(`${file}:${line}:${column}: ${what}`);
        }
    }
    finish('julia syntax', problems, values.expect, `${files.length} files parse`);
});

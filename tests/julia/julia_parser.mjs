// The Julia grammar of tree-sitter-julia under web-tree-sitter, both installed by npm under a
// prefix in the build tree (install_parser.cmake), not beside these scripts.
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import path from 'node:path';

// A parser for Julia source; `prefix` holds node_modules/web-tree-sitter and node_modules/tree-sitter-julia.
export async function juliaParser(prefix) {
    const require = createRequire(path.join(path.resolve(prefix), 'package.json'));
    const { Parser, Language } = require('web-tree-sitter');
    await Parser.init();
    const julia = await Language.load(require.resolve('tree-sitter-julia/tree-sitter-julia.wasm'));
    const parser = new Parser();
    parser.setLanguage(julia);
    return { parse: (file) => parser.parse(readFileSync(file, 'utf8')) };
}

// The ERROR and MISSING nodes of a tree, in source order, as { line, column, what } (1-based).
// An ERROR node that holds others only frames them, so the innermost ones are reported.
export function syntaxErrors(tree) {
    const errors = [];
    const visit = (node) => {
        const inner = node.children.filter((child) => child.hasError || child.isMissing);
        if (node.isMissing) {
            errors.push(at(node, `missing \`${node.type}\``));
        } else if (node.type === 'ERROR' && inner.length === 0) {
            errors.push(at(node, `syntax error ${describe(node)}`));
        }
        inner.forEach(visit);
    };
    if (tree.rootNode.hasError) visit(tree.rootNode);
    return errors;
}

function describe(node) {
    const [first, last] = [node.startPosition.row + 1, node.endPosition.row + 1];
    if (first !== last) return `in lines ${first}-${last}`;
    const text = node.text.trim();
    return `at \`${text.length > 40 ? text.slice(0, 40) + '...' : text}\``;
}

function at(node, what) {
    return { line: node.startPosition.row + 1, column: node.startPosition.column + 1, what };
}

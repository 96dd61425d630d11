// What a Julia file loads, read from tree-sitter-julia's tree: the files it include()s, the
// modules its using/import statements name and the names they select, and the macros it calls.

// [{ line, path }] for include("literal path"); path is null (with `why`) for any other argument.
export function includes(tree) {
    const found = [];
    walk(tree.rootNode, (node) => {
        if (node.type !== 'call_expression' || node.namedChild(0).text !== 'include') return;
        const args = node.namedChild(1).namedChildren;
        const literal = args.length === 1 && args[0].type === 'string_literal' &&
            args[0].namedChildren.every((part) => part.type === 'content');
        found.push(literal ? { line: line(node), path: args[0].namedChildren.map((part) => part.text).join('') }
                           : { line: line(node), path: null, why: `\`${node.text}\` does not name a file literally` });
    });
    return found;
}

// [{ line, root, names }] per module a using/import statement names: root is the package (the
// first name of A.B.C), null for a relative path (.A, ..A); names are those it selects
// (`using A: x, @m` gives ['x', '@m']), empty for `using A`.
export function imports(tree) {
    const found = [];
    walk(tree.rootNode, (node) => {
        if (node.type !== 'using_statement' && node.type !== 'import_statement') return;
        for (const part of node.namedChildren.filter(isCode)) {
            if (part.type === 'selected_import') {
                const [module, ...selected] = part.namedChildren.filter(isCode);
                found.push({ line: line(node), root: root(module), names: selected.map(boundName) });
            } else {
                found.push({ line: line(node), root: root(part), names: [] });
            }
        }
    });
    return found;
}

// [{ line, name, qualified }] per macro call: name without its @; qualified for M.@name.
export function macroCalls(tree) {
    const found = [];
    walk(tree.rootNode, (node) => {
        if (node.type !== 'macrocall_expression') return;
        const macro = node.namedChildren.find((child) => child.type === 'macro_identifier');
        const qualified = node.namedChild(0).type !== 'macro_identifier';  // M.@name: M comes first
        found.push({ line: line(node), name: macro.namedChild(0).text, qualified });
    });
    return found;
}

function walk(node, visit) {
    visit(node);
    for (const child of node.namedChildren) walk(child, visit);
}

const line = (node) => node.startPosition.row + 1;

const isCode = (node) => node.type !== 'line_comment' && node.type !== 'block_comment';

function root(node) {
    switch (node.type) {
        case 'identifier': return node.text;
        case 'scoped_identifier':
        case 'import_alias': return root(node.namedChild(0));
        default: return null;  // import_path: .A, ..A.B
    }
}

// The name a selection binds: `x`, `@m`, or the alias of `x as y`.
function boundName(node) {
    if (node.type === 'import_alias') return boundName(node.namedChildren.at(-1));
    if (node.type === 'macro_identifier') return `@${node.namedChild(0).text}`;
    return node.text;
}

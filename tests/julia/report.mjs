// How both checks end. A check collects problems, one line each ("file:line: what"); it passes
// with none. Run with --expect TEXT (repeatable) it is a negative test instead: it passes only when
// it fails and, for every TEXT, some problem contains it, so a planted mistake proves the check
// catches it. Exit codes: 0 pass, 1 fail, 2 the check could not run at all.

export function finish(name, problems, expected, summary) {
    for (const problem of problems) console.log(problem);
    if (expected.length === 0) {
        if (problems.length === 0) {
            console.log(`${name}: ${summary}`);
            process.exit(0);
        }
        console.log(`${name}: ${problems.length} problem(s)`);
        process.exit(1);
    }
    const unseen = expected.filter((text) => !problems.some((problem) => problem.includes(text)));
    if (problems.length > 0 && unseen.length === 0) {
        console.log(`${name}: failed as expected, reporting every planted problem`);
        process.exit(0);
    }
    if (problems.length === 0) console.log(`${name}: passed, but was expected to fail`);
    for (const text of unseen) console.log(`${name}: expected a problem containing "${text}"; none was reported`);
    process.exit(1);
}

// Runs main(), turning anything it throws into exit status 2 with the message.
export async function run(name, main) {
    try {
        await main();
    } catch (err) {
        console.error(`${name}: cannot run: ${err.message}`);
        process.exit(2);
    }
}

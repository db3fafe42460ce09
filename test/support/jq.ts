// `jq` for tests that run the README's shell commands: jq itself (jq-wasm, jq compiled to WebAssembly),
// so a machine without the jq package runs them as a reader's shell with jq installed would.
// Usage as jq's: jq [flags] FILTER [FILE]; the input is FILE, or standard input.
import { readFileSync } from 'node:fs';
import { raw } from 'jq-wasm';

const args = process.argv.slice(2);
const flags = args.filter((arg) => arg.startsWith('-'));
const [filter, file] = args.filter((arg) => !arg.startsWith('-'));
if (filter === undefined) {
  process.stderr.write('usage: jq [flags] FILTER [FILE]\n');
  process.exit(2);
}
const input = readFileSync(file ?? 0, 'utf8');
try {
  const output = await raw(input, filter, flags);
  process.stdout.write(output.endsWith('\n') || output === '' ? output : `${output}\n`);
} catch (error) {
  process.stderr.write(`jq: ${(error as Error).message}\n`);
  process.exit(5);
}

// Parses every Mermaid diagram gpuplan writes with Mermaid's own parser (mermaid.parse under a
// jsdom window), so a chart that GitHub would fail to render fails the tests.
//
// Usage: node check_mermaid.mjs PATH...
// A PATH that is a folder is searched recursively: `*.mmd` files are one diagram each; `*.md`
// files and golden `stdout` files contribute each of their ```mermaid blocks. Exit 0 when every
// diagram parses and at least one was found, 1 otherwise (each problem printed as FILE: message).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { JSDOM } from 'jsdom';

const dom = new JSDOM('<!doctype html><html><body></body></html>');
globalThis.window = dom.window;
globalThis.document = dom.window.document;
const { default: mermaid } = await import('mermaid');
mermaid.initialize({ startOnLoad: false });

function* files(path) {
  if (statSync(path).isDirectory()) {
    for (const name of readdirSync(path).sort()) {
      yield* files(join(path, name));
    }
  } else {
    yield path;
  }
}

function diagrams(path) {
  const text = readFileSync(path, 'utf8');
  if (path.endsWith('.mmd')) {
    return [text];
  }
  if (!path.endsWith('.md') && !path.endsWith('/stdout')) {
    return [];
  }
  const found = [];
  const fence = /^```mermaid\n([\s\S]*?)^```$/gm;
  for (let match = fence.exec(text); match !== null; match = fence.exec(text)) {
    found.push(match[1]);
  }
  return found;
}

let checked = 0;
let failed = 0;
for (const root of process.argv.slice(2)) {
  for (const path of files(root)) {
    for (const diagram of diagrams(path)) {
      checked += 1;
      try {
        const result = await mermaid.parse(diagram);
        if (!result || result.diagramType !== 'xychart') {
          throw new Error(`expected an xychart, got ${result && result.diagramType}`);
        }
      } catch (error) {
        failed += 1;
        console.error(`${path}: Mermaid parse error: ${String(error.message).split('\n').join(' ')}`);
      }
    }
  }
}
if (checked === 0) {
  console.error('check_mermaid: no Mermaid diagram found');
  process.exit(1);
}
console.log(`check_mermaid: ${checked - failed} of ${checked} diagrams parse`);
process.exit(failed === 0 ? 0 : 1);

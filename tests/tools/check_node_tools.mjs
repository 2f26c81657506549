// Checks that the node packages the Mermaid tests use are installed in tests/tools/node_modules
// at the versions tests/tools/package.json pins. The tests never download anything: the install
// is README's first Quick-start line (`npm ci --prefix tests/tools`), and .ci/run does the same.
//
// Usage: node check_node_tools.mjs. Exit 0 when every package is there at its version, 1 with
// the command to run otherwise.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const tools = dirname(fileURLToPath(import.meta.url));
const wanted = JSON.parse(readFileSync(join(tools, 'package.json'), 'utf8')).dependencies;
const problems = [];
for (const [name, version] of Object.entries(wanted)) {
  let installed = null;
  try {
    installed = JSON.parse(readFileSync(join(tools, 'node_modules', name, 'package.json'), 'utf8'))
      .version;
  } catch {
    problems.push(`${name} ${version} is not installed`);
    continue;
  }
  if (installed !== version) {
    problems.push(`${name} is ${installed}, package.json pins ${version}`);
  }
}
if (problems.length > 0) {
  for (const problem of problems) {
    console.error(`check_node_tools: error: tests/tools/node_modules: ${problem}`);
  }
  console.error('check_node_tools: run `npm ci --prefix tests/tools` in the source folder ' +
                '(README, Quick start, second line)');
  process.exit(1);
}
console.log(`check_node_tools: ${Object.keys(wanted).length} packages installed on node ` +
            `${process.versions.node}`);

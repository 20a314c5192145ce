// Parses each Mermaid file named on the command line with the mermaid package's own
// parser (in a jsdom window, which mermaid needs), printing "ok FILE" or "FAIL FILE:
// message"; exits 1 when any fails. NODE_PATH must hold mermaid and jsdom.
import { createRequire } from 'module';
import fs from 'fs';
import path from 'path';

const require = createRequire(path.join(process.env.NODE_PATH || '.', 'x.js'));
const { JSDOM } = require('jsdom');
const dom = new JSDOM('<!doctype html><html><body></body></html>');
globalThis.window = dom.window;
globalThis.document = dom.window.document;
const mermaid = (await import(require.resolve('mermaid'))).default;
mermaid.initialize({ startOnLoad: false });

let failed = 0;
for (const file of process.argv.slice(2)) {
  try {
    await mermaid.parse(fs.readFileSync(file, 'utf8'));
    console.log('ok ' + file);
  } catch (e) {
    failed++;
    console.log('FAIL ' + file + ': ' + String(e.message || e).split('\n').slice(0, 3).join(' '));
  }
}
process.exit(failed ? 1 : 0);

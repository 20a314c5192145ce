// The end-to-end test of dws lsp with the client VS Code itself uses
// (vscode-languageserver-protocol over vscode-jsonrpc), driving the real binary over
// stdio. Usage:
//   node client.cjs test  DWS DIR   every feature, on the files in DIR (expense.json, .dws.yaml, …)
//   node client.cjs bench DWS DIR EDITS
//                                   didChange → publishDiagnostics latency on DIR/big.json
//   node client.cjs messages DWS DIR
//                                   messages the server cannot handle, each followed by a
//                                   request it must still answer (DIR/expense.json)
//   node client.cjs lifecycle DWS DIR
//                                   requests before initialize, a second initialize, a
//                                   request after shutdown; exit then ends it with 0
//   node client.cjs exit-without-shutdown DWS DIR
//                                   exit without shutdown: exit code 1
//   node client.cjs huge-files DWS DIR
//                                   a lockfile and a .dws.yaml grown to 3 GiB (sparse)
//                                   under an open DIR/expense.json; the server runs with
//                                   2 GB of address space, so reading either whole kills it
//   node client.cjs rename-quoting DWS DIR
//                                   renames whose new name the file's syntax must quote or
//                                   escape (DIR/flow.yaml, DIR/flow.json)
//   node client.cjs lens-bound DWS DIR WHY
//                                   the code lens of DIR/ring.yaml, whose simulation a
//                                   bound stops: "not simulated: WHY"
//   node client.cjs lens-cancel DWS DIR
//                                   code lens requests on DIR/slow.json (a definition
//                                   slow to simulate), cancelled
// It prints one line per check ("ok NAME") and exits 1 at the first failure.
'use strict';
const { spawn } = require('child_process');
const fs = require('fs');
const path = require('path');
const rpc = require('vscode-jsonrpc/node');
const lsp = require('vscode-languageserver-protocol/node');

const [mode, dws, dir, editsArg] = process.argv.slice(2);
const server = mode === 'huge-files'
  ? spawn('sh', ['-c', 'ulimit -v 2000000 && exec "$0" lsp', dws], { cwd: dir, stdio: ['pipe', 'pipe', 'inherit'] })
  : spawn(dws, ['lsp'], { cwd: dir, stdio: ['pipe', 'pipe', 'inherit'] });
// Settles (rejects) only if the server ends before stop() asks it to.
let stopping = false;
const died = new Promise((_, reject) => server.on('exit', (code, signal) => {
  if (!stopping) reject(new Error(`the server died (${signal || 'exit code ' + code})`));
}));
died.catch(() => {});
const conn = lsp.createProtocolConnection(
  new rpc.StreamMessageReader(server.stdout), new rpc.StreamMessageWriter(server.stdin));

const published = new Map(); // uri -> [{version, diagnostics, at}]
const waiters = [];
conn.onNotification(lsp.PublishDiagnosticsNotification.type, (p) => {
  const at = process.hrtime.bigint();
  if (!published.has(p.uri)) published.set(p.uri, []);
  published.get(p.uri).push({ version: p.version, diagnostics: p.diagnostics, at });
  for (const w of waiters.slice()) {
    if (w.uri === p.uri && (w.version === undefined || w.version === p.version || (w.version === 'none' && p.version == null))) {
      waiters.splice(waiters.indexOf(w), 1);
      w.resolve({ diagnostics: p.diagnostics, at });
    }
  }
});
// The server's registration of its file watchers (it asks once initialized).
let registered;
const registration = new Promise((resolve) => { registered = resolve; });
conn.onRequest(lsp.RegistrationRequest.type, (p) => { registered(p); });
conn.listen();

function diagnostics(uri, version) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no diagnostics for ${uri} v${version}`)), 20000);
    waiters.push({ uri, version, resolve: (x) => { clearTimeout(timer); resolve(x); } });
  });
}

function fail(msg) {
  console.log('FAIL ' + msg);
  server.kill('SIGKILL');
  process.exit(1);
}
function check(name, cond, detail) {
  if (!cond) fail(`${name}: ${typeof detail === 'string' ? detail : JSON.stringify(detail)}`);
  console.log('ok ' + name);
}
const uriOf = (name) => 'file://' + path.join(fs.realpathSync(dir), name);
const codes = (ds) => ds.map((d) => d.code).join(' ');

// Position of the n-th occurrence of sub in text (plus skip characters), in UTF-16
// units as LSP counts them (JavaScript strings are UTF-16).
function positionOf(text, sub, n = 0, skip = 0) {
  let off = -1;
  for (let i = 0; i <= n; i++) {
    off = text.indexOf(sub, off + 1);
    if (off < 0) throw new Error(`${sub} occurs fewer than ${n + 1} times`);
  }
  off += skip;
  const before = text.slice(0, off).split('\n');
  return { line: before.length - 1, character: before[before.length - 1].length };
}
function offsetOf(text, pos) {
  const lines = text.split('\n');
  let off = 0;
  for (let i = 0; i < pos.line; i++) off += lines[i].length + 1;
  return off + pos.character;
}
function applyEdits(text, edits) {
  const sorted = edits.slice().sort((a, b) => offsetOf(text, b.range.start) - offsetOf(text, a.range.start));
  for (const e of sorted) {
    text = text.slice(0, offsetOf(text, e.range.start)) + e.newText + text.slice(offsetOf(text, e.range.end));
  }
  return text;
}

async function start() {
  const init = await conn.sendRequest(lsp.InitializeRequest.type, {
    processId: process.pid, rootUri: 'file://' + fs.realpathSync(dir), capabilities: {
      textDocument: { publishDiagnostics: { versionSupport: true, codeDescriptionSupport: true } },
      workspace: { didChangeWatchedFiles: { dynamicRegistration: true } },
      general: { positionEncodings: ['utf-16'] },
    }, workspaceFolders: null,
  });
  conn.sendNotification(lsp.InitializedNotification.type, {});
  return init;
}

async function stop() {
  await conn.sendRequest(lsp.ShutdownRequest.type);
  return exit();
}

// The server's exit code once exit is sent.
async function exit() {
  stopping = true;
  conn.sendNotification(lsp.ExitNotification.type);
  const code = await new Promise((resolve) => {
    const t = setTimeout(() => resolve('still running'), 5000);
    server.on('exit', (c) => { clearTimeout(t); resolve(c); });
  });
  return code;
}

async function test() {
  const init = await start();
  check('initialize', init.capabilities.definitionProvider && init.capabilities.renameProvider &&
    init.capabilities.textDocumentSync.change === lsp.TextDocumentSyncKind.Incremental, init.capabilities);

  const uri = uriOf('expense.json');
  let text = fs.readFileSync(path.join(dir, 'expense.json'), 'utf8');
  let version = 1;
  conn.sendNotification(lsp.DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'json', version, text } });
  let { diagnostics: ds } = await diagnostics(uri, version);
  check('open: the seed example is clean', ds.length === 0, ds);
  const reg = await within(registration, 'the registration of file watchers');
  const watch = reg.registrations.find((r) => r.method === 'workspace/didChangeWatchedFiles');
  check('the server registers its file watchers', watch && watch.registerOptions.watchers.some((w) => w.globPattern === '**/.dws.yaml'), reg);

  // Typing a new onSuccess target, one incremental change.
  const at = positionOf(text, '"auto-approve"', 0, 1);
  const typo = { range: { start: at, end: { line: at.line, character: at.character + 'auto-approve'.length } }, text: 'auto-aprove' };
  text = applyEdits(text, [{ range: typo.range, newText: typo.text }]);
  version++;
  conn.sendNotification(lsp.DidChangeTextDocumentNotification.type, { textDocument: { uri, version }, contentChanges: [typo] });
  ({ diagnostics: ds } = await diagnostics(uri, version));
  const dangling = ds.find((d) => d.code === 'dangling-edge');
  check('change: dangling-edge at the new target', dangling &&
    dangling.range.start.line === at.line && dangling.range.start.character === at.character - 1 &&
    dangling.range.end.character === at.character + 'auto-aprove'.length + 1 &&
    dangling.codeDescription.href === 'https://dws.dev/rules/dangling-edge', ds);

  // The quick fix to the nearest id, applied and re-checked.
  const actions = await conn.sendRequest(lsp.CodeActionRequest.type, {
    textDocument: { uri }, range: dangling.range, context: { diagnostics: [dangling] } });
  const fix = actions.find((a) => a.isPreferred);
  check('code action: change to the nearest id', fix && fix.title === 'Change "auto-aprove" to "auto-approve"', actions);
  const edits = fix.edit.changes[uri];
  text = applyEdits(text, edits);
  version++;
  conn.sendNotification(lsp.DidChangeTextDocumentNotification.type, { textDocument: { uri, version },
    contentChanges: edits.map((e) => ({ range: e.range, text: e.newText })) });
  ({ diagnostics: ds } = await diagnostics(uri, version));
  check('quick fix applied: clean again', ds.length === 0, ds);

  // Go to definition from an onFailure target.
  const def = await conn.sendRequest(lsp.DefinitionRequest.type, { textDocument: { uri }, position: positionOf(text, '"mark-fail"', 0, 2) });
  const idAt = positionOf(text, '"id": "mark-fail"', 0, '"id": "'.length);
  check('definition: the step the edge names', def && def.uri === uri && def.range.start.line === idAt.line &&
    def.range.start.character === idAt.character, def);

  const refs = await conn.sendRequest(lsp.ReferencesRequest.type, { textDocument: { uri }, position: idAt, context: { includeDeclaration: false } });
  check('references: every edge that names the step', refs.length === 3, refs);

  // Rename across every edge.
  const rename = await conn.sendRequest(lsp.RenameRequest.type, { textDocument: { uri }, position: idAt, newName: 'flag-failed' });
  text = applyEdits(text, rename.changes[uri]);
  check('rename: the id and its three edges', rename.changes[uri].length === 4 && !text.includes('mark-fail'), rename);
  version++;
  conn.sendNotification(lsp.DidChangeTextDocumentNotification.type, { textDocument: { uri, version }, contentChanges: [{ text }] });
  ({ diagnostics: ds } = await diagnostics(uri, version));
  check('rename applied: clean', ds.length === 0, ds);

  // Completion of node ids in an edge field, on half-typed JSON.
  const half = text.replace('"onSuccess": "auto-approve", "onFailure": "manager-approve" },', '"onSuccess": "au');
  version++;
  conn.sendNotification(lsp.DidChangeTextDocumentNotification.type, { textDocument: { uri, version }, contentChanges: [{ text: half }] });
  ({ diagnostics: ds } = await diagnostics(uri, version));
  check('half-typed JSON: a parse finding, no crash', codes(ds) === 'parse', ds);
  const comp = await conn.sendRequest(lsp.CompletionRequest.type, { textDocument: { uri }, position: positionOf(half, '"onSuccess": "au', 0, '"onSuccess": "au'.length) });
  const items = (Array.isArray(comp) ? comp : comp.items).map((i) => i.label);
  check('completion: node ids in an edge field', items.includes('auto-approve') && items.includes('flag-failed'), items);
  version++;
  conn.sendNotification(lsp.DidChangeTextDocumentNotification.type, { textDocument: { uri, version }, contentChanges: [{ text }] });
  await diagnostics(uri, version);

  const hover = await conn.sendRequest(lsp.HoverRequest.type, { textDocument: { uri }, position: positionOf(text, '"auto-approve"', 0, 2) });
  check('hover: the target step', hover && hover.contents.value.includes('**auto-approve** (sql)'), hover);

  const syms = await conn.sendRequest(lsp.DocumentSymbolRequest.type, { textDocument: { uri } });
  check('document symbols: the five steps', syms.map((s) => s.name).join(' ') === 'fraud-score branch-approve auto-approve manager-approve flag-failed', syms);

  const lenses = await conn.sendRequest(lsp.CodeLensRequest.type, { textDocument: { uri } });
  check('code lens: path counts', lenses.length === 1 && lenses[0].command.title === '8 paths · 5 succeed · 3 fail', lenses);
  const sim = await conn.sendRequest(lsp.ExecuteCommandRequest.type, { command: lenses[0].command.command, arguments: lenses[0].command.arguments });
  check('code lens command: the covering paths', typeof sim === 'string' && sim.includes('5 paths cover all 10 edges'), sim);

  // UTF-16 columns: a YAML definition with emoji and CJK before a dangling edge.
  const yuri = uriOf('flow.yaml');
  const ytext = 'schemaVersion: "1.0"\nname: "😀 経費"\nversion: v1.0\nsteps:\n  - { id: a, type: sleep, params: { seconds: 1 }, description: "😀😀 経費", onSuccess: nowhere }\n';
  conn.sendNotification(lsp.DidOpenTextDocumentNotification.type, { textDocument: { uri: yuri, languageId: 'yaml', version: 1, text: ytext } });
  ({ diagnostics: ds } = await diagnostics(yuri, 1));
  const y = ds.find((d) => d.code === 'dangling-edge');
  const yat = positionOf(ytext, 'nowhere');
  check('UTF-16 columns with emoji and CJK', y && y.range.start.line === yat.line && y.range.start.character === yat.character &&
    y.range.end.character === yat.character + 7, ds);

  // "Ignore with a reason" writes a placeholder reason: it hides nothing and warns, at the
  // comment, until the user writes the reason.
  const yacts = await conn.sendRequest(lsp.CodeActionRequest.type, {
    textDocument: { uri: yuri }, range: y.range, context: { diagnostics: [y] } });
  const waive = yacts.find((a) => a.title === 'Ignore dangling-edge on this line, with a reason');
  check('code action: ignore with a reason', waive && waive.edit && waive.edit.changes[yuri], yacts);
  let ytext2 = applyEdits(ytext, waive.edit.changes[yuri]);
  conn.sendNotification(lsp.DidChangeTextDocumentNotification.type, { textDocument: { uri: yuri, version: 2 }, contentChanges: [{ text: ytext2 }] });
  ({ diagnostics: ds } = await diagnostics(yuri, 2));
  const placeholder = ds.find((d) => d.code === 'unused-suppression');
  check('placeholder reason: the finding stays, and the comment warns', ds.some((d) => d.code === 'dangling-edge') && placeholder &&
    placeholder.severity === lsp.DiagnosticSeverity.Warning && placeholder.message.includes('the reason is still the placeholder') &&
    placeholder.range.start.line === 4, ds);
  ytext2 = ytext2.replace(/-- .*\n/, '-- the next step is written later\n');
  conn.sendNotification(lsp.DidChangeTextDocumentNotification.type, { textDocument: { uri: yuri, version: 3 }, contentChanges: [{ text: ytext2 }] });
  ({ diagnostics: ds } = await diagnostics(yuri, 3));
  check('reason written: waived, no warning', !ds.some((d) => d.code === 'dangling-edge' || d.code === 'unused-suppression'), ds);

  // Rule ids in a dws:ignore comment.
  const c2 = await conn.sendRequest(lsp.CompletionRequest.type, { textDocument: { uri: yuri }, position: { line: 0, character: 0 } });
  check('completion elsewhere answers', c2 !== undefined, c2);

  // A config change re-checks the open documents: without sql:, no table is allowed.
  fs.writeFileSync(path.join(dir, '.dws.yaml'), 'version: 1\ncortex: { prompt_templates: prompt_templates.yaml }\n');
  conn.sendNotification(lsp.DidChangeWatchedFilesNotification.type, { changes: [{ uri: uriOf('.dws.yaml'), type: lsp.FileChangeType.Changed }] });
  ({ diagnostics: ds } = await diagnostics(uri, version));
  check('config change: open documents re-checked', ds.some((d) => d.code === 'sql-table'), ds);

  // A broken config: one diagnostic on it, and the server lives on.
  fs.writeFileSync(path.join(dir, '.dws.yaml'), 'version: 1\nrules: { dangling-edg: off }\n');
  conn.sendNotification(lsp.DidChangeWatchedFilesNotification.type, { changes: [{ uri: uriOf('.dws.yaml'), type: lsp.FileChangeType.Changed }] });
  ({ diagnostics: ds } = await diagnostics(uriOf('.dws.yaml')));
  check('broken config: a diagnostic on .dws.yaml', ds.length === 1 && ds[0].message.includes('dangling-edg') && ds[0].range.start.line === 1, ds);

  // Unknown document: an error response, not a crash.
  let err = null;
  try {
    await conn.sendRequest(lsp.HoverRequest.type, { textDocument: { uri: uriOf('never-opened.json') }, position: { line: 0, character: 0 } });
  } catch (e) { err = e; }
  check('unknown document: an error response', err && /no open document/.test(err.message), String(err));

  conn.sendNotification(lsp.DidCloseTextDocumentNotification.type, { textDocument: { uri } });
  ({ diagnostics: ds } = await diagnostics(uri, 'none')); // the clearing carries no version
  check('close: diagnostics cleared', ds.length === 0, ds);

  const code = await stop();
  check('shutdown and exit: the server ends', code === 0, String(code));
}

async function bench() {
  const edits = Number(editsArg || 1000);
  await start();
  const uri = uriOf('big.json');
  const text = fs.readFileSync(path.join(dir, 'big.json'), 'utf8');
  let version = 1;
  conn.sendNotification(lsp.DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'json', version, text } });
  await diagnostics(uri, version);
  // Each edit retypes one character of a description: "Generated" <-> "generated".
  const at = positionOf(text, 'Generated for the dws benchmark');
  const range = { start: at, end: { line: at.line, character: at.character + 1 } };
  const lat = [];
  const rss = [];
  for (let i = 0; i < edits; i++) {
    version++;
    const t0 = process.hrtime.bigint();
    conn.sendNotification(lsp.DidChangeTextDocumentNotification.type, {
      textDocument: { uri, version }, contentChanges: [{ range, text: i % 2 ? 'G' : 'g' }] });
    const { at: t1 } = await diagnostics(uri, version);
    lat.push(Number(t1 - t0) / 1e6);
    if ((i + 1) % 1000 === 0) {
      const status = fs.readFileSync(`/proc/${server.pid}/status`, 'utf8');
      rss.push(Number(/VmRSS:\s+(\d+)/.exec(status)[1]) / 1024);
    }
  }
  lat.sort((a, b) => a - b);
  const q = (p) => lat[Math.min(lat.length - 1, Math.floor(p * lat.length))];
  console.log(JSON.stringify({ edits, bytes: Buffer.byteLength(text), p50: q(0.5), p99: q(0.99), max: lat[lat.length - 1], rssMB: rss }));
  await stop();
}

// Within a deadline, or the reason it did not come: a server that stopped answering
// fails the check instead of hanging the test.
function within(promise, what, ms = 20000) {
  let timer;
  return Promise.race([promise.finally(() => clearTimeout(timer)), died,
    new Promise((_, reject) => { timer = setTimeout(() => reject(new Error(`no answer to ${what} within ${ms} ms`)), ms); })]);
}
// The error a request is answered with, or null when it succeeds.
async function errorOf(promise, what) {
  try {
    await within(promise, what);
    return null;
  } catch (e) {
    if (e instanceof rpc.ResponseError) return e;
    throw e;
  }
}

// Messages the server cannot handle: LSP lets a server ignore any notification it does
// not know ("$/" ones explicitly), and a request it cannot serve gets an error response.
// After each, the server must still answer requests, shutdown included.
async function messages() {
  await start();
  const uri = uriOf('expense.json');
  const text = fs.readFileSync(path.join(dir, 'expense.json'), 'utf8');
  conn.sendNotification(lsp.DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'json', version: 1, text } });
  await diagnostics(uri, 1);
  const at = positionOf(text, '"auto-approve"', 0, 2);
  let n = 0;
  const alive = async (after) => {
    const hover = await within(conn.sendRequest(lsp.HoverRequest.type, { textDocument: { uri }, position: at }), `a hover after ${after}`);
    check(`still serving after ${after}`, hover && hover.contents.value.includes('**auto-approve**'), hover);
    // A change is still checked and published, too.
    n++;
    conn.sendNotification(lsp.DidChangeTextDocumentNotification.type, { textDocument: { uri, version: 1 + n }, contentChanges: [{ text }] });
    await within(diagnostics(uri, 1 + n), `the diagnostics of a change after ${after}`);
  };
  const notifications = [
    ['$/dws.unknown', { x: 1 }],
    ['$/cancelRequest', { id: { not: 'an id' } }],
    ['$/cancelRequest', { id: 987654 }],
    ['$/progress', 'not an object'],
    ['custom/notification', {}],
    ['textDocument/didSave', { textDocument: 5 }],
    ['textDocument/didChange', { textDocument: { uri }, contentChanges: 'x' }],
    ['textDocument/didOpen', []],
    ['workspace/didChangeConfiguration', 7],
    ['workspace/didChangeWatchedFiles', { changes: [{ uri: 5, type: 'x' }] }],
    ['initialized', [1, 2]],
  ];
  for (const [method, params] of notifications) {
    conn.sendNotification(method, params);
    await alive(`the notification ${method} ${JSON.stringify(params)}`);
  }
  const requests = [
    ['custom/request', {}, rpc.ErrorCodes.MethodNotFound],
    ['$/dws.unknown', {}, rpc.ErrorCodes.MethodNotFound],
    // Without params (the client then sends none): still MethodNotFound.
    ['custom/request', undefined, rpc.ErrorCodes.MethodNotFound],
    ['$/dws.unknown', undefined, rpc.ErrorCodes.MethodNotFound],
    ['textDocument/hover', undefined, rpc.ErrorCodes.InvalidParams],
    ['textDocument/formatting', { textDocument: { uri }, options: { tabSize: 2, insertSpaces: true } }, rpc.ErrorCodes.MethodNotFound],
    ['textDocument/hover', { textDocument: 7, position: 'x' }, rpc.ErrorCodes.InvalidParams],
    ['textDocument/codeLens', [], rpc.ErrorCodes.InvalidParams],
    ['textDocument/rename', { textDocument: { uri }, position: { line: 'a' } }, rpc.ErrorCodes.InvalidParams],
  ];
  for (const [method, params, code] of requests) {
    const sent = params === undefined ? conn.sendRequest(method) : conn.sendRequest(method, params);
    const err = await errorOf(sent, `the request ${method}`);
    check(`${method} ${JSON.stringify(params)}: error ${code}`, err && err.code === code, err ? `${err.code} ${err.message}` : 'a result');
    await alive(`the request ${method} ${JSON.stringify(params)}`);
  }
  const code = await within(stop(), 'shutdown and exit');
  check('shutdown and exit: the server ends', code === 0, String(code));
}

// LSP's lifecycle (3.17): a request before initialize is answered ServerNotInitialized
// (and a notification dropped), initialize is answered once, a request after shutdown
// is InvalidRequest, and exit after shutdown ends the server with exit code 0.
async function lifecycle() {
  const uri = uriOf('expense.json');
  const text = fs.readFileSync(path.join(dir, 'expense.json'), 'utf8');
  const at = positionOf(text, '"auto-approve"', 0, 2);
  const hover = () => conn.sendRequest(lsp.HoverRequest.type, { textDocument: { uri }, position: at });
  let err = await errorOf(hover(), 'a hover before initialize');
  check('a request before initialize: ServerNotInitialized', err && err.code === -32002, err ? `${err.code} ${err.message}` : 'a result');
  err = await errorOf(conn.sendRequest(lsp.ShutdownRequest.type), 'shutdown before initialize');
  check('shutdown before initialize: ServerNotInitialized', err && err.code === -32002, err ? `${err.code} ${err.message}` : 'a result');
  conn.sendNotification(lsp.DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'json', version: 1, text } });
  await within(start(), 'initialize');
  err = await errorOf(hover(), 'a hover after initialize, on a document opened before it');
  check('a notification before initialize is dropped', err && /no open document/.test(err.message), err ? `${err.code} ${err.message}` : 'a result');
  err = await errorOf(conn.sendRequest(lsp.InitializeRequest.type, { processId: null, rootUri: null, capabilities: {} }), 'initialize again');
  check('initialize again: InvalidRequest', err && err.code === rpc.ErrorCodes.InvalidRequest, err ? `${err.code} ${err.message}` : 'a result');
  conn.sendNotification(lsp.DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'json', version: 1, text } });
  await within(diagnostics(uri, 1), 'the diagnostics of didOpen');
  const h = await within(hover(), 'a hover');
  check('serving once initialized', h && h.contents.value.includes('**auto-approve**'), h);
  await within(conn.sendRequest(lsp.ShutdownRequest.type), 'shutdown');
  err = await errorOf(hover(), 'a hover after shutdown');
  check('a request after shutdown: InvalidRequest', err && err.code === rpc.ErrorCodes.InvalidRequest, err ? `${err.code} ${err.message}` : 'a result');
  const code = await exit();
  check('exit after shutdown: exit code 0', code === 0, String(code));
}

// exit without shutdown: LSP has the server exit with code 1.
async function exitWithoutShutdown() {
  await start();
  const code = await exit();
  check('exit without shutdown: exit code 1', code === 1, String(code));
}

// Code lens requests on a definition that is slow to simulate, cancelled as an editor
// cancels them when the user scrolls or types: each is answered RequestCancelled at
// once, and the server goes on answering.
async function lensCancel() {
  await start();
  const uri = uriOf('slow.json');
  const text = fs.readFileSync(path.join(dir, 'slow.json'), 'utf8');
  conn.sendNotification(lsp.DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'json', version: 1, text } });
  const { diagnostics: ds } = await diagnostics(uri, 1);
  check('the slow definition validates (so its lens simulates)', !ds.some((d) => d.severity === lsp.DiagnosticSeverity.Error), ds);
  const sources = [];
  const answers = [];
  for (let i = 0; i < 4; i++) {
    const source = new rpc.CancellationTokenSource();
    sources.push(source);
    answers.push(errorOf(conn.sendRequest(lsp.CodeLensRequest.type, { textDocument: { uri } }, source.token), `code lens request ${i + 1}`));
  }
  // A request answered after them: the server has read the four and started on them.
  const at = positionOf(text, '"yes-path"', 0, 2);
  await within(conn.sendRequest(lsp.HoverRequest.type, { textDocument: { uri }, position: at }), 'a hover after four code lens requests');
  for (const source of sources) source.cancel();
  for (let i = 0; i < answers.length; i++) {
    const err = await answers[i];
    check(`code lens request ${i + 1}, cancelled: RequestCancelled`, err && err.code === lsp.LSPErrorCodes.RequestCancelled,
      err ? `${err.code} ${err.message}` : 'a result: the simulation ran to its end');
  }
  const hover = await within(conn.sendRequest(lsp.HoverRequest.type, { textDocument: { uri }, position: at }), 'a hover after the cancellations');
  check('still serving after the cancellations', hover && hover.contents.value.includes('**yes-path**'), hover);
  const code = await within(stop(), 'shutdown and exit');
  check('shutdown and exit: the server ends', code === 0, String(code));
}

// A definition whose simulation a bound stops: its code lens says so, in the words of
// dws simulate's text report (given), and clicking it gives that report.
async function lensBound() {
  const why = editsArg;
  await start();
  const uri = uriOf('ring.yaml');
  const text = fs.readFileSync(path.join(dir, 'ring.yaml'), 'utf8');
  conn.sendNotification(lsp.DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'yaml', version: 1, text } });
  const { diagnostics: ds } = await diagnostics(uri, 1);
  check('the ring validates (so its lens simulates)', !ds.some((d) => d.severity === lsp.DiagnosticSeverity.Error), ds);
  // The lens's time bound is a minute: the deadline is past it.
  const lenses = await within(conn.sendRequest(lsp.CodeLensRequest.type, { textDocument: { uri } }), 'the code lens', 120000);
  check('the code lens says which bound stopped the simulation, as dws simulate does',
    lenses.length === 1 && lenses[0].command.title === `not simulated: ${why}` && lenses[0].range.start.line === 0, lenses);
  const report = await within(conn.sendRequest(lsp.ExecuteCommandRequest.type, { command: lenses[0].command.command, arguments: lenses[0].command.arguments }), 'dws.simulate', 120000);
  check('its command: the report, saying the same', typeof report === 'string' && report.includes(`not simulated: ${why}`), report);
  const code = await within(stop(), 'shutdown and exit');
  check('shutdown and exit: the server ends', code === 0, String(code));
}

// Files dws reads grown past its 4 MiB ceiling while the server runs: each is refused
// (a diagnostic on .dws.yaml, no quick fix that needs the lockfile), never read whole.
async function hugeFiles() {
  await start();
  const uri = uriOf('expense.json');
  const text = fs.readFileSync(path.join(dir, 'expense.json'), 'utf8');
  conn.sendNotification(lsp.DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'json', version: 1, text } });
  const { diagnostics: ds } = await diagnostics(uri, 1);
  const mismatch = ds.find((d) => d.code === 'checksum-mismatch');
  check('the lockfile is read: checksum-mismatch', mismatch, ds);
  const grow = (name) => {
    fs.rmSync(path.join(dir, name));
    fs.writeFileSync(path.join(dir, name), '');
    fs.truncateSync(path.join(dir, name), 3 * 1024 ** 3);
  };

  // The lockfile grows (the server is not told): the quick fix that rewrites it reads it.
  grow('dws.lock');
  let actions = await within(conn.sendRequest(lsp.CodeActionRequest.type, {
    textDocument: { uri }, range: mismatch.range, context: { diagnostics: [mismatch] } }), 'code actions with a 3 GiB lockfile');
  check('a 3 GiB lockfile: code actions answered, without the lockfile fix', Array.isArray(actions) &&
    !actions.some((a) => a.title.includes('dws.lock')), actions);

  // The config grows, and the server is told: one diagnostic on it, and no ignore entry
  // offered in it.
  grow('.dws.yaml');
  const onConfig = diagnostics(uriOf('.dws.yaml'));
  const onDocument = diagnostics(uri);
  conn.sendNotification(lsp.DidChangeWatchedFilesNotification.type, { changes: [{ uri: uriOf('.dws.yaml'), type: lsp.FileChangeType.Changed }] });
  const { diagnostics: cds } = await within(onConfig, 'the diagnostic of a 3 GiB .dws.yaml');
  check('a 3 GiB .dws.yaml: one diagnostic on it, saying why', cds.length === 1 && cds[0].code === 'config' &&
    /4 MiB/.test(cds[0].message) && cds[0].range.start.line === 0, cds);
  const { diagnostics: ds2 } = await within(onDocument, 'the re-check under a 3 GiB .dws.yaml');
  const any = ds2[0];
  check('its documents are checked with the default config meanwhile', any, ds2);
  actions = await within(conn.sendRequest(lsp.CodeActionRequest.type, {
    textDocument: { uri }, range: any.range, context: { diagnostics: [any] } }), 'code actions with a 3 GiB .dws.yaml');
  check('a 3 GiB .dws.yaml: code actions answered, without an ignore entry in it', Array.isArray(actions) &&
    !actions.some((a) => a.title.includes('.dws.yaml')), actions);

  const hover = await within(conn.sendRequest(lsp.HoverRequest.type, { textDocument: { uri }, position: positionOf(text, '"auto-approve"', 0, 2) }), 'a hover');
  check('still serving', hover && hover.contents.value.includes('**auto-approve**'), hover);
  const code = await within(stop(), 'shutdown and exit');
  check('shutdown and exit: the server ends', code === 0, String(code));
}

// Renames to names the file's syntax must quote or escape: the renamed document still
// parses, its outline shows the new name exactly, and it has no error it had not. A
// name a reference to the node cannot hold (a DireClaw template reference names a step
// with letters, digits, "_" and "-" only) is refused, saying why.
async function renameQuoting() {
  await start();
  const cases = [
    // file, the id to rename (its first occurrence, where the cursor goes), new name,
    // and for a refusal what the error says
    ['flow.yaml', "'ask_user'", "it's"],
    ['flow.yaml', "'ask_user'", 'a\u0001b'],
    ['flow.yaml', "'ask_user'", 'say "hi"\\'],
    ['flow.yaml', "'ask_user'", 'true'],
    ['flow.yaml', 'summarize', '42'],
    ['flow.yaml', 'summarize', 'key: b #c'],
    ['flow.yaml', 'summarize', "it's \u0001"],
    ['flow.yaml', '"review"', 'line\nbreak'],
    ['flow.json', '"answer"', 'a\u0001"b\\'],
    ['flow.json', '"answer"', 'tab\there'],
    // Steps that templates name ({{steps.draft.outputs.plan}}, {{steps.gather.outputs.summary}}).
    ['flow.yaml', "'draft'", 'draft_2-b'],
    ['flow.yaml', "'draft'", "it's", /\{\{steps\.draft\.outputs\.…\}\}.*letters, digits, "_" and "-" only/],
    ['flow.yaml', "'draft'", 'a.b', /letters, digits, "_" and "-" only/],
    ['flow.yaml', "'draft'", 'x}}{{y', /letters, digits, "_" and "-" only/],
    ['flow.yaml', 'gather', 'a b', /\{\{steps\.gather\.outputs\.…\}\}/],
    ['flow.yaml', 'gather', 'a\u0001b', /letters, digits, "_" and "-" only/],
    // Names the step id's own rules refuse: the rename would add the error.
    ['flow.yaml', 'summarize', 'a: b #c', /would add an error: step id "a: b #c" starts with a drive letter.*\[output-path\]$/],
    ['flow.yaml', 'summarize', '..', /would add an error: .*\[output-path\]$/],
  ];
  let n = 0;
  for (const [file, at, name, refused] of cases) {
    const uri = uriOf(`${n}-${file}`);
    const what = `${file}: rename ${at} to ${JSON.stringify(name)}`;
    const text = fs.readFileSync(path.join(dir, file), 'utf8');
    conn.sendNotification(lsp.DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: file.endsWith('.json') ? 'json' : 'yaml', version: 1, text } });
    const { diagnostics: before } = await diagnostics(uri, 1);
    const errors = (ds) => ds.filter((d) => d.severity === lsp.DiagnosticSeverity.Error).length;
    n++;
    const request = conn.sendRequest(lsp.RenameRequest.type, { textDocument: { uri }, position: positionOf(text, at, 0, 1), newName: name });
    if (refused) {
      const err = await errorOf(request, what);
      check(`${what}: refused, saying why`, err && err.code === rpc.ErrorCodes.InvalidParams && refused.test(err.message),
        err ? `${err.code} ${err.message}` : 'a rename');
      continue;
    }
    const rename = await request;
    const renamed = applyEdits(text, rename.changes[uri]);
    conn.sendNotification(lsp.DidChangeTextDocumentNotification.type, { textDocument: { uri, version: 2 }, contentChanges: [{ text: renamed }] });
    const { diagnostics: ds } = await diagnostics(uri, 2);
    check(`${what}: the file still parses`, !ds.some((d) => d.code === 'parse'), { renamed, ds });
    check(`${what}: no error it had not`, errors(ds) <= errors(before), { renamed, ds });
    const syms = await conn.sendRequest(lsp.DocumentSymbolRequest.type, { textDocument: { uri } });
    const names = syms.flatMap((s) => [s.name, ...(s.children || []).map((c) => c.name)]);
    check(`${what}: the outline shows the new name`, names.includes(name), names);
  }
  const code = await within(stop(), 'shutdown and exit');
  check('shutdown and exit: the server ends', code === 0, String(code));
}

const modes = { test, bench, messages, lifecycle, 'exit-without-shutdown': exitWithoutShutdown, 'rename-quoting': renameQuoting, 'lens-cancel': lensCancel, 'lens-bound': lensBound, 'huge-files': hugeFiles };
if (!modes[mode]) fail(`unknown mode ${mode}`);
modes[mode]().catch((e) => fail(e.stack || String(e)));

-- Drives dws lsp through Neovim's own LSP client, started by docs/editors.md's snippet (TestNeovim),
-- and writes what it saw to out.txt; a step whose answer does not come within its
-- deadline says so and ends the run.
local out = {}
local function say(s) table.insert(out, s) end
local function finish() vim.fn.writefile(out, "out.txt"); vim.cmd("qa!") end
-- A step that failed: say so, with Neovim's messages (an error in init.lua is one).
local function fail(what)
  say(what)
  for _, m in ipairs(vim.split(vim.fn.execute("messages"), "\n")) do
    if m ~= "" then say("message: " .. m) end
  end
  if vim.v.errmsg ~= "" then say("error: " .. vim.v.errmsg) end
  finish()
end
local function diagnostics()
  local ds = vim.diagnostic.get(0)
  table.sort(ds, function(a, b) return a.lnum < b.lnum or (a.lnum == b.lnum and a.col < b.col) end)
  return ds
end

-- flow.json is open already: Neovim was started with it, so init.lua's errors, if
-- any, are on Neovim's standard error.
if not vim.wait(30000, function() return #vim.diagnostic.get(0) > 0 end, 20) then
  return fail("no diagnostics within 30 s")
end
for _, d in ipairs(diagnostics()) do
  say(string.format("diagnostic %d:%d %s %s", d.lnum + 1, d.col + 1, tostring(d.code), d.message))
end

-- The quick fix to the nearest id, applied by the client, and the file checked again.
local d = diagnostics()[1]
local params = {
  textDocument = vim.lsp.util.make_text_document_params(),
  range = { start = { line = d.lnum, character = d.col }, ["end"] = { line = d.end_lnum, character = d.end_col } },
  context = { diagnostics = vim.lsp.diagnostic.get_line_diagnostics and vim.lsp.diagnostic.get_line_diagnostics(0, d.lnum) or {} },
}
local answers = vim.lsp.buf_request_sync(0, "textDocument/codeAction", params, 30000) or {}
local fix
for _, a in pairs(answers) do
  for _, action in ipairs(a.result or {}) do
    say("code action " .. action.title)
    if action.isPreferred then fix = action end
  end
end
if not fix then return fail("no preferred quick fix") end
vim.lsp.util.apply_workspace_edit(fix.edit, "utf-16")
if not vim.wait(30000, function() return #vim.diagnostic.get(0) == 0 end, 20) then
  return fail("still " .. #vim.diagnostic.get(0) .. " diagnostics after the quick fix")
end
say("after the quick fix: no diagnostics")

-- Go to definition from the edge just fixed.
local line = vim.api.nvim_buf_get_lines(0, 1, 2, false)[1]
local col = line:find('"next"', 1, true)
local def = vim.lsp.buf_request_sync(0, "textDocument/definition", {
  textDocument = vim.lsp.util.make_text_document_params(), position = { line = 1, character = col } }, 30000) or {}
for _, a in pairs(def) do
  local r = a.result and (a.result[1] or a.result)
  if r and r.range then say(string.format("definition %d:%d", r.range.start.line + 1, r.range.start.character + 1)) end
end

-- A second file of the project is served by the same server.
vim.cmd("edit flow.yaml")
if not vim.wait(30000, function() return #vim.diagnostic.get(0) > 0 end, 20) then
  return fail("no diagnostics for flow.yaml within 30 s")
end
for _, d in ipairs(diagnostics()) do
  say(string.format("diagnostic %d:%d %s %s", d.lnum + 1, d.col + 1, tostring(d.code), d.message))
end
local servers = 0
for _, c in pairs(vim.lsp.get_active_clients()) do if c.name == "dws" then servers = servers + 1 end end
say("dws servers " .. servers)
finish()

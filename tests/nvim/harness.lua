-- Headless Neovim LSP harness. Works on Neovim 0.7.2 (Debian bookworm) and 0.8+ (tested 0.11.4).
-- Started from /work/shared/tools/nvim-lsp (same inputs, same JSON keys, same exit codes), extended
-- for the project's end-to-end tests (crates/cli/tests/editor_nvim.rs); see tests/nvim/README.md.
-- Inputs (env): LSP_CMD (shell command starting the server), LSP_FILE (file to open),
--   LSP_ROOT (root dir, default: the file's dir), LSP_LINE (0-based line for code actions, default 0),
--   LSP_ACTION (plain substring of the code action title to apply; default: the first action),
--   LSP_EXPECT_FEWER (1: fail unless the applied action reduces the number of diagnostics),
--   LSP_TIMEOUT_MS (default 10000).
-- Extensions (all optional):
--   LSP_INIT_OPTIONS  JSON sent as initializationOptions (e.g. {"lights":{"inlayHints":{"enable":true}}}).
--   LSP_WAIT_CODE     wait until a published diagnostic has this code (e.g. L0201) before going on
--                     (after the edit when there is one).
--   LSP_WAIT_SOLVED   1: before reading results (and again after the action), re-request code lenses
--                     until none reads "solving", so slow solves cannot race the requests.
--   LSP_EDIT_LINE, LSP_EDIT_TEXT   before the requests, replace buffer line LSP_EDIT_LINE (0-based)
--                     with LSP_EDIT_TEXT (may hold \n) as a user would (didChange), then wait for
--                     the diagnostics of that version. The diagnostics of the file as opened are
--                     then in `diagnostics_before_edit`.
--   LSP_HOVER         "LINE:BYTECOL" (0-based, byte column as in the file; several separated by
--                     spaces): textDocument/hover there, the column converted to the negotiated
--                     encoding. `hovers` lists {position, result}; the first is also `hover_position`
--                     and `hover`.
--   LSP_NO_ACTION     1: stop after the requests (no code action is requested or applied).
-- Output keys: nvim, offset_encoding, diagnostics (Neovim's view: 0-based lnum, BYTE columns),
--   lsp_diagnostics (the last publishDiagnostics as sent: ranges in the negotiated encoding),
--   inlay_hints, code_lens (raw, negotiated encoding), builtin_inlay_hint_count (0.10+),
--   code_actions (titles), applied, file_after (lines), diagnostics_after, lsp_diagnostics_after,
--   and with the extensions diagnostics_before_edit, hovers, hover_position, hover.
-- Prints one JSON object to stdout. Exit codes: 0 ok, 2 timeout/no client, 3 request error,
--   4 no matching code action, 5 diagnostics not reduced.
local env = function(k, d) local v = os.getenv(k); if v == nil or v == '' then return d end; return v end
local CMD, FILE = env('LSP_CMD'), vim.fn.fnamemodify(env('LSP_FILE', ''), ':p')
local ROOT = env('LSP_ROOT', vim.fn.fnamemodify(FILE, ':h'))
local LINE, TIMEOUT = tonumber(env('LSP_LINE', '0')), tonumber(env('LSP_TIMEOUT_MS', '10000'))
local WANT_ACTION, EXPECT_FEWER = env('LSP_ACTION'), env('LSP_EXPECT_FEWER', '0') == '1'
local INIT_OPTIONS, WAIT_CODE = env('LSP_INIT_OPTIONS'), env('LSP_WAIT_CODE')
local WAIT_SOLVED, NO_ACTION = env('LSP_WAIT_SOLVED', '0') == '1', env('LSP_NO_ACTION', '0') == '1'
local EDIT_LINE, EDIT_TEXT, HOVER = tonumber(env('LSP_EDIT_LINE', '')), env('LSP_EDIT_TEXT'), env('LSP_HOVER')
local ver = vim.version()
local get_clients = vim.lsp.get_clients or vim.lsp.get_active_clients  -- 0.10 renamed it
local out = { nvim = string.format('%d.%d.%d', ver.major, ver.minor, ver.patch) }

local function finish(code, err)
  if err then out.error = err end
  local ok, json = pcall(vim.fn.json_encode, out)   -- fails on invalid UTF-8 (e.g. a broken edit)
  if not ok then
    if code == 0 then code = 3 end
    local msg = ('json_encode failed (invalid UTF-8?): ' .. tostring(err or json)):gsub('[\128-\255]', '?')
    json = vim.fn.json_encode({ nvim = out.nvim, error = msg })
  end
  io.stdout:write(json .. '\n')
  io.stdout:flush()
  vim.lsp.stop_client(vim.tbl_map(function(c) return c.id end, get_clients()))  -- shutdown + exit
  vim.wait(2000, function() return #get_clients() == 0 end, 20)
  vim.cmd(code == 0 and 'qall!' or ('cquit ' .. code))
end
if not CMD or FILE == '' then return finish(2, 'set LSP_CMD and LSP_FILE') end

-- A byte column of `line` as a position character in `encoding` (utf-8, utf-16 or utf-32).
-- Counted by hand: vim.str_utfindex changed its signature in 0.11.
local function lsp_character(line, bytecol, encoding)
  if encoding == 'utf-8' then return bytecol end
  local n = 0
  for i = 1, math.min(bytecol, #line) do
    local b = line:byte(i)
    if b < 0x80 or b >= 0xC0 then                        -- not a continuation byte: a new character
      n = n + ((encoding == 'utf-16' and b >= 0xF0) and 2 or 1)  -- 4-byte sequences are surrogate pairs
    end
  end
  return n
end

local function main()
  -- Count every publishDiagnostics and keep the raw LSP diagnostics (for codeAction context)
  -- and the document version they were computed for.
  local published, last_raw, last_version = 0, {}, nil
  local function on_diags(err, result, ctx, config)
    published = published + 1
    last_raw = result.diagnostics
    last_version = type(result.version) == 'number' and result.version or nil  -- may be absent or null
    return vim.lsp.diagnostic.on_publish_diagnostics(err, result, ctx, config)
  end

  local init_options
  if INIT_OPTIONS then
    local ok, decoded = pcall(vim.fn.json_decode, INIT_OPTIONS)
    if not ok then return finish(2, 'LSP_INIT_OPTIONS is not JSON: ' .. tostring(decoded)) end
    init_options = decoded
  end

  local client_id, exited
  local function start_server()
    local config = {
      name = 'lights', cmd = { 'sh', '-c', 'exec ' .. CMD }, root_dir = ROOT,
      workspace_folders = { { uri = vim.uri_from_fname(ROOT), name = 'root' } },
      handlers = { ['textDocument/publishDiagnostics'] = on_diags },
      init_options = init_options,
      on_exit = function(code, signal) exited = string.format('server exited: code %s signal %s', code, signal) end,
    }
    if vim.lsp.start then                     -- 0.8+
      client_id = vim.lsp.start(config)
    else                                      -- 0.7: start_client + buf_attach_client
      client_id = vim.lsp.start_client(config)
      vim.lsp.buf_attach_client(0, client_id)
    end
  end

  vim.cmd('autocmd BufRead,BufNewFile *.lights setlocal filetype=lights')
  vim.api.nvim_create_autocmd('FileType', { pattern = 'lights', callback = start_server })  -- 0.7+
  vim.cmd('edit ' .. vim.fn.fnameescape(FILE))
  local bufnr = vim.api.nvim_get_current_buf()
  if not client_id then return finish(2, 'client did not start') end

  -- The version Neovim last sent for the buffer (nil if this Neovim does not expose it).
  local function buf_version() return (vim.lsp.util.buf_versions or {})[bufnr] end
  -- Wait for a publish newer than `before`, for the buffer's current version when both are known.
  local function wait_publish(before, what)
    local ok = vim.wait(TIMEOUT, function()
      if exited then return true end
      if published <= before then return false end
      local want = buf_version()
      return last_version == nil or want == nil or last_version >= want
    end, 20)
    if exited then return exited end
    if not ok then return 'timeout waiting for ' .. what end
  end

  -- 1. diagnostics (wait for the first publishDiagnostics notification, not for a non-empty list)
  if not vim.wait(TIMEOUT, function() return published > 0 or exited end, 20) or exited then
    return finish(2, exited or 'timeout waiting for publishDiagnostics')
  end
  local function diag_json()
    local t = {}
    for _, d in ipairs(vim.diagnostic.get(bufnr)) do   -- 0.6+; lnum/col are 0-based
      table.insert(t, { lnum = d.lnum, col = d.col, end_lnum = d.end_lnum, end_col = d.end_col,
                        severity = d.severity, message = d.message, source = d.source, code = d.code })
    end
    return t
  end

  local client = vim.lsp.get_client_by_id(client_id)
  local uri = vim.uri_from_bufnr(bufnr)
  out.offset_encoding = client.offset_encoding
  local function request(method, params)
    local res, err = vim.lsp.buf_request_sync(bufnr, method, params, TIMEOUT)
    if not res then return nil, method .. ': ' .. tostring(err) end
    local r = res[client_id]
    if not r then return nil, method .. ': no response' end
    if r.error or r.err then return nil, method .. ': ' .. vim.inspect(r.error or r.err) end
    return r.result or vim.NIL
  end

  -- Re-request code lenses until none is still solving (LSP_WAIT_SOLVED).
  -- Returns ok (or nil, err) and whether the very first answer was already settled.
  local function settle()
    local now = (vim.uv or vim.loop).now
    local deadline, polls = now() + TIMEOUT, 0
    while true do
      polls = polls + 1
      local lenses, rerr = request('textDocument/codeLens', { textDocument = { uri = uri } })
      if rerr then return nil, rerr end
      local solving = false
      for _, l in ipairs(lenses == vim.NIL and {} or lenses) do
        if l.command and string.find(l.command.title, 'solving', 1, true) then solving = true end
      end
      if not solving then return true, polls == 1 end
      if exited or now() >= deadline then return false end
      vim.wait(50)
    end
  end
  -- Settle, and if solves were still running, wait for the publish that follows them.
  local function settle_and_publish()
    if not WAIT_SOLVED then return end
    local before = published
    local ok, at_once = settle()
    if ok == nil then return at_once end
    if not ok then return exited or 'timeout waiting for the solves (code lens still "solving")' end
    if not at_once then return wait_publish(before, 'the diagnostics after the solves') end
  end
  -- Wait until a published diagnostic has code WAIT_CODE.
  local function wait_code()
    if not WAIT_CODE then return end
    local ok = vim.wait(TIMEOUT, function()
      if exited then return true end
      for _, d in ipairs(last_raw) do if d.code == WAIT_CODE then return true end end
      return false
    end, 20)
    if exited then return exited end
    if not ok then return 'timeout waiting for a diagnostic ' .. WAIT_CODE end
  end

  -- (With an edit to make, LSP_WAIT_CODE is about the edited text.)
  local err = settle_and_publish() or (not EDIT_LINE and wait_code() or nil)
  if err then return finish(2, err) end

  -- 1b. an edit typed into the buffer (didChange), then the diagnostics of that version
  if EDIT_LINE then
    out.diagnostics_before_edit = diag_json()
    local before = published
    vim.api.nvim_buf_set_lines(bufnr, EDIT_LINE, EDIT_LINE + 1, false, vim.split(EDIT_TEXT or '', '\n', true))
    err = wait_publish(before, 'publishDiagnostics after the edit') or settle_and_publish() or wait_code()
    if err then return finish(2, err) end
  end
  out.diagnostics = diag_json()
  out.lsp_diagnostics = last_raw

  -- 2. inlay hints + code lens as raw requests (0.7 does not know inlayHint; it sends unknown methods)
  local nlines = vim.api.nvim_buf_line_count(bufnr)
  local whole = { start = { line = 0, character = 0 }, ['end'] = { line = nlines, character = 0 } }
  out.inlay_hints, err = request('textDocument/inlayHint', { textDocument = { uri = uri }, range = whole })
  if err then return finish(3, err) end
  out.code_lens, err = request('textDocument/codeLens', { textDocument = { uri = uri } })
  if err then return finish(3, err) end
  if vim.lsp.inlay_hint and vim.lsp.inlay_hint.get then   -- 0.10+: also exercise Neovim's own inlay-hint module
    vim.lsp.inlay_hint.enable(true, { bufnr = bufnr })
    vim.wait(TIMEOUT, function() return #vim.lsp.inlay_hint.get({ bufnr = bufnr }) > 0 end, 20)
    out.builtin_inlay_hint_count = #vim.lsp.inlay_hint.get({ bufnr = bufnr })
  end

  -- 2b. hover at byte positions (the first one also as `hover`/`hover_position`)
  if HOVER then
    out.hovers = {}
    for spec in HOVER:gmatch('%S+') do
      local hl, hc = spec:match('^(%d+):(%d+)$')
      if not hl then return finish(2, 'LSP_HOVER must be LINE:BYTECOL[ LINE:BYTECOL…], got ' .. spec) end
      hl, hc = tonumber(hl), tonumber(hc)
      local text = vim.api.nvim_buf_get_lines(bufnr, hl, hl + 1, false)[1] or ''
      local pos = { line = hl, character = lsp_character(text, hc, client.offset_encoding) }
      local result
      result, err = request('textDocument/hover', { textDocument = { uri = uri }, position = pos })
      if err then return finish(3, err) end
      table.insert(out.hovers, { position = pos, result = result })
    end
    if #out.hovers > 0 then out.hover_position, out.hover = out.hovers[1].position, out.hovers[1].result end
  end
  if NO_ACTION then return finish(0) end

  -- 3. code actions on LINE, with the diagnostics on that line as context
  local ctx_diags = {}
  for _, d in ipairs(last_raw) do if d.range.start.line == LINE then table.insert(ctx_diags, d) end end
  local actions
  actions, err = request('textDocument/codeAction', {
    textDocument = { uri = uri },
    range = { start = { line = LINE, character = 0 }, ['end'] = { line = LINE, character = 0 } },
    context = { diagnostics = ctx_diags },
  })
  if err then return finish(3, err) end
  out.code_actions = {}
  for _, a in ipairs(actions == vim.NIL and {} or actions) do table.insert(out.code_actions, a.title) end
  local first
  for _, a in ipairs(actions == vim.NIL and {} or actions) do
    if not WANT_ACTION or string.find(a.title, WANT_ACTION, 1, true) then first = a; break end
  end
  if not first then return finish(4, 'no matching code action at line ' .. LINE) end

  -- 4. apply the first action's WorkspaceEdit (or run its command), write the file, wait for re-diagnosis
  local before = published
  if first.edit then vim.lsp.util.apply_workspace_edit(first.edit, client.offset_encoding) end
  if first.command then
    local cmd = type(first.command) == 'table' and first.command or first
    local _, cerr = request('workspace/executeCommand', { command = cmd.command, arguments = cmd.arguments })
    if cerr then return finish(3, cerr) end
  end
  vim.cmd('silent write')
  out.applied = first.title
  out.file_after = vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)
  if WAIT_SOLVED then
    err = wait_publish(before, 'publishDiagnostics after the action') or settle_and_publish()
    if err then return finish(2, err) end
  else
    vim.wait(TIMEOUT, function() return published > before end, 20)
  end
  out.diagnostics_after = diag_json()
  out.lsp_diagnostics_after = last_raw
  if EXPECT_FEWER and #out.diagnostics_after >= #out.diagnostics then return finish(5, 'fix did not reduce diagnostics') end
  finish(0)
end

-- An uncaught Lua error under `-c luafile` would leave headless Neovim idling forever: catch it.
local ok, e = xpcall(main, debug.traceback)
if not ok and not pcall(finish, 3, e) then os.exit(3) end

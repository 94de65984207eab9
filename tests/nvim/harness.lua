-- Headless Neovim LSP harness. Works on Neovim 0.7.2 (Debian bookworm) and 0.8+ (tested 0.11.4).
-- Started from a headless Neovim LSP client of the team's tools (same inputs, same JSON keys, same exit codes), extended
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
--   LSP_PLUGIN        the plugin folder (editors/nvim). run.sh then starts Neovim with
--                     plugin_init.lua as the user's init.lua: the folder on the runtimepath and
--                     require("lights").setup{...} (LSP_PLUGIN_CMD, LSP_PLUGIN_SETTINGS and
--                     LSP_PLUGIN_MODE are read there). The harness starts nothing itself: it waits for
--                     the client the plugin attaches, and reports what the plugin set up
--                     (filetype, syntax, buffer options, the client's config, the plugin's lenses).
--   LSP_SYNTAX        "LINE:BYTECOL ..." (0-based): the syntax group there (synID) and the
--                     highlight group it links to, as `syntax_groups`.
--   LSP_RUN_LENS      with LSP_PLUGIN: put the cursor on line LSP_LINE and run the code lens whose
--                     title contains this text with vim.lsp.codelens.run(), as a user would;
--                     `lens_run` reports its title and the buffer after it (not saved).
--   LSP_REINDENT      1 (with LSP_PLUGIN and LSP_NO_ACTION): at the end, set the buffer to the
--                     file as opened with every line flush left, reindent it with `gg=G` (the
--                     filetype's indent script) and report the lines as `reindented`.
-- Output keys: nvim, offset_encoding, diagnostics (Neovim's view: 0-based lnum, BYTE columns),
--   lsp_diagnostics (the last publishDiagnostics as sent: ranges in the negotiated encoding),
--   inlay_hints, code_lens (raw, negotiated encoding), builtin_inlay_hint_count (0.10+),
--   code_actions (titles), applied, file_after (lines), diagnostics_after, lsp_diagnostics_after,
--   and with the extensions diagnostics_before_edit, hovers, hover_position, hover;
--   with LSP_PLUGIN: filetype, current_syntax, errmsg (v:errmsg after opening the file),
--   buffer (commentstring, comments, shiftwidth, expandtab, indentexpr), client (name, cmd,
--   root_dir, workspace_folders, init_options, settings), setup (lsp_enabled: 0.11's
--   vim.lsp.is_enabled; rtp_config_merged: lsp/lights.lua is part of vim.lsp.config.lights;
--   autocmd: the plugin's own FileType autocmd exists), plugin_code_lens (the titles
--   vim.lsp.codelens.get() holds after setup()'s refreshes), plugin_inlay_hints_enabled (0.10+:
--   Neovim's inlay hints on for the buffer before the harness turns them on); syntax_groups;
--   lens_run; reindented.
-- Prints one JSON object to stdout. Exit codes: 0 ok, 2 timeout/no client, 3 request error,
--   4 no matching code action (or code lens, LSP_RUN_LENS), 5 diagnostics not reduced.
local env = function(k, d) local v = os.getenv(k); if v == nil or v == '' then return d end; return v end
local CMD, FILE = env('LSP_CMD'), vim.fn.fnamemodify(env('LSP_FILE', ''), ':p')
local ROOT = env('LSP_ROOT', vim.fn.fnamemodify(FILE, ':h'))
local LINE, TIMEOUT = tonumber(env('LSP_LINE', '0')), tonumber(env('LSP_TIMEOUT_MS', '10000'))
local WANT_ACTION, EXPECT_FEWER = env('LSP_ACTION'), env('LSP_EXPECT_FEWER', '0') == '1'
local INIT_OPTIONS, WAIT_CODE = env('LSP_INIT_OPTIONS'), env('LSP_WAIT_CODE')
local WAIT_SOLVED, NO_ACTION = env('LSP_WAIT_SOLVED', '0') == '1', env('LSP_NO_ACTION', '0') == '1'
local EDIT_LINE, EDIT_TEXT, HOVER = tonumber(env('LSP_EDIT_LINE', '')), env('LSP_EDIT_TEXT'), env('LSP_HOVER')
local PLUGIN, SYNTAX, REINDENT = env('LSP_PLUGIN'), env('LSP_SYNTAX'), env('LSP_REINDENT', '0') == '1'
local RUN_LENS = env('LSP_RUN_LENS')
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
if (not CMD and not PLUGIN) or FILE == '' then return finish(2, 'set LSP_CMD (or LSP_PLUGIN) and LSP_FILE') end

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

  local bufnr, opened
  if PLUGIN then
    -- The plugin (set up by plugin_init.lua) detects the filetype and starts the client; the
    -- harness only listens to the diagnostics, through the global handler the client falls back on.
    vim.lsp.handlers['textDocument/publishDiagnostics'] = on_diags
    vim.v.errmsg = ''
    vim.cmd('edit ' .. vim.fn.fnameescape(FILE))
    bufnr = vim.api.nvim_get_current_buf()
    opened = vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)
    out.errmsg = vim.v.errmsg
    out.filetype = vim.bo[bufnr].filetype
    out.current_syntax = vim.b[bufnr].current_syntax or vim.NIL
    out.buffer = {
      commentstring = vim.bo[bufnr].commentstring, comments = vim.bo[bufnr].comments,
      shiftwidth = vim.bo[bufnr].shiftwidth, expandtab = vim.bo[bufnr].expandtab,
      indentexpr = vim.bo[bufnr].indentexpr,
    }
    -- 0.11's vim.lsp.enable starts the client from a scheduled callback: wait for it.
    local function attached()
      local clients = vim.lsp.get_clients and vim.lsp.get_clients({ bufnr = bufnr }) or vim.lsp.buf_get_clients(bufnr)
      for _, c in pairs(clients) do if c.name == 'lights' then return c end end
    end
    if not vim.wait(TIMEOUT, function() return attached() ~= nil end, 20) then
      return finish(2, 'the plugin attached no "lights" client to the buffer (filetype ' .. out.filetype .. ')')
    end
    local c = attached()
    client_id = c.id
    out.client = {
      name = c.name, cmd = c.config.cmd, root_dir = c.config.root_dir or vim.NIL,
      workspace_folders = c.workspace_folders or c.config.workspace_folders or vim.NIL,
      init_options = c.config.init_options or vim.NIL, settings = c.config.settings or vim.NIL,
    }
    -- How the client was set up: 0.11's native configs (vim.lsp.config/enable, merged over the
    -- plugin's lsp/lights.lua, whose before_init setup() does not pass) or the plugin's own
    -- FileType autocmd (group lights_lsp) before 0.11.
    out.setup = {
      lsp_enabled = (vim.lsp.is_enabled and vim.lsp.is_enabled('lights')) or false,
      rtp_config_merged = (vim.lsp.config and type(vim.lsp.config['lights'].before_init) == 'function') or false,
      autocmd = vim.fn.exists('#lights_lsp#FileType') == 1,
    }
    -- The plugin's client has no on_exit of ours: notice a dead server by polling.
    local timer = (vim.uv or vim.loop).new_timer()
    timer:start(100, 100, vim.schedule_wrap(function()
      local cl = vim.lsp.get_client_by_id(client_id)
      -- (self passed explicitly: 0.11 deprecates the dot call without it)
      if not cl or cl.is_stopped(cl) then exited = exited or 'server exited'; timer:stop() end
    end))
  else
    vim.cmd('autocmd BufRead,BufNewFile *.lights setlocal filetype=lights')
    vim.api.nvim_create_autocmd('FileType', { pattern = 'lights', callback = start_server })  -- 0.7+
    vim.cmd('edit ' .. vim.fn.fnameescape(FILE))
    bufnr = vim.api.nvim_get_current_buf()
    if not client_id then return finish(2, 'client did not start') end
  end

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
  if PLUGIN and vim.lsp.inlay_hint and vim.lsp.inlay_hint.is_enabled then  -- 0.10+: did setup() turn them on?
    out.plugin_inlay_hints_enabled = vim.lsp.inlay_hint.is_enabled({ bufnr = bufnr })
  end
  if vim.lsp.inlay_hint and vim.lsp.inlay_hint.get then   -- 0.10+: also exercise Neovim's own inlay-hint module
    vim.lsp.inlay_hint.enable(true, { bufnr = bufnr })
    -- (as many as the server just sent: with none, there is nothing to wait for)
    local want = out.inlay_hints == vim.NIL and 0 or #out.inlay_hints
    vim.wait(TIMEOUT, function() return #vim.lsp.inlay_hint.get({ bufnr = bufnr }) >= want end, 20)
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

  -- 2c. with setup(): the lenses its refreshes put in Neovim's code-lens module
  -- (the native config alone, LSP_PLUGIN_MODE=native, refreshes nothing by itself)
  if PLUGIN and env('LSP_PLUGIN_MODE', 'setup') ~= 'native' then
    local function titles()
      local t, solving = {}, false
      for _, l in ipairs(vim.lsp.codelens.get(bufnr)) do
        local title = l.command and l.command.title or ''
        if string.find(title, 'solving', 1, true) then solving = true end
        table.insert(t, title)
      end
      return t, solving
    end
    vim.wait(TIMEOUT, function() local t, solving = titles(); return #t > 0 and not solving end, 20)
    out.plugin_code_lens = titles()
  end

  -- 2d. syntax groups at byte positions
  if SYNTAX then
    out.syntax_groups = {}
    for spec in SYNTAX:gmatch('%S+') do
      local sl, sc = spec:match('^(%d+):(%d+)$')
      if not sl then return finish(2, 'LSP_SYNTAX must be LINE:BYTECOL[ LINE:BYTECOL…], got ' .. spec) end
      local id = vim.fn.synID(tonumber(sl) + 1, tonumber(sc) + 1, 1)
      table.insert(out.syntax_groups, {
        line = tonumber(sl), col = tonumber(sc), group = vim.fn.synIDattr(id, 'name'),
        highlight = vim.fn.synIDattr(vim.fn.synIDtrans(id), 'name'),
      })
    end
  end

  -- 2e. run a code lens as a user would: cursor on line LINE, vim.lsp.codelens.run(), pick the
  -- lens whose title holds RUN_LENS (0.7 asks with inputlist, 0.8+ with vim.ui.select when a
  -- line has several), then wait for the buffer to change (not saved)
  if RUN_LENS then
    local function find()
      for _, l in ipairs(vim.lsp.codelens.get(bufnr)) do
        if l.command and string.find(l.command.title, RUN_LENS, 1, true) then return l end
      end
    end
    if not vim.wait(TIMEOUT, function() return find() ~= nil end, 20) then
      return finish(4, 'no code lens "' .. RUN_LENS .. '" in vim.lsp.codelens.get()')
    end
    vim.fn.inputlist = function(items)
      for i, t in ipairs(items) do if string.find(t, RUN_LENS, 1, true) then return i - 1 end end
      return 0
    end
    vim.ui.select = function(items, opts, on_choice)
      for i, item in ipairs(items) do
        local t = opts.format_item and opts.format_item(item) or tostring(item)
        if string.find(t, RUN_LENS, 1, true) then return on_choice(item, i) end
      end
      on_choice(nil, nil)
    end
    local title = find().command.title
    local before = table.concat(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false), '\n')
    vim.api.nvim_win_set_cursor(0, { LINE + 1, 0 })
    vim.lsp.codelens.run()
    local changed = vim.wait(TIMEOUT, function()
      return table.concat(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false), '\n') ~= before
    end, 20)
    if not changed then return finish(2, 'running the code lens "' .. RUN_LENS .. '" changed nothing') end
    out.lens_run = { title = title, buffer_after = vim.api.nvim_buf_get_lines(bufnr, 0, -1, false) }
  end

  if NO_ACTION then
    -- 2f. the indent script: every line of the file as opened flush left, then `gg=G` (not saved)
    if REINDENT then
      local flat = vim.tbl_map(function(l) return (l:gsub('^%s+', '')) end, opened)
      vim.api.nvim_buf_set_lines(bufnr, 0, -1, false, flat)
      vim.cmd('silent normal! gg=G')
      out.reindented = vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)
    end
    return finish(0)
  end

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

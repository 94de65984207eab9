-- Neovim support for `.lights` puzzle files: starts the `lights lsp` language server.
--
--   require("lights").setup({
--     cmd = { "lights", "lsp" },                      -- the server command
--     settings = { inlayHints = { enable = true } },  -- the server's settings (docs/lsp.md)
--   })
--
-- Neovim 0.11+: the config is registered with vim.lsp.config("lights", …) (merged over the
-- plugin's lsp/lights.lua) and started by vim.lsp.enable("lights").
-- Neovim 0.7–0.10: a FileType autocmd starts the client (vim.lsp.start on 0.8+,
-- vim.lsp.start_client + buf_attach_client on 0.7) and reuses it for every file of one root.
-- The root is the nearest folder holding one of `root_markers` (default: .git), else the
-- file's own folder. See editors/nvim/README.md.
local M = {}

--- The options of setup(), with their defaults.
M.defaults = {
  cmd = { 'lights', 'lsp' },
  filetypes = { 'lights' },
  root_markers = { '.git' },
  -- The server's settings, bare ({ codeLens = { enable = false } }) or under "lights".
  -- Sent as initializationOptions and as workspace settings, both under "lights".
  settings = {},
  -- Keep code lenses up to date with vim.lsp.codelens.refresh (on attach, when the diagnostics
  -- change, on BufEnter, CursorHold and InsertLeave).
  codelens = true,
  -- Turn on Neovim's inlay hints (0.10+) for the buffer; default: when settings.inlayHints is on.
  inlay_hints = nil,
  -- nil: on 0.11+ register with vim.lsp.config/vim.lsp.enable; false: start the client from the
  -- plugin's own FileType autocmd on every version (what 0.7–0.10 always do).
  native = nil,
  on_attach = nil, -- function(client, bufnr), called after the plugin's own attach work
  capabilities = nil, -- extra client capabilities (merged over Neovim's defaults)
  handlers = nil, -- LSP handlers for this client only
}

local uv = vim.uv or vim.loop

local function has(version)
  return vim.fn.has('nvim-' .. version) == 1
end

local function notify(msg, level)
  vim.schedule(function()
    vim.notify('lights: ' .. msg, level or vim.log.levels.WARN)
  end)
end

--- The "lights" settings table of `settings`, which may or may not be wrapped in { lights = … }.
local function lights_settings(settings)
  if type(settings) ~= 'table' then
    return {}
  end
  if type(settings.lights) == 'table' then
    return settings.lights
  end
  return settings
end

--- Whether the settings turn inlay hints on (nested, flat and dotted forms, as the server reads them).
local function hints_enabled(s)
  local v = s.inlayHints
  if type(v) == 'table' then
    v = v.enable
  end
  if v == nil then
    v = s['inlayHints.enable']
  end
  return v == true
end

-- A table that is encoded as a JSON object even when empty.
local function object(t)
  if next(t) == nil then
    return vim.empty_dict()
  end
  return t
end

local function dirname(path)
  return vim.fn.fnamemodify(path, ':h')
end

--- The root folder of file `fname`: the nearest folder (the file's own, then its parents) holding
--- one of `markers`, else the file's folder (the current directory for an unnamed buffer).
function M.root_dir(fname, markers)
  markers = markers or M.defaults.root_markers
  if fname == nil or fname == '' then
    return vim.fn.getcwd()
  end
  local start = dirname(vim.fn.fnamemodify(fname, ':p'))
  local dir = start
  while true do
    for _, marker in ipairs(markers) do
      if uv.fs_stat(dir .. '/' .. marker) then
        return dir
      end
    end
    local parent = dirname(dir)
    if parent == dir then
      return start
    end
    dir = parent
  end
end

local function refresh_codelens(bufnr)
  if not vim.api.nvim_buf_is_loaded(bufnr) then
    return
  end
  if has('0.10') then
    vim.lsp.codelens.refresh({ bufnr = bufnr })
  elseif vim.api.nvim_get_current_buf() == bufnr then
    vim.lsp.codelens.refresh() -- before 0.10 it refreshes the current buffer only
  end
end

--- What the plugin does when the client attaches to a buffer, then the user's on_attach.
local function make_on_attach(opts, s)
  local inlay = opts.inlay_hints
  if inlay == nil then
    inlay = hints_enabled(s)
  end
  return function(client, bufnr)
    if opts.codelens and vim.lsp.codelens then
      local group = vim.api.nvim_create_augroup('lights_codelens_' .. bufnr, { clear = true })
      -- The server publishes diagnostics again when a slow solve ends: refresh the lenses then
      -- too, so "solving…" is replaced on versions without workspace/codeLens/refresh (< 0.10).
      vim.api.nvim_create_autocmd({ 'BufEnter', 'CursorHold', 'InsertLeave', 'DiagnosticChanged' }, {
        group = group,
        buffer = bufnr,
        callback = function()
          refresh_codelens(bufnr)
        end,
      })
      refresh_codelens(bufnr)
    end
    if inlay and vim.lsp.inlay_hint and vim.lsp.inlay_hint.enable then
      pcall(vim.lsp.inlay_hint.enable, true, { bufnr = bufnr })
    end
    if opts.on_attach then
      opts.on_attach(client, bufnr)
    end
  end
end

--- The client configuration for `opts` (without root_dir).
function M.config(opts)
  -- A shallow merge: a list given (cmd, filetypes, root_markers) replaces the default whole.
  local merged = {}
  for k, v in pairs(M.defaults) do
    merged[k] = v
  end
  for k, v in pairs(opts or {}) do
    merged[k] = v
  end
  opts = merged
  local s = lights_settings(opts.settings)
  local config = {
    name = 'lights',
    cmd = opts.cmd,
    filetypes = opts.filetypes,
    root_markers = opts.root_markers,
    init_options = { lights = object(vim.deepcopy(s)) },
    settings = { lights = object(vim.deepcopy(s)) },
    on_attach = make_on_attach(opts, s),
    handlers = opts.handlers,
  }
  if opts.capabilities then
    config.capabilities =
      vim.tbl_deep_extend('force', vim.lsp.protocol.make_client_capabilities(), opts.capabilities)
  end
  return config, opts
end

--- Start (or reuse) the client for buffer `bufnr`, before 0.11.
local function start(config, bufnr, markers)
  config = vim.deepcopy(config)
  config.root_dir = M.root_dir(vim.api.nvim_buf_get_name(bufnr), markers)
  config.workspace_folders = { { uri = vim.uri_from_fname(config.root_dir), name = config.root_dir } }
  if vim.lsp.start then -- 0.8+: reuses a client of the same name and root
    -- (0.8 attaches the current buffer whatever opts.bufnr says: make it `bufnr`.)
    local id
    vim.api.nvim_buf_call(bufnr, function()
      id = vim.lsp.start(config, { bufnr = bufnr })
    end)
    return id
  end
  for _, client in pairs(vim.lsp.get_active_clients()) do -- 0.7
    if client.name == config.name and client.config.root_dir == config.root_dir and not client.is_stopped(client) then
      vim.lsp.buf_attach_client(bufnr, client.id)
      return client.id
    end
  end
  local id = vim.lsp.start_client(config)
  if id then
    vim.lsp.buf_attach_client(bufnr, id)
  end
  return id
end

local warned = false

--- Whether the server command can run; says why not once.
local function runnable(cmd)
  local exe = type(cmd) == 'table' and cmd[1] or nil
  if type(exe) ~= 'string' or vim.fn.executable(exe) == 1 then
    return true -- (a function cmd, 0.11, is the user's business)
  end
  if not warned then
    warned = true
    notify(
      ('%q is not executable: install the `lights` binary (cargo install --path crates/cli) '
        .. 'or pass its path as setup({ cmd = { "/path/to/lights", "lsp" } })'):format(exe)
    )
  end
  return false
end

--- Register the language server for the `lights` filetype and start it for open `.lights` buffers.
function M.setup(opts)
  local config
  config, opts = M.config(opts)
  if not runnable(opts.cmd) then
    return
  end

  if opts.native ~= false and has('0.11') and vim.lsp.config and vim.lsp.enable then
    local markers = opts.root_markers
    config.root_dir = function(bufnr, on_dir)
      on_dir(M.root_dir(vim.api.nvim_buf_get_name(bufnr), markers))
    end
    config.name = nil
    vim.lsp.config('lights', config)
    vim.lsp.enable('lights')
    return
  end

  local group = vim.api.nvim_create_augroup('lights_lsp', { clear = true })
  vim.api.nvim_create_autocmd('FileType', {
    group = group,
    pattern = opts.filetypes,
    callback = function(args)
      if vim.bo[args.buf].buftype == '' then
        start(config, args.buf, opts.root_markers)
      end
    end,
  })
  -- Buffers that already have the filetype (setup() called late, e.g. by a lazy plugin manager).
  for _, bufnr in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(bufnr) and vim.bo[bufnr].buftype == ''
      and vim.tbl_contains(opts.filetypes, vim.bo[bufnr].filetype) then
      start(config, bufnr, opts.root_markers)
    end
  end
end

return M

-- The init.lua of a user who installed editors/nvim by hand, for the plugin tests
-- (run.sh uses it when LSP_PLUGIN is set). Inputs (env):
--   LSP_PLUGIN           the plugin folder, put first on the runtimepath
--   LSP_PLUGIN_CMD       the server command, a JSON list
--   LSP_PLUGIN_SETTINGS  optional JSON: the server's settings
--   LSP_PLUGIN_MODE      "setup" (default): require("lights").setup{cmd = …, settings = …};
--                        "autocmd": the same with native = false (the FileType autocmd
--                        that 0.7–0.10 use, on any version);
--                        "native" (Neovim 0.11+): only the plugin's lsp/lights.lua, through
--                        vim.lsp.config("lights", {cmd = …, settings = {lights = …}}) + vim.lsp.enable.
vim.opt.runtimepath:prepend(os.getenv('LSP_PLUGIN'))
local cmd = vim.fn.json_decode(os.getenv('LSP_PLUGIN_CMD'))
local raw = os.getenv('LSP_PLUGIN_SETTINGS')
local settings = (raw and raw ~= '') and vim.fn.json_decode(raw) or nil
if os.getenv('LSP_PLUGIN_MODE') == 'native' then
  vim.lsp.config('lights', { cmd = cmd, settings = settings and { lights = settings } or nil })
  vim.lsp.enable('lights')
else
  local native = nil
  if os.getenv('LSP_PLUGIN_MODE') == 'autocmd' then native = false end
  require('lights').setup({ cmd = cmd, settings = settings, native = native })
end

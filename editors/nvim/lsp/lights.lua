-- The `lights` language server for Neovim 0.11+'s native configs (:help lsp-config).
-- With this folder on the runtimepath:
--
--   vim.lsp.config("lights", { settings = { lights = { inlayHints = { enable = true } } } })
--   vim.lsp.enable("lights")
--
-- (require("lights").setup({...}) does the same and also refreshes code lenses.)
-- Settings (docs/lsp.md): codeLens.enable, inlayHints.enable, solver.timeBudgetMs, under "lights".
-- The server reads them from initializationOptions at start and from
-- workspace/didChangeConfiguration later; before_init copies `settings` into
-- initializationOptions, so changing either one is enough.
return {
  cmd = { 'lights', 'lsp' },
  filetypes = { 'lights' },
  -- The nearest folder with .git, else the file's own folder (root_dir below). root_markers is
  -- what Neovim would use without root_dir; it is kept for tools that read it.
  root_markers = { '.git' },
  root_dir = function(bufnr, on_dir)
    local fname = vim.api.nvim_buf_get_name(bufnr)
    on_dir(vim.fs.root(bufnr, { '.git' }) or (fname ~= '' and vim.fs.dirname(fname)) or vim.fn.getcwd())
  end,
  settings = { lights = vim.empty_dict() },
  init_options = { lights = vim.empty_dict() },
  before_init = function(params, config)
    local s = config.settings and config.settings.lights
    if type(s) == 'table' and next(s) ~= nil then
      local init = params.initializationOptions
      if type(init) ~= 'table' then
        init = {}
      end
      params.initializationOptions = vim.tbl_deep_extend('force', init, { lights = s })
    end
  end,
}

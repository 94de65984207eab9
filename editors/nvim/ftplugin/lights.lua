-- Buffer settings for .lights files: `//` comments, two-space indentation.
if vim.b.did_ftplugin then
  return
end
vim.b.did_ftplugin = 1

vim.bo.commentstring = '// %s'
vim.bo.comments = '://'
vim.bo.expandtab = true
vim.bo.shiftwidth = 2
vim.bo.softtabstop = 2
-- Wrap and continue comments (c, r, o, q, j), never code (no t).
vim.opt_local.formatoptions:remove('t')
vim.opt_local.formatoptions:append('croqj')

vim.b.undo_ftplugin = 'setlocal commentstring< comments< expandtab< shiftwidth< softtabstop< formatoptions<'

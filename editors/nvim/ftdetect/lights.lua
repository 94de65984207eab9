-- *.lights → filetype "lights". An autocmd (in the filetypedetect group, where ftdetect
-- scripts are sourced) works on every Neovim from 0.7 on; 0.8+ also learns it through
-- vim.filetype.add, so vim.filetype.match() knows it too.
if vim.filetype and vim.filetype.add and vim.fn.has('nvim-0.8') == 1 then
  vim.filetype.add({ extension = { lights = 'lights' } })
else
  vim.cmd('autocmd BufRead,BufNewFile *.lights setfiletype lights')
end

" Vim indent file
" Language: lights (Lights Out puzzles, *.lights)
" One level (shiftwidth) per open brace: statements inside a puzzle block, rows inside a grid.

if exists('b:did_indent')
  finish
endif
let b:did_indent = 1

setlocal autoindent
setlocal indentexpr=LightsIndent(v:lnum)
setlocal indentkeys=0{,0},!^F,o,O
let b:undo_indent = 'setlocal autoindent< indentexpr< indentkeys<'

if exists('*LightsIndent')
  finish
endif

" The text of line `lnum` without its comment and trailing blanks.
" (A `//` inside a quoted name is not a comment.)
function! s:Code(lnum) abort
  let line = getline(a:lnum)
  let line = substitute(line, '"\%([^"\\]\|\\.\)*"', '""', 'g')
  return substitute(line, '\s*//.*$', '', '')
endfunction

" Open minus closed braces on line `lnum`.
function! s:Balance(lnum) abort
  let code = s:Code(a:lnum)
  return len(substitute(code, '[^{]', '', 'g')) - len(substitute(code, '[^}]', '', 'g'))
endfunction

function! LightsIndent(lnum) abort
  let prev = prevnonblank(a:lnum - 1)
  if prev == 0
    return 0
  endif
  let ind = indent(prev)
  " A line that closes a brace it did not open already moved itself left.
  if s:Code(prev) =~# '^\s*}'
    let ind += shiftwidth()
  endif
  let ind += shiftwidth() * s:Balance(prev)
  if s:Code(a:lnum) =~# '^\s*}'
    let ind -= shiftwidth()
  endif
  return ind < 0 ? 0 : ind
endfunction

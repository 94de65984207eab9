" Vim syntax file
" Language:    lights (Lights Out puzzles, *.lights)
" Maintainer:  the lights project (editors/nvim)
" Reference:   docs/language.md and grammar/lights.pest
"
" Groups (each linked to a standard group; relink any with `:highlight link`):
"   lightsBlock      puzzle sliding                                  → Structure
"   lightsStatement  size grid graph states rule topology holes
"                    lights goal locked expect solution tiles
"                    order by (outside blocks)                       → Statement
"   lightsValue      on off at                                       → Boolean
"   lightsClaim      solvable unsolvable unique solutions presses
"                    difficulty moves                                → Keyword
"   lightsRule       cross king flip merlin ring                     → Type
"   lightsTopology   plane cylinder torus mobius klein projective
"                    cross-cap                                       → Type
"   lightsShape      grids: square hex; graphs: tetrahedron cube
"                    octahedron dodecahedron icosahedron petersen
"                    cycle path complete cube-surface                → Type
"   lightsNumber     numbers outside grids (5x5, states 3, 2,4:1)    → Number
"   lightsOperator   the x of a size, the , and : of an `at` list,
"                    the .. of a range (presses 4..8)                → Operator
"   lightsEdges      the braces of `graph { 1-2 2-3 }`               → Delimiter
"   lightsNode       a node number in a graph's edge list            → Number
"   lightsEdge       the - of an edge                                → Operator
"   lightsString     "NAME", "LLUR" (lightsEscape: \" and \\)        → String
"   lightsComment    // to the end of the line (lightsTodo inside)   → Comment
"   lightsGridBrace  the braces of a grid                            → Delimiter
"   lightsRowSep     the / between rows written on one line          → Delimiter
"   lightsCellOff    . or 0: a cell that is off                      → Comment
"   lightsCellOn     digits not all 0: a cell that is on (its value) → Constant
"   lightsCellLocked x  a locked button (in `locked`), a hole (in
"                    `holes`)                                        → Special
"   lightsTile       a tile number in `tiles` (sliding blocks)       → Number
"   lightsCellBlank  . the blank in `tiles`                          → Comment

if exists('b:current_syntax')
  finish
endif

let s:cpo_save = &cpoptions
set cpoptions&vim

syntax case match
" Names are letters, digits, `-` and `_` (so `cross-cap` is one word).
syntax iskeyword @,48-57,_,-

syntax keyword lightsBlock     puzzle sliding
syntax keyword lightsStatement size grid graph states rule topology holes lights goal locked expect solution tiles order by
syntax keyword lightsValue     on off at
syntax keyword lightsClaim     solvable unsolvable unique solutions presses difficulty moves
syntax keyword lightsRule      cross king flip merlin ring
syntax keyword lightsTopology  plane cylinder torus mobius klein projective cross-cap
syntax keyword lightsShape     square hex
syntax keyword lightsShape     tetrahedron cube octahedron dodecahedron icosahedron petersen cycle path complete cube-surface

syntax match   lightsNumber    /\d\+/
syntax match   lightsOperator  /\%(\d\s*\)\@<=x\ze\s*\d/
syntax match   lightsOperator  /[,:]\ze\s*\d/
syntax match   lightsOperator  /\%(\d\s*\)\@<=\.\.\ze\s*\d/

syntax region  lightsString    start=/"/ skip=/\\[\\"]/ end=/"/ oneline contains=lightsEscape
syntax match   lightsEscape    /\\[\\"]/ contained

syntax keyword lightsTodo      TODO FIXME XXX NOTE contained
syntax match   lightsComment   +//.*$+ contains=lightsTodo,@Spell

" A grid: the brace block after lights, goal, locked, holes, solution or rule. It ends at its
" `}`, or (like the parser's recovery from a missing `}`) before a line starting with a keyword.
syntax region  lightsGrid      matchgroup=lightsGridBrace
      \ start=/\%(\<\%(lights\|goal\|locked\|holes\|solution\|rule\)\s*\)\@<={/
      \ end=/}/
      \ end=/^\ze\s*\%(puzzle\|sliding\|size\|grid\|graph\|states\|rule\|topology\|holes\|lights\|goal\|locked\|expect\|solution\|tiles\)\>/
      \ contains=lightsCellOff,lightsCellOn,lightsCellLocked,lightsRowSep,lightsComment
syntax match   lightsCellOff    /[.0]/ contained
syntax match   lightsCellOn     /\d*[1-9]\d*/ contained
syntax match   lightsCellLocked /x/ contained
" `/` between rows written on one line (`{ .1. / 111 / .1. }`); `//` is a comment.
syntax match   lightsRowSep     +/\ze\%([^/]\|$\)+ contained

" The tiles of a sliding block: numbers are tiles, `.` the blank (same ends as a grid).
syntax region  lightsTiles     matchgroup=lightsGridBrace
      \ start=/\%(\<tiles\s*\)\@<={/
      \ end=/}/
      \ end=/^\ze\s*\%(puzzle\|sliding\|size\|grid\|graph\|states\|rule\|topology\|holes\|lights\|goal\|locked\|expect\|solution\|tiles\)\>/
      \ contains=lightsTile,lightsCellBlank,lightsRowSep,lightsComment
syntax match   lightsTile       /\d\+/ contained
syntax match   lightsCellBlank  /\./ contained

" The edges of a written graph, `graph { 1-2 2-3 4 }`, over one or several lines (same ends
" as a grid).
syntax region  lightsEdgeList  matchgroup=lightsEdges
      \ start=/\%(\<graph\s*\)\@<={/
      \ end=/}/
      \ end=/^\ze\s*\%(puzzle\|sliding\|size\|grid\|graph\|states\|rule\|topology\|holes\|lights\|goal\|locked\|expect\|solution\|tiles\)\>/
      \ contains=lightsNode,lightsEdge,lightsComment
syntax match   lightsNode       /\d\+/ contained
syntax match   lightsEdge       /\%(\d\s*\)\@<=-\ze\s*\d/ contained

" Highlighting from the middle of a file starts this many lines earlier, so a grid (up to
" 500 rows) is known to be one.
syntax sync minlines=500

highlight default link lightsBlock      Structure
highlight default link lightsStatement  Statement
highlight default link lightsValue      Boolean
highlight default link lightsClaim      Keyword
highlight default link lightsRule       Type
highlight default link lightsTopology   Type
highlight default link lightsShape      Type
highlight default link lightsNumber     Number
highlight default link lightsOperator   Operator
highlight default link lightsString     String
highlight default link lightsEscape     SpecialChar
highlight default link lightsComment    Comment
highlight default link lightsTodo       Todo
highlight default link lightsGridBrace  Delimiter
highlight default link lightsRowSep     Delimiter
highlight default link lightsCellOff    Comment
highlight default link lightsCellOn     Constant
highlight default link lightsCellLocked Special
highlight default link lightsTile       Number
highlight default link lightsCellBlank  Comment
highlight default link lightsEdges      Delimiter
highlight default link lightsNode       Number
highlight default link lightsEdge       Operator

let b:current_syntax = 'lights'

let &cpoptions = s:cpo_save
unlet s:cpo_save

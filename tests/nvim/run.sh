#!/bin/sh
# Usage: LSP_CMD='target/debug/lights lsp' tests/nvim/run.sh FILE.lights [LINE]
# NVIM=/path/to/nvim to pick a Neovim binary (default: nvim on PATH).
# Every other input is an environment variable read by harness.lua (see its header).
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
export LSP_FILE="$1" LSP_LINE="${2:-0}"
: "${LSP_CMD:?set LSP_CMD to the server command}"
# Keep Neovim's state (lsp.log, shada, swap) out of $HOME and make every run identical.
SCRATCH=$(mktemp -d); trap 'rm -rf "$SCRATCH"' EXIT
export XDG_CONFIG_HOME="$SCRATCH/c" XDG_DATA_HOME="$SCRATCH/d" XDG_STATE_HOME="$SCRATCH/s" XDG_CACHE_HOME="$SCRATCH/k"
# Hard wall-clock cap in case Neovim itself hangs (vim.wait timeouts cover the LSP side).
# (No `exec`: the EXIT trap must still run to remove $SCRATCH.)
rc=0
timeout "${HARNESS_WALL_S:-60}" "${NVIM:-nvim}" --headless --clean -n -c "luafile $HERE/harness.lua" </dev/null || rc=$?
exit $rc

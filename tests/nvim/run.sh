#!/bin/sh
# Usage: LSP_CMD='target/debug/lights lsp' tests/nvim/run.sh FILE.lights [LINE]
#    or: LSP_PLUGIN=editors/nvim LSP_PLUGIN_CMD='["target/debug/lights","lsp"]' tests/nvim/run.sh FILE.lights [LINE]
# NVIM=/path/to/nvim to pick a Neovim binary (default: nvim on PATH).
# Every other input is an environment variable read by harness.lua (see its header).
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
export LSP_FILE="$1" LSP_LINE="${2:-0}"
if [ -z "${LSP_PLUGIN:-}" ]; then : "${LSP_CMD:?set LSP_CMD to the server command (or LSP_PLUGIN)}"; fi
# Keep Neovim's state (lsp.log, shada, swap) out of $HOME and make every run identical.
SCRATCH=$(mktemp -d); trap 'rm -rf "$SCRATCH"' EXIT
export XDG_CONFIG_HOME="$SCRATCH/c" XDG_DATA_HOME="$SCRATCH/d" XDG_STATE_HOME="$SCRATCH/s" XDG_CACHE_HOME="$SCRATCH/k"
# Hard wall-clock cap in case Neovim itself hangs (vim.wait timeouts cover the LSP side).
# (No `exec`: the EXIT trap must still run to remove $SCRATCH.)
rc=0
if [ -n "${LSP_PLUGIN:-}" ]; then
  # As a user would: plugin_init.lua is the init.lua (the plugin on the runtimepath, setup()),
  # so filetype detection, the syntax file and the ftplugin come from the plugin folder.
  set -- -u "$HERE/plugin_init.lua" -i NONE
else
  set -- --clean
fi
timeout "${HARNESS_WALL_S:-60}" "${NVIM:-nvim}" --headless "$@" -n -c "luafile $HERE/harness.lua" </dev/null || rc=$?
exit $rc

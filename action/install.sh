#!/usr/bin/env bash
# The install step of the GitHub Action (action.yml): puts a prebuilt
# `lights` on PATH from the lights-cli wheel on PyPI, with pip, into a
# virtual environment of its own. Nothing is compiled: `--only-binary` makes
# a platform without a wheel an error, not a 20-minute build.
#
# Environment:
#   LIGHTS_VERSION   the lights-cli version to install (the action's own by
#                    default); `latest` for the newest on PyPI
#   RUNNER_TEMP      where the virtual environment goes (default: /tmp)
#   GITHUB_PATH      the runner's file of PATH additions (optional)
#   GITHUB_OUTPUT    the step's outputs: `version`, `bin` (optional)
#   PIP_FIND_LINKS, PIP_INDEX_URL …  pip's own settings apply (the tests
#                    install a locally built wheel this way)
set -euo pipefail

version="${LIGHTS_VERSION:-}"
if [ -z "$version" ]; then
  echo "::error title=lights::no version to install (the action's \`version\` input is empty)" >&2
  exit 2
fi
case "$version" in
  latest) requirement="lights-cli" ;;
  v[0-9]*) version="${version#v}"; requirement="lights-cli==$version" ;;
  [0-9]*) requirement="lights-cli==$version" ;;
  *) echo "::error title=lights::version '$version' is not a version number (like 0.1.0) or 'latest'" >&2; exit 2 ;;
esac

python=""
for candidate in python3 python; do
  if command -v "$candidate" >/dev/null 2>&1; then python="$candidate"; break; fi
done
if [ -z "$python" ]; then
  echo "::error title=lights::no Python on this runner: add actions/setup-python before this action, or give a lights binary in \`binary\`" >&2
  exit 2
fi

venv="${RUNNER_TEMP:-/tmp}/lights-venv"
rm -rf "$venv"
"$python" -m venv "$venv"
case "$(uname -s)" in MINGW* | MSYS* | CYGWIN*) bin="$venv/Scripts" ;; *) bin="$venv/bin" ;; esac

if ! "$bin/python" -m pip install --quiet --disable-pip-version-check --only-binary=:all: "$requirement"; then
  echo "::error title=lights::could not install $requirement from PyPI: is there a wheel for $(uname -s) $(uname -m)? Otherwise give a lights binary in \`binary\`" >&2
  exit 1
fi

installed=$("$bin/lights" --version)
echo "installed $installed in $bin"
if [ "$version" != latest ] && [ "$installed" != "lights $version" ]; then
  echo "::error title=lights::asked for lights $version, got '$installed'" >&2
  exit 1
fi
if [ -n "${GITHUB_PATH:-}" ]; then
  echo "$bin" >>"$GITHUB_PATH"
fi
if [ -n "${GITHUB_OUTPUT:-}" ]; then
  echo "version=${installed#lights }" >>"$GITHUB_OUTPUT"
  echo "bin=$bin" >>"$GITHUB_OUTPUT"
fi

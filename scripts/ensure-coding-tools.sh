#!/usr/bin/env bash
# Installs the coding tools that test/e2e/coding-tools drives through gw (Claude Code,
# Codex, Gemini CLI, opencode: exact versions in test/e2e/coding-tools/tools/package.json;
# no lock file, because npm drops other platforms' optional binary packages from a lock made
# here, and the tools bundle their own dependencies) into a cache folder outside the repo, $GW_CODING_TOOLS_DIR or
# ~/.cache/gw/coding-tools. They are not devDependencies: about 1 GiB of native binaries
# that every `npm install` of gw would otherwise download. Everything comes from the npm
# registry: the native binaries are optional platform packages; the only install
# scripts allowed (allowScripts) are Claude Code's and opencode's, which link that
# binary over their bin placeholder; Gemini CLI's node-pty and keytar builds are denied
# (they would fetch Node headers or prebuilds from outside the registry, and headless
# runs do not need them). Runs from scripts/ensure-test-deps.sh; does nothing when the
# installed set matches the manifest.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
manifest="$root/test/e2e/coding-tools/tools"
dir="${GW_CODING_TOOLS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/gw/coding-tools}"
stamp="$(sha256sum < "$manifest/package.json" | cut -d' ' -f1)"
if [ -f "$dir/.installed" ] && [ "$(cat "$dir/.installed")" = "$stamp" ]; then exit 0; fi
echo "installing the coding tools the tests drive (about 1 GiB, once) into $dir" >&2
mkdir -p "$dir"
rm -rf "$dir/node_modules" "$dir/.installed"
rm -f "$dir/package-lock.json"
cp "$manifest/package.json" "$dir/"
(cd "$dir" && npm install --no-package-lock --no-audit --no-fund --loglevel=error)
# Each must start (a placeholder left by a skipped install script would not); in a throwaway HOME.
probe_home="$(mktemp -d)"
trap 'rm -rf "$probe_home"' EXIT
for tool in claude codex gemini opencode; do
  if ! HOME="$probe_home" "$dir/node_modules/.bin/$tool" --version >/dev/null 2>&1 </dev/null; then
    echo "the coding tool $tool does not start after installing into $dir" >&2
    exit 1
  fi
done
echo "$stamp" > "$dir/.installed"

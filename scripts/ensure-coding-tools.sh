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
#
# The cache keeps one set per manifest (sets/<sha256 of package.json>/, the newest three), and
# $dir/node_modules names the one in use: a clone whose manifest went back to an earlier pin, or
# a branch on other pins, switches sets instead of downloading 1 GiB again (2.5 min of a CI run).
# A set already installed for this manifest in a sibling cache (another GW_CODING_TOOLS_DIR
# under the same folder) is copied as hard links.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
manifest="$root/test/e2e/coding-tools/tools"
dir="${GW_CODING_TOOLS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/gw/coding-tools}"
stamp="$(sha256sum < "$manifest/package.json" | cut -d' ' -f1)"
if [ -f "$dir/.installed" ] && [ "$(cat "$dir/.installed")" = "$stamp" ]; then exit 0; fi
mkdir -p "$dir/sets"
set_dir="$dir/sets/$stamp"

# A set the cache held before it kept sets (a real node_modules) keeps its files, under its own stamp.
if [ -d "$dir/node_modules" ] && [ ! -L "$dir/node_modules" ] && [ -f "$dir/.installed" ]; then
  old="$dir/sets/$(cat "$dir/.installed")"
  rm -rf "$old" && mkdir -p "$old"
  mv "$dir/node_modules" "$old/node_modules"
  cp "$dir/package.json" "$old/" 2>/dev/null || true
  cp "$dir/.installed" "$old/.installed"
fi
rm -f "$dir/.installed"

installed_here() { [ -f "$1/.installed" ] && [ "$(cat "$1/.installed")" = "$stamp" ] && [ -d "$1/node_modules" ]; }

if ! installed_here "$set_dir"; then
  rm -rf "$set_dir" && mkdir -p "$set_dir"
  cp "$manifest/package.json" "$set_dir/"
  source_set=""
  for candidate in "$(dirname "$dir")"/*/ "$(dirname "$dir")"/*/sets/*/; do
    candidate="${candidate%/}"
    [ "$candidate" = "$dir" ] || [ "$candidate" = "$set_dir" ] && continue
    if installed_here "$candidate" && [ ! -L "$candidate/node_modules" ]; then source_set="$candidate"; break; fi
  done
  if [ -n "$source_set" ]; then
    echo "coding tools: reusing the set installed for this manifest in $source_set" >&2
    cp -al "$source_set/node_modules" "$set_dir/node_modules"
  else
    echo "installing the coding tools the tests drive (about 1 GiB, once per manifest) into $set_dir" >&2
    (cd "$set_dir" && npm install --no-package-lock --no-audit --no-fund --loglevel=error)
  fi
  # Each must start (a placeholder left by a skipped install script would not); in a throwaway HOME.
  probe_home="$(mktemp -d)"
  trap 'rm -rf "$probe_home"' EXIT
  for tool in claude codex gemini opencode; do
    if ! HOME="$probe_home" "$set_dir/node_modules/.bin/$tool" --version >/dev/null 2>&1 </dev/null; then
      echo "the coding tool $tool does not start after installing into $set_dir" >&2
      exit 1
    fi
  done
  echo "$stamp" > "$set_dir/.installed"
fi

# Switch in one rename, so a reader sees the old set or the new one.
ln -sfn "sets/$stamp/node_modules" "$dir/node_modules.next"
mv -T "$dir/node_modules.next" "$dir/node_modules"
cp "$manifest/package.json" "$dir/package.json"
echo "$stamp" > "$dir/.installed"
touch "$set_dir"
# The newest three sets stay (about 1 GiB each); the one in use is always among them.
ls -1dt "$dir"/sets/*/ 2>/dev/null | tail -n +4 | while read -r stale; do
  [ "${stale%/}" = "$set_dir" ] || rm -rf "$stale"
done

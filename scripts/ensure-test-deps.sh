#!/usr/bin/env bash
# Installs the Debian packages the test suite drives for real (the shells the
# completion scripts are checked in; chromium, which drives the device-login
# page through playwright-core at /usr/bin/chromium; postgresql and redis-server,
# which the scale-out tests start in temporary folders on loopback ports). Runs as part of `npm test`; does nothing
# when they are already there. First, the coding tools test/e2e/coding-tools drives
# (npm packages into a cache folder: see ensure-coding-tools.sh).
set -euo pipefail
bash "$(dirname "${BASH_SOURCE[0]}")/ensure-coding-tools.sh"
packages=(zsh fish chromium redis-server)
missing=()
for package in "${packages[@]}"; do
  command -v "$package" >/dev/null 2>&1 || missing+=("$package")
done
# Debian keeps the PostgreSQL server binaries off the PATH, under /usr/lib/postgresql/<major>/bin.
compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null || missing+=(postgresql)
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -ne 0 ] && ! command -v sudo >/dev/null 2>&1; then
  echo "the tests need: ${missing[*]} (install them with your package manager)" >&2
  exit 1
fi
sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"
echo "installing test dependencies: ${missing[*]}" >&2
$sudo apt-get update -qq >/dev/null
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null

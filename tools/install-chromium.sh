#!/bin/sh
# Installs Debian's chromium for the explorer's end-to-end tests (npm run test:e2e drives it with
# playwright-core at /usr/bin/chromium). Idempotent: does nothing when chromium already runs.
# Needs root (or sudo) on Debian/Ubuntu; CHROMIUM_PATH overrides the binary the tests use.
set -eu

bin="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [ -x "$bin" ] && "$bin" --headless --no-sandbox --disable-gpu --version >/dev/null 2>&1; then
  echo "chromium present: $("$bin" --version 2>/dev/null)"
  exit 0
fi

if [ "$(id -u)" -eq 0 ]; then sudo=""; elif command -v sudo >/dev/null 2>&1; then sudo="sudo"; else
  echo "install-chromium: need root or sudo to apt-get install chromium" >&2
  exit 1
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "install-chromium: no apt-get here; install Chromium yourself and set CHROMIUM_PATH" >&2
  exit 1
fi

export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -q
# fonts-liberation: readable text in screenshots when no other fonts are installed.
$sudo apt-get install -y -q --no-install-recommends chromium fonts-liberation
echo "chromium installed: $(/usr/bin/chromium --version 2>/dev/null)"

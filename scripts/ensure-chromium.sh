#!/usr/bin/env bash
# The browser tests drive Debian's Chromium (/usr/bin/chromium) with playwright-core; npm packages cannot
# download a browser here. Installs it when missing and this is a root shell with apt-get; otherwise says how.
# Beside it, Debian's chromium-headless-shell (the same engine without the full browser's start-up), which the
# tests use when present (test/browser/harness.ts): each new page of a test opens in about half the time.
# It is optional: without it the tests run on /usr/bin/chromium.
set -euo pipefail
missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
[ -x /usr/bin/chromium-headless-shell ] || missing+=(chromium-headless-shell)
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing Debian's ${missing[*]} for the browser tests..." >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  for package in "${missing[@]}"; do
    if ! apt-get install -y -qq "$package" >/dev/null; then
      [ "$package" = chromium ] && exit 1
      echo "$package could not be installed: the browser tests use /usr/bin/chromium." >&2
    fi
  done
  exit 0
fi
[ -x /usr/bin/chromium ] && exit 0
echo "The browser tests need Debian's chromium at /usr/bin/chromium: run 'sudo apt-get install chromium chromium-headless-shell'." >&2
exit 1

#!/usr/bin/env bash
# The browser tests drive Debian's Chromium (/usr/bin/chromium) with playwright-core; npm packages cannot
# download a browser here. Installs it when missing and this is a root shell with apt-get; otherwise says how.
set -euo pipefail
[ -x /usr/bin/chromium ] && exit 0
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing Debian's chromium for the browser tests..." >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq chromium >/dev/null
  exit 0
fi
echo "The browser tests need Debian's chromium at /usr/bin/chromium: run 'sudo apt-get install chromium'." >&2
exit 1

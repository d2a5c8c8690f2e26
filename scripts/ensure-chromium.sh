#!/usr/bin/env bash
# The browser tests drive Debian's Chromium with playwright-core (npm packages cannot download a browser here):
# chromium-headless-shell (the same engine without the full browser's start-up: each new page of a test opens in
# about half the time) when it is on PATH, else chromium (test/browser/harness.ts). Installs both when missing and
# this is a root shell with apt-get. Without a Chromium the browser tests cannot run, so this fails, saying why,
# everywhere; chromium-headless-shell alone is optional.
set -uo pipefail
have() { command -v "$1" >/dev/null 2>&1; }
missing=()
have chromium || missing+=(chromium)
have chromium-headless-shell || missing+=(chromium-headless-shell)
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing Debian's ${missing[*]} for the browser tests..." >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  for package in "${missing[@]}"; do
    apt-get install -y -qq "$package" >/dev/null
  done
  why="installing Debian's ${missing[*]} did not put chromium or chromium-headless-shell on PATH"
else
  why="neither chromium nor chromium-headless-shell is on PATH"
fi
if have chromium-headless-shell || have chromium; then
  have chromium-headless-shell || echo "chromium-headless-shell is missing: the browser tests use chromium, at about twice the cost of each new page." >&2
  exit 0
fi
echo "Chromium is missing ($why): the browser tests cannot run. Install it with 'sudo apt-get install chromium chromium-headless-shell'." >&2
exit 1

#!/usr/bin/env bash
# The gateway's Redis tests (test/integration/gateway/redis.test.ts, redis-hostile.test.ts) start Debian's
# redis-server (found on PATH) themselves on 127.0.0.1. Installs it when missing and this is a root shell with
# apt-get; the package's service is not started: the tests start their own redis-server on a free port. Under
# CI=true a redis-server still missing fails (CI runs every check); elsewhere it is said, not fatal: those tests
# then skip with a line saying so, and every other test runs.
set -uo pipefail
found() { command -v redis-server >/dev/null 2>&1; }
found && exit 0
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing Debian's redis-server for the gateway's Redis tests..." >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq && apt-get install -y -qq --no-install-recommends redis-server >/dev/null
  found && exit 0
  why="installing Debian's redis-server did not put redis-server on PATH"
else
  why="redis-server is not on PATH"
fi
if [ "${CI:-}" = "true" ]; then
  echo "Redis is missing ($why), and CI=true, where the gateway's Redis tests must run: install it with 'sudo apt-get install redis-server' and put redis-server on PATH." >&2
  exit 1
fi
echo "Redis is missing ($why): the gateway's Redis tests will skip. Install it with 'sudo apt-get install redis-server'." >&2
exit 0

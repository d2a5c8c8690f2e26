#!/usr/bin/env bash
# The gateway's Redis tests (test/integration/gateway/redis.test.ts) start Debian's redis-server themselves on
# 127.0.0.1. Installs it when missing and this is a root shell with apt-get; otherwise says how, without
# failing: those tests then skip with a line saying so, and every other test runs.
set -euo pipefail
command -v redis-server >/dev/null 2>&1 && exit 0
[ -x /usr/bin/redis-server ] && exit 0
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing Debian's redis-server for the gateway's Redis tests..." >&2
  export DEBIAN_FRONTEND=noninteractive
  # The package's service is not started here: the tests start their own redis-server on a free port. A failed
  # install is said and not fatal: the Redis tests then skip with a line saying so, and the rest still runs.
  if apt-get update -qq && apt-get install -y -qq --no-install-recommends redis-server >/dev/null; then
    exit 0
  fi
  echo "Installing redis-server failed; the gateway's Redis tests will skip." >&2
  exit 0
fi
echo "The gateway's Redis tests need Debian's redis-server: run 'sudo apt-get install redis-server' (they skip without it)." >&2
exit 0

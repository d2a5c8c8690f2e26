#!/usr/bin/env bash
# The formula engine's oracle test (test/integration/workbook/libreoffice-oracle.test.ts) and the shared
# workbook's test (test/integration/cli/fdq-freeze-share.test.ts) have LibreOffice (soffice, found on PATH) open
# the workbooks fdq wrote, headless. Installs Debian's libreoffice-calc-nogui when soffice is missing and this is a
# root shell with apt-get. Under CI=true a LibreOffice still missing fails (CI runs every check); elsewhere it is
# said, not fatal: those tests then skip with a line saying so, and every other test runs.
set -uo pipefail
found() { command -v soffice >/dev/null 2>&1; }
found && exit 0
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing Debian's libreoffice-calc-nogui for the LibreOffice tests..." >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq && apt-get install -y -qq --no-install-recommends libreoffice-calc-nogui >/dev/null
  found && exit 0
  why="installing Debian's libreoffice-calc-nogui did not put soffice on PATH"
else
  why="soffice is not on PATH"
fi
if [ "${CI:-}" = "true" ]; then
  echo "LibreOffice is missing ($why), and CI=true, where the LibreOffice tests must run: install it with 'sudo apt-get install libreoffice-calc-nogui' and put soffice on PATH." >&2
  exit 1
fi
echo "LibreOffice is missing ($why): the LibreOffice tests will skip. Install it with 'sudo apt-get install libreoffice-calc-nogui'." >&2
exit 0

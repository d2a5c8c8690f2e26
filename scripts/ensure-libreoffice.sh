#!/usr/bin/env bash
# The formula engine's oracle test (test/integration/workbook/libreoffice-oracle.test.ts) has LibreOffice
# recalculate the workbooks fdq refresh recalculated, headless. Installs Debian's libreoffice-calc-nogui when
# soffice is missing and this is a root shell with apt-get; otherwise says how, without failing: the oracle
# test then skips with a line saying so, and every other test runs.
set -euo pipefail
command -v soffice >/dev/null 2>&1 && exit 0
[ -x /usr/bin/soffice ] && exit 0
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing Debian's libreoffice-calc-nogui for the formula engine's oracle test..." >&2
  export DEBIAN_FRONTEND=noninteractive
  if apt-get update -qq && apt-get install -y -qq --no-install-recommends libreoffice-calc-nogui >/dev/null; then
    exit 0
  fi
  echo "Installing libreoffice-calc-nogui failed; the LibreOffice oracle test will skip." >&2
  exit 0
fi
echo "The formula engine's oracle test needs LibreOffice: run 'sudo apt-get install libreoffice-calc-nogui' (it skips without it)." >&2
exit 0

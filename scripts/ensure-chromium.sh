#!/usr/bin/env bash
# The browser tests drive Debian's Chromium (playwright-core never downloads a browser). Installs it when missing.
set -euo pipefail
chromium_path=${CHROMIUM_PATH:-/usr/bin/chromium}
if [ -x "$chromium_path" ]; then
  exit 0
fi
echo "› installing Chromium from Debian's packages"
sudo=""
if [ "$(id -u)" != "0" ]; then
  sudo="sudo"
fi
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium >/dev/null

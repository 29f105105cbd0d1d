#!/usr/bin/env bash
# The tests use real programs from Debian's packages: Chromium for the browser tests (playwright-core never downloads
# a browser), curl for the docs' curl examples, PostgreSQL's server for the server's tests on PostgreSQL, and for the
# e-mail tests Postfix (a throw-away relay), Cyrus SASL's saslpasswd2 (its logins), swaks (an SMTP client) and
# openssl (certificates for STARTTLS and TLS), and for the deployment guide's examples nginx (a throw-away balancer)
# and sqlite3 (its backup command), and systemd's systemd-analyze (it verifies the unit the server package ships;
# nothing is started with it). Installs whichever is missing, and with CI=true all of them even when present, so that
# CI proves each install step works on a machine that lacks the tool.
set -euo pipefail

# command or file to look for, then the Debian package that provides it. PostgreSQL's programs are in a folder per
# major version, off PATH, so its file is a pattern.
tools=(
  "${CHROMIUM_PATH:-/usr/bin/chromium}" chromium
  curl curl
  "${POSTGRES_BIN_DIR:-/usr/lib/postgresql/*/bin}/initdb" postgresql
  /usr/sbin/postfix postfix
  /usr/sbin/saslpasswd2 sasl2-bin
  swaks swaks
  openssl openssl
  /usr/sbin/nginx nginx
  sqlite3 sqlite3
  systemd-analyze systemd
)

present() {
  command -v "$1" >/dev/null 2>&1 || compgen -G "$1" >/dev/null
}

wanted=()
for ((i = 0; i < ${#tools[@]}; i += 2)); do
  if [ "${CI:-}" = "true" ] || ! present "${tools[i]}"; then
    wanted+=("${tools[i + 1]}")
  fi
done
if [ ${#wanted[@]} -eq 0 ]; then
  exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "Missing ${wanted[*]} and no apt-get to install them: install them (for Chromium or Chrome elsewhere, set CHROMIUM_PATH; for PostgreSQL's server programs, POSTGRES_BIN_DIR)." >&2
  exit 1
fi
echo "› installing ${wanted[*]} from Debian's packages"
sudo=""
if [ "$(id -u)" != "0" ]; then
  sudo="sudo"
fi
started=$SECONDS
$sudo apt-get update -qq
# Installing Postfix replaces any other mail server: refuse rather than remove a package the machine relies on.
removed=$(apt-get install --simulate -qq "${wanted[@]}" | awk '$1 == "Remv" { print $2 }')
if [ -n "$removed" ]; then
  echo "Installing ${wanted[*]} would remove $(echo $removed): install them yourself, or run the tests elsewhere." >&2
  exit 1
fi
# The tests run Postfix from configurations of their own: the system's Postfix is left unconfigured, and so stopped.
echo "postfix postfix/main_mailer_type select No configuration" | $sudo debconf-set-selections
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${wanted[@]}" >/dev/null
echo "› ${wanted[*]} installed in $((SECONDS - started)) s"

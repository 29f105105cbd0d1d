#!/usr/bin/env bash
# The main job: set-up, build everything, then run the server (both APIs), the sample app and the docs site
# on 127.0.0.1, and print their addresses once all of them answer. Ctrl-C stops everything.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh
export TURBO_TELEMETRY_DISABLED=1 DO_NOT_TRACK=1
pnpm build
node scripts/announce.mjs &
# On Ctrl-C every server stops cleanly, but pnpm reports each script it ran as failed (ELIFECYCLE) when it is
# interrupted: its reporter stays silent here, and the servers' own output is unchanged.
export npm_config_reporter=silent
exec pnpm start

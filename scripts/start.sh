#!/usr/bin/env bash
# The main job: set-up, build everything, then serve the generated API reference of both APIs.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh
export TURBO_TELEMETRY_DISABLED=1 DO_NOT_TRACK=1
pnpm build
pnpm start

#!/usr/bin/env bash
# The whole test suite, from a fresh clone: set-up, spec lint, bundle, drift check of the generated
# types, lint, typecheck and every test, the browser tests included.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh
bash scripts/ensure-test-tools.sh
export TURBO_TELEMETRY_DISABLED=1 DO_NOT_TRACK=1
pnpm test

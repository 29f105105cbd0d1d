#!/usr/bin/env bash
# Brings a machine that has only Node >= 20.19 and npm to a ready workspace: pinned pnpm, then the
# locked dependencies (which include Node 24 itself, so every script and task runs on Node 24).
# With CI=true every install step runs even when its tool is already there, so CI proves each step works.
set -euo pipefail
cd "$(dirname "$0")/.."

pnpm_version=$(node -p "require('./package.json').packageManager.split('@')[1]")
if [ "${CI:-}" = "true" ] || ! command -v pnpm >/dev/null 2>&1 || [ "$(pnpm --version 2>/dev/null)" != "$pnpm_version" ]; then
  echo "› installing pnpm $pnpm_version"
  # store-dir, when set (CI gives each run an empty store), is pnpm's setting: npm would warn that it does not know it.
  env -u npm_config_store_dir npm install --global --no-fund --no-audit "pnpm@$pnpm_version" >/dev/null
fi

export TURBO_TELEMETRY_DISABLED=1 DO_NOT_TRACK=1 ASTRO_TELEMETRY_DISABLED=1
echo "› installing dependencies into $(pnpm store path)"
started=$SECONDS
# A node_modules installed from another store (say, by an earlier CI run here) is replaced without a prompt.
pnpm install --frozen-lockfile --config.confirmModulesPurge=false --reporter=append-only | tail -n 3
echo "› dependencies installed in $((SECONDS - started)) s"

import { existsSync } from "node:fs";
import { type Browser, chromium } from "playwright-core";

/** Where Debian's package puts Chromium; `CHROMIUM_PATH` points elsewhere. */
const DEFAULT_CHROMIUM = "/usr/bin/chromium";

/**
 * Debian's Chromium, headless. The machines have no route out, so every background connection Chromium would open
 * (updates, sync, QUIC probes) is switched off: refused connections would otherwise pile up in its logs.
 */
export async function launchChromium(): Promise<Browser> {
  const executablePath = process.env.CHROMIUM_PATH ?? DEFAULT_CHROMIUM;
  if (!existsSync(executablePath)) {
    throw new Error(
      `No Chromium at ${executablePath}. Install Debian's package (apt-get install chromium) or set CHROMIUM_PATH.`,
    );
  }
  return chromium.launch({
    executablePath,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}

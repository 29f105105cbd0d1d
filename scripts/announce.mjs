// Waits until the server, the sample app and the docs site answer, then prints where they are. It runs on
// whichever Node started the main job (20 or newer), so it uses nothing but fetch.
const services = [
  ["Sample app", "http://127.0.0.1:4200/"],
  ["Docs", "http://127.0.0.1:4300/"],
  ["Inbox API (server)", "http://127.0.0.1:4010/health"],
  ["Forum API (server)", "http://127.0.0.1:4020/health"],
];
const deadline = Date.now() + 180_000;

async function answers(url) {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
    await response.body?.cancel();
    return response.ok;
  } catch {
    return false;
  }
}

let waiting = services;
while (waiting.length > 0 && Date.now() < deadline) {
  const ready = await Promise.all(waiting.map(([, url]) => answers(url)));
  waiting = waiting.filter((_, index) => !ready[index]);
  if (waiting.length > 0) {
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
}

// The server opens its SMTP port while starting, right after the HTTP ones: listed without a wait of its own.
const listed = [
  ...services,
  ["Mail in (SMTP)", "smtp://127.0.0.1:2525"],
  ["Test control", "http://127.0.0.1:4010/_test"],
];
const width = Math.max(...listed.map(([name]) => name.length));
const lines = listed.map(([name, url]) => `  ${name.padEnd(width)}  ${url.replace(/health$/, "")}`);
const keyRows = [
  ["Inbox API key", process.env.PIGEONHOLE_INBOX_API_KEY || "pigeonhole-inbox-dev"],
  ["Forum API key", process.env.PIGEONHOLE_FORUM_API_KEY || "pigeonhole-forum-dev"],
  // A key of one's own is a secret: only the default is printed.
  [
    "Test control key",
    process.env.PIGEONHOLE_TEST_CONTROL_KEY ? "(PIGEONHOLE_TEST_CONTROL_KEY)" : "pigeonhole-test-control-dev",
  ],
];
const keyWidth = Math.max(...keyRows.map(([name]) => name.length));
const keys = keyRows.map(([name, key]) => `  ${name.padEnd(keyWidth)}  ${key}`);
const status =
  waiting.length === 0
    ? "Pigeonhole is running (Ctrl-C stops it):"
    : `Still waiting for: ${waiting.map(([name]) => name).join(", ")}. The rest:`;
process.stdout.write(`\n${status}\n${lines.join("\n")}\n${keys.join("\n")}\n\n`);

import { fileURLToPath } from "node:url";
import { launchChromium, type PageErrors, saveScreenshot, watchPageErrors } from "@pigeonhole/browser-testing";
import { createForumClient } from "@pigeonhole/forum";
import { createInboxClient } from "@pigeonhole/inbox";
import { type ServerOptions, startServer } from "@pigeonhole/server";
import type { BrowserContextOptions, Page } from "playwright-core";
import { startSampleServer } from "../src/server/sample-server.ts";

const PAGE_ROOT = fileURLToPath(new URL("../dist", import.meta.url));
const SCREENSHOTS = fileURLToPath(new URL("../test-results/screenshots", import.meta.url));

/** The agent that writes the posts a test starts with. */
export const WRITER = "writer";

/** A laptop's window. */
export const DESKTOP: BrowserContextOptions = { viewport: { width: 1400, height: 900 } };

/** A phone held upright, 390 CSS pixels wide, as Chromium emulates one: touch, and the page's viewport meta honoured. */
export const PHONE: BrowserContextOptions = {
  viewport: { width: 390, height: 844 },
  deviceScaleFactor: 3,
  isMobile: true,
  hasTouch: true,
};

/**
 * What a test may set in the stack's Pigeonhole server: lower limits, the clock its limits count time with, and the
 * relay its mail to outside addresses goes through, with the waits between attempts.
 */
export type StackOptions = Pick<ServerOptions, "limits" | "clock" | "smtpRelay" | "smtpRetryDelaysMs">;

/**
 * Everything the sample runs on, for real: a Pigeonhole server on free ports with an in-memory database, the sample's server
 * (listening to the Inbox API's live events) serving the built page, and Chromium.
 */
export async function startStack({ limits, clock, smtpRelay, smtpRetryDelaysMs }: StackOptions = {}) {
  const pigeonhole = await startServer({
    inboxPort: 0,
    forumPort: 0,
    database: ":memory:",
    // SMTP on a free port, so tests can send mail in from outside as any mail server would.
    smtpPort: 0,
    logger: false,
    limits: { forumReadsPerMinute: 10_000, forumWritesPerMinute: 10_000, ...limits },
    clock,
    smtpRelay,
    smtpRetryDelaysMs,
  });
  const inbox = createInboxClient({ baseUrl: pigeonhole.inbox.url, apiKey: pigeonhole.inbox.apiKey });
  // The sample's own agent is the development key's, as when it runs against `pigeonhole-server`.
  const own = createForumClient({ baseUrl: pigeonhole.forum.url, apiKey: pigeonhole.forum.apiKey });
  const sample = await startSampleServer({ inbox, forum: own, port: 0, pageRoot: PAGE_ROOT });
  const browser = await launchChromium();

  const smtp = pigeonhole.smtp;
  if (smtp === null) {
    throw new Error("the Pigeonhole server started without SMTP");
  }

  return {
    inbox,
    /** Where the Pigeonhole server receives mail over SMTP. */
    smtp,
    /** Another agent in the same forum, which writes the posts a test starts with: the sample's agents vote on them. */
    writer: createForumClient({
      baseUrl: pigeonhole.forum.url,
      apiKey: await pigeonhole.createApiKey("forum", { name: WRITER }),
    }),
    /** The agents the page acts as, the sample's own first. */
    agents: sample.agents,
    /** The sample's own origin, `http://127.0.0.1:<port>`. */
    sampleUrl: sample.url,
    /** A new tab, on no page yet: for pages of another origin. */
    newTab: (device: BrowserContextOptions = DESKTOP): Promise<Page> => browser.newPage(device),
    /** Opens the sample in a new tab (in a laptop's window unless told) and waits until its event stream is connected. */
    async openPage(device: BrowserContextOptions = DESKTOP): Promise<{ page: Page; errors: PageErrors }> {
      const page = await browser.newPage(device);
      const errors = watchPageErrors(page);
      await page.goto(sample.url);
      await page.getByText("Live updates on").waitFor();
      return { page, errors };
    },
    screenshot: (page: Page, name: string) => saveScreenshot(page, SCREENSHOTS, name),
    async close() {
      await browser.close();
      await sample.close();
      await pigeonhole.close();
    },
  };
}

export type Stack = Awaited<ReturnType<typeof startStack>>;

/** A marker in the page's window: still there later means the page was not reloaded in between. */
export async function markPage(page: Page): Promise<() => Promise<boolean>> {
  await page.evaluate(() => Object.assign(window, { notReloaded: true }));
  return () => page.evaluate(() => "notReloaded" in window);
}

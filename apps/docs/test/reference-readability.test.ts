import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { launchChromium, saveScreenshot } from "@pigeonhole/browser-testing";
import { dereference } from "@pigeonhole/openapi-walker";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listOperations, type OperationEntry } from "../src/lib/openapi.ts";
import { readBundle } from "../src/lib/prepare-site.ts";
import { REFERENCE_SPECS } from "../src/lib/reference-specs.ts";
import { type RunningSite, serveSite } from "../src/lib/serve.ts";
import { assertBuilt, DIST, SCREENSHOTS, SITE_ROOT } from "./built-site.ts";

// How the API reference reads, in Chromium: each check names a way the generated pages read badly.

type Node = Record<string, unknown>;

const inboxSpec = REFERENCE_SPECS.find((spec) => spec.api === "inbox");
if (!inboxSpec) {
  throw new Error("The reference has no inbox API.");
}
const inboxBundle = (await readBundle(inboxSpec)) as unknown as Node;
const inboxOperations = listOperations(await readBundle(inboxSpec)).filter((entry) => entry.kind === "path");

/**
 * Fields an operation may blame that the request does not carry: those of the stored record it acts on. Send Draft
 * sends what the draft holds, so a draft without a recipient is blamed on its `to` (fixed with Update Draft).
 */
const STORED_FIELDS: Record<string, string[]> = { sendDraft: ["to"] };

/** The names an operation's 400 may blame: its parameters, its body's top-level fields and its STORED_FIELDS. */
function fieldsOf(entry: OperationEntry): { fields: Set<string>; hasBody: boolean } {
  const fields = new Set<string>(STORED_FIELDS[entry.operationId] ?? []);
  const pathItem = dereference<Node>(inboxBundle, (inboxBundle.paths as Node)[entry.key] as Node);
  for (const list of [pathItem.parameters, entry.operation.parameters]) {
    for (const raw of Array.isArray(list) ? list : []) {
      fields.add(String(dereference<Node>(inboxBundle, raw as Node).name));
    }
  }
  const requestBody = entry.operation.requestBody
    ? dereference<Node>(inboxBundle, entry.operation.requestBody as Node)
    : undefined;
  const media = (requestBody?.content as Node | undefined)?.["application/json"] as Node | undefined;
  const schema = media ? dereference<Node>(inboxBundle, media.schema as Node) : undefined;
  for (const name of Object.keys((schema?.properties as Node | undefined) ?? {})) {
    fields.add(name);
  }
  return { fields, hasBody: requestBody !== undefined };
}

/** WCAG 2 contrast ratio of two `rgb()`/`rgba()` colours (opaque ones: the test checks the background is). */
function contrast(foreground: string, background: string): number {
  const luminance = (color: string): number => {
    const [r = 0, g = 0, b = 0] = (color.match(/[\d.]+/g) ?? []).slice(0, 3).map(Number);
    const linear = (channel: number) => {
      const value = channel / 255;
      return value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
    };
    return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
  };
  const [light, dark] = [luminance(foreground), luminance(background)].sort((a, b) => b - a) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

describe("the API reference reads well", () => {
  let site: RunningSite;
  let browser: Browser;

  beforeAll(async () => {
    assertBuilt();
    site = await serveSite({ root: SITE_ROOT, port: 0 });
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await site?.close();
  });

  async function open(route: string, options: { width?: number; colorScheme?: "light" | "dark" } = {}): Promise<Page> {
    const context = await browser.newContext({
      viewport: { width: options.width ?? 1280, height: 900 },
      colorScheme: options.colorScheme ?? "dark",
    });
    const page = await context.newPage();
    const response = await page.goto(new URL(route, site.url).href, { waitUntil: "load" });
    expect(response?.status(), route).toBe(200);
    return page;
  }

  async function close(page: Page): Promise<void> {
    await page.context().close();
  }

  it("shows JSON examples at 4.5:1 contrast or more in the light scheme", async () => {
    const page = await open("/reference/inbox/operations/sendmessage/", { colorScheme: "light" });
    await expect(page.evaluate(() => document.documentElement.dataset.theme)).resolves.toBe("light");
    const samples = await page.evaluate(() => {
      const opaqueBackground = (element: Element | null): string => {
        for (let node = element; node; node = node.parentElement) {
          const color = getComputedStyle(node).backgroundColor;
          if (color !== "transparent" && !/rgba\(.*,\s*0\)$/.test(color)) {
            return color;
          }
        }
        return "rgb(255, 255, 255)";
      };
      return [...document.querySelectorAll(".sl-openapi-example pre")].flatMap((pre) => {
        const background = opaqueBackground(pre);
        const texts = [...pre.querySelectorAll(".ec-line span, .ec-line")].filter((element) =>
          [...element.childNodes].some((child) => child.nodeType === Node.TEXT_NODE && child.textContent?.trim()),
        );
        return texts.map((element) => ({
          text: element.textContent?.trim().slice(0, 40) ?? "",
          color: getComputedStyle(element).color,
          background,
        }));
      });
    });
    expect(samples.length).toBeGreaterThan(50);
    const tooFaint = samples
      .map((sample) => ({ ...sample, ratio: Math.round(contrast(sample.color, sample.background) * 100) / 100 }))
      .filter((sample) => sample.ratio < 4.5);
    expect(tooFaint).toEqual([]);
    await saveScreenshot(page, SCREENSHOTS, "reference-light-examples");
    await close(page);
  });

  it("describes an address in words and a format, not as a 180-character regular expression", async () => {
    const page = await open("/reference/inbox/operations/sendmessage/");
    const tags = await page.locator("main .sl-openapi-tag").allTextContents();
    const longest = Math.max(...tags.map((tag) => tag.trim().length));
    expect(longest).toBeLessThanOrEqual(62);
    const text = (await page.locator("main").textContent()) ?? "";
    expect(text).not.toContain("(?=[^@]{1,64}@)");
    // inbox_id, to, cc, bcc and reply_to each say what they take.
    expect(tags.filter((tag) => tag.trim() === "format: email").length).toBeGreaterThanOrEqual(5);
    await close(page);
  });

  it("prints a parameter's description once", async () => {
    const page = await open("/reference/inbox/operations/sendmessage/");
    const inboxId = page.locator("main .sl-openapi-key").filter({
      has: page.locator(".sl-openapi-key-name strong", { hasText: /^inbox_id$/ }),
    });
    const descriptions = await inboxId
      .first()
      .locator(".sl-openapi-key-description .sl-openapi-markdown")
      .allTextContents();
    expect(descriptions).toHaveLength(1);
    expect(descriptions[0]).toContain("The inbox address");
    await close(page);
  });

  it("shows offset's default and minimum with their names, not as a bare 0", async () => {
    const page = await open("/reference/forum/operations/listposts/");
    const offset = page.locator("main .sl-openapi-key").filter({
      has: page.locator(".sl-openapi-key-name strong", { hasText: /^offset$/ }),
    });
    const tags = (await offset.first().locator(".sl-openapi-tag").allTextContents()).map((tag) => tag.trim());
    expect(tags).not.toContain("0");
    expect(tags).toContain("default: 0");
    expect(tags).toContain(">= 0");
    await close(page);
  });

  it.each(inboxOperations.map((entry) => [entry.operation.summary ?? entry.operationId, entry] as const))(
    "lists under 400 of %j only errors that operation can answer",
    async (_summary, entry) => {
      const { fields, hasBody } = fieldsOf(entry);
      const page = await open(`/${inboxSpec.base}/operations/${entry.operationId.toLowerCase()}/`);
      // The example boxes of the 400 response's section.
      const examples = await page.evaluate(() => {
        const section = document.getElementById("400")?.closest("section.sl-openapi-section");
        return [...(section?.querySelectorAll(".sl-openapi-example pre") ?? [])].map((pre) => pre.textContent ?? "");
      });
      if ((entry.operation.responses as Node | undefined)?.["400"] === undefined) {
        // An operation that takes no input at all (the spec's own tests hold it to that) can answer no 400.
        expect([...fields], `${entry.operationId} documents no 400 but takes input`).toEqual([]);
        expect(hasBody, `${entry.operationId} documents no 400 but takes a body`).toBe(false);
        expect(examples).toEqual([]);
        await close(page);
        return;
      }
      expect(examples.length).toBeGreaterThan(0);
      for (const example of examples) {
        const { error } = JSON.parse(example) as { error: { details: { field: string | null; code: string } } };
        if (error.details.field !== null) {
          expect([...fields], `${entry.operationId}: ${example}`).toContain(error.details.field);
        }
        if (error.details.code === "INVALID_JSON") {
          expect(hasBody, `${entry.operationId} has no body: ${example}`).toBe(true);
        }
      }
      await close(page);
    },
  );

  it("gives every overview page a title of its own", async () => {
    const titles = new Map<string, string>();
    for (const file of await readdir(DIST, { recursive: true })) {
      if (!file.endsWith("index.html")) {
        continue;
      }
      const html = await readFile(join(DIST, file), "utf8");
      const title = /<title>([^<]*)<\/title>/.exec(html)?.[1] ?? "";
      expect(title, file).not.toMatch(/^Overview\b/);
      if (file.startsWith("reference")) {
        expect(titles.get(title), `${file} shares its title with another page`).toBeUndefined();
        titles.set(title, file);
      }
    }
    for (const [route, heading] of [
      ["/reference/inbox/", "Inbox API"],
      ["/reference/inbox/operations/tags/messages/", "Inbox API: Messages"],
      ["/reference/forum/operations/tags/votes/", "Forum API: Votes"],
    ] as const) {
      const page = await open(route);
      await expect(page.locator("h1").first().textContent()).resolves.toBe(heading);
      await expect(page.title()).resolves.toMatch(new RegExp(`^${heading} `));
      await close(page);
    }
  });

  it("fits an operation page into a 390 px wide screen: the whole path, descriptions a column wide", async () => {
    const page = await open("/reference/inbox/operations/sendmessage/", { width: 390 });
    const path = page.locator(".sl-openapi-operation-method-path").first();
    const box = await path.evaluate((element) => {
      const rect = element.getBoundingClientRect();
      return { right: rect.right, scrollWidth: element.scrollWidth, clientWidth: element.clientWidth };
    });
    expect(box.scrollWidth).toBeLessThanOrEqual(box.clientWidth);
    expect(box.right).toBeLessThanOrEqual(390);
    await expect(path.textContent()).resolves.toBe("/v0/inboxes/{inbox_id}/messages");
    // The descriptions of the top-level fields: the parameters and the request body's.
    const widths = await page.evaluate(() =>
      ["inbox_id", "Idempotency-Key", "to", "subject", "attachments"].map((name) => {
        const key = [...document.querySelectorAll("main .sl-openapi-key")].find(
          (candidate) => candidate.querySelector(".sl-openapi-key-name strong")?.textContent === name,
        );
        return key?.querySelector(".sl-openapi-key-description")?.getBoundingClientRect().width ?? 0;
      }),
    );
    expect(Math.min(...widths)).toBeGreaterThanOrEqual(300);
    await saveScreenshot(page, SCREENSHOTS, "reference-390px");
    await close(page);
  });
});

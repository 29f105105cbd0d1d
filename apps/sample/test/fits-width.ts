import type { Page } from "playwright-core";

/** An element that sticks out of the viewport's width, described well enough to find it. */
export interface Overflow {
  element: string;
  left: number;
  right: number;
}

/**
 * Whether the page fits its viewport's width: how wide the document scrolls, and every rendered element that reaches
 * past either edge. An element cut off by an `overflow: hidden` ancestor would pass the first check but not the second.
 */
export function measureWidth(page: Page): Promise<{ viewport: number; scrollWidth: number; overflows: Overflow[] }> {
  return page.evaluate(() => {
    const viewport = document.documentElement.clientWidth;
    const overflows: Overflow[] = [];
    for (const element of document.body.querySelectorAll("*")) {
      const box = element.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) {
        continue;
      }
      // Half a pixel of rounding is not an overflow.
      if (box.left < -0.5 || box.right > viewport + 0.5) {
        const text = (element.textContent ?? "").trim().slice(0, 40);
        const classes = element.getAttribute("class");
        const name = `${element.tagName.toLowerCase()}${classes ? `.${classes}` : ""}`;
        overflows.push({ element: `${name} "${text}"`, left: Math.round(box.left), right: Math.round(box.right) });
      }
    }
    return { viewport, scrollWidth: document.documentElement.scrollWidth, overflows };
  });
}

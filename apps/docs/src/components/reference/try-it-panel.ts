// The browser side of the "Try it" panel (TryIt.astro): builds the request from the form, sends it to the server the
// reader chose and shows the answer. The API key goes only into the Authorization header of that one request: never
// into a URL, storage, the page's address or anywhere else.

import { buildRequestUrl, parseBaseUrl } from "./try-it-request.ts";

/** Answer headers worth showing; the server exposes these to pages of other origins. */
const HEADERS_SHOWN = [
  "content-type",
  "x-request-id",
  "x-ratelimit-limit",
  "x-ratelimit-remaining",
  "x-ratelimit-reset",
  "retry-after",
  "x-should-retry",
  "allow",
  "location",
];

/** Longest text answer shown; a raw message can be large. */
const MAX_SHOWN_CHARACTERS = 20_000;

function formatBody(text: string, contentType: string): string {
  if (contentType.includes("json")) {
    try {
      return JSON.stringify(JSON.parse(text), null, 2);
    } catch {
      return text;
    }
  }
  return text.length > MAX_SHOWN_CHARACTERS ? `${text.slice(0, MAX_SHOWN_CHARACTERS)}\n…` : text;
}

function isText(contentType: string): boolean {
  return contentType === "" || /json|^text\/|message\/rfc822|xml/.test(contentType);
}

class TryItPanel extends HTMLElement {
  #form: HTMLFormElement | null = null;

  connectedCallback(): void {
    this.#form = this.querySelector("form");
    const send = this.querySelector<HTMLButtonElement>("[data-send]");
    if (!this.#form || !send) {
      return;
    }
    send.disabled = false;
    this.querySelector("[data-no-script]")?.remove();
    this.#form.addEventListener("input", (event) => {
      if (event.target instanceof HTMLInputElement && event.target.name === "base-url") {
        this.#describeDestination();
      }
    });
    this.#form.addEventListener("submit", (event) => {
      event.preventDefault();
      void this.#send(send);
    });
    this.#describeDestination();
  }

  #input(name: string): HTMLInputElement | HTMLTextAreaElement | null {
    return this.#form?.querySelector<HTMLInputElement | HTMLTextAreaElement>(`[name="${name}"]`) ?? null;
  }

  #sendsKey(): boolean {
    return this.dataset.sendsKey === "true";
  }

  #describeDestination(): void {
    const target = this.querySelector("[data-destination]");
    if (!target) {
      return;
    }
    let where: string;
    try {
      where = parseBaseUrl(this.#input("base-url")?.value ?? "").origin;
    } catch {
      where = "the server above (its address is not valid yet)";
    }
    const method = this.dataset.method ?? "GET";
    target.textContent = this.#sendsKey()
      ? `Sends ${method} ${this.dataset.path} to ${where} only, with the API key in its Authorization header. The key is sent nowhere else and not stored.`
      : `Sends ${method} ${this.dataset.path} to ${where} only. This operation takes no API key: none is sent.`;
  }

  #collect(location: string): [string, string][] {
    const inputs = this.#form?.querySelectorAll<HTMLInputElement>(`[data-field-in="${location}"]`) ?? [];
    return [...inputs].map((input) => [input.dataset.fieldName ?? "", input.value.trim()] as [string, string]);
  }

  #buildRequest(): { url: URL; init: RequestInit } {
    const base = parseBaseUrl(this.#input("base-url")?.value ?? "");
    const path = this.dataset.path ?? "/";
    const method = this.dataset.method ?? "GET";
    const query = this.#collect("query").filter(([, value]) => value !== "");
    const url = buildRequestUrl(base, path, new Map(this.#collect("path")), query);

    const headers = new Headers({ Accept: "application/json" });
    for (const [name, value] of this.#collect("header")) {
      if (value !== "") {
        headers.set(name, value);
      }
    }
    const key = this.#input("api-key")?.value.trim() ?? "";
    if (this.#sendsKey() && key !== "") {
      headers.set("Authorization", `Bearer ${key}`);
    }
    const bodyText = this.#input("body")?.value.trim();
    let body: string | undefined;
    if (bodyText !== undefined && bodyText !== "") {
      headers.set("Content-Type", "application/json");
      body = bodyText;
    }
    return {
      url,
      init: {
        method,
        headers,
        body,
        // The key is the credential: no cookies, no referrer, no cache, and no redirect that could carry it on.
        credentials: "omit",
        referrerPolicy: "no-referrer",
        cache: "no-store",
        redirect: "error",
        mode: "cors",
      },
    };
  }

  async #send(button: HTMLButtonElement): Promise<void> {
    let request: { url: URL; init: RequestInit };
    try {
      request = this.#buildRequest();
    } catch (error) {
      this.#showProblem(error instanceof Error ? error.message : String(error));
      return;
    }
    button.disabled = true;
    this.setAttribute("aria-busy", "true");
    this.#showSending(request);
    try {
      const response = await fetch(request.url, request.init);
      await this.#showAnswer(request, response);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      this.#showProblem(
        `No answer from ${request.url.origin} (${reason}). Is the server running there, and does it answer this page's origin (CORS)?`,
      );
    } finally {
      button.disabled = false;
      this.removeAttribute("aria-busy");
    }
  }

  #answerParts(): { section: HTMLElement; status: HTMLElement; headers: HTMLElement; body: HTMLElement } | undefined {
    const section = this.querySelector<HTMLElement>("[data-answer]");
    const status = this.querySelector<HTMLElement>("[data-status]");
    const headers = this.querySelector<HTMLElement>("[data-headers]");
    const body = this.querySelector<HTMLElement>("[data-body]");
    return section && status && headers && body ? { section, status, headers, body } : undefined;
  }

  #showSending(request: { url: URL; init: RequestInit }): void {
    const parts = this.#answerParts();
    if (!parts) {
      return;
    }
    parts.section.hidden = false;
    parts.section.dataset.outcome = "sending";
    parts.status.textContent = `Sending ${request.init.method} to ${request.url.origin}…`;
    parts.headers.replaceChildren();
    parts.body.textContent = "";
    parts.body.hidden = true;
  }

  #showProblem(message: string): void {
    const parts = this.#answerParts();
    if (!parts) {
      return;
    }
    parts.section.hidden = false;
    parts.section.dataset.outcome = "problem";
    parts.status.textContent = message;
    parts.headers.replaceChildren();
    parts.body.textContent = "";
    parts.body.hidden = true;
  }

  async #showAnswer(request: { url: URL; init: RequestInit }, response: Response): Promise<void> {
    const parts = this.#answerParts();
    if (!parts) {
      return;
    }
    const contentType = response.headers.get("content-type") ?? "";
    // Read the whole answer first, so that what is shown is never half of it.
    let shownBody: string;
    if (isText(contentType)) {
      const text = await response.text();
      shownBody = text === "" ? "(no body)" : formatBody(text, contentType);
    } else {
      shownBody = `(${(await response.arrayBuffer()).byteLength} bytes of ${contentType})`;
    }

    const rows: HTMLElement[] = [];
    for (const name of HEADERS_SHOWN) {
      const value = response.headers.get(name);
      if (value !== null) {
        const term = document.createElement("dt");
        term.textContent = name;
        const detail = document.createElement("dd");
        detail.textContent = value;
        rows.push(term, detail);
      }
    }
    parts.headers.replaceChildren(...rows);
    parts.body.textContent = shownBody;
    parts.body.hidden = false;
    parts.section.hidden = false;
    parts.section.dataset.outcome = response.ok ? "success" : "error";
    parts.status.textContent = `${response.status} ${response.statusText} from ${request.init.method} ${request.url.href}`;
  }
}

/** Registers the panel's element once per page. */
export function definePanel(): void {
  if (!customElements.get("pigeonhole-try-it")) {
    customElements.define("pigeonhole-try-it", TryItPanel);
  }
}

import { subscribe, unsubscribe } from "node:diagnostics_channel";
import type { LookupAddress } from "node:dns";
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from "node:http";
import { createServer } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { createServer as createTlsServer } from "node:tls";
import { afterEach, describe, expect, it } from "vitest";
import { DestinationRefusedError } from "./destination-policy.ts";
import type { ResolveHost } from "./post-webhook.ts";
import { postWebhook } from "./post-webhook.ts";

interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A receiver on 127.0.0.1 that records every connection and request; `answer` decides what happens next. */
async function startReceiver(answer: (response: ServerResponse, request: IncomingMessage) => void = (r) => r.end()) {
  const requests: Received[] = [];
  const sockets: Socket[] = [];
  const closed: Promise<void>[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const { method = "", url = "", headers } = request;
      requests.push({ method, url, headers, body: Buffer.concat(chunks).toString("utf8") });
      answer(response, request);
    });
  });
  server.on("connection", (socket: Socket) => {
    sockets.push(socket);
    closed.push(new Promise((resolve) => socket.once("close", () => resolve())));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const receiver = {
    port,
    url: `http://127.0.0.1:${port}/hook`,
    requests,
    sockets,
    /** Resolves once every connection made so far has been closed. */
    allClosed: () => Promise.all(closed),
    /** Resolves once `count` requests have arrived in full. */
    async waitForRequests(count: number) {
      for (let tries = 0; requests.length < count; tries++) {
        if (tries > 200) {
          throw new Error(`Expected ${count} requests, got ${requests.length}.`);
        }
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  receivers.push(receiver);
  return receiver;
}

const receivers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
});

/** A resolver that answers `answers[n]` to its n-th question (the last one from then on), and counts the questions. */
function scriptedResolver(...answers: string[][]) {
  const questions: string[] = [];
  const resolve: ResolveHost = async (hostname) => {
    questions.push(hostname);
    const answer = answers[Math.min(questions.length, answers.length) - 1] ?? [];
    return answer.map((address): LookupAddress => ({ address, family: address.includes(":") ? 6 : 4 }));
  };
  return { resolve, questions };
}

const delivery = { headers: { "content-type": "application/json" }, body: '{"ok":true}', timeoutMs: 5_000 };

describe("postWebhook", () => {
  it("POSTs the headers and body to the receiver and answers its status", async () => {
    const receiver = await startReceiver((response) => response.writeHead(202).end("accepted"));
    const answer = await postWebhook({
      ...delivery,
      url: `${receiver.url}?tenant=7`,
      headers: { "content-type": "application/json", "webhook-id": "msg_1" },
      body: '{"event":"é"}',
      allowPrivate: true,
    });
    expect(answer).toEqual({ status: 202 });
    expect(receiver.requests).toHaveLength(1);
    const [received] = receiver.requests;
    expect(received).toMatchObject({ method: "POST", url: "/hook?tenant=7", body: '{"event":"é"}' });
    expect(received?.headers).toMatchObject({
      "content-type": "application/json",
      "webhook-id": "msg_1",
      "content-length": String(Buffer.byteLength('{"event":"é"}')),
      host: `127.0.0.1:${receiver.port}`,
    });
  });

  it("answers a redirect's status without following it", async () => {
    const receiver = await startReceiver((response) => response.writeHead(307, { location: "/elsewhere" }).end());
    expect(await postWebhook({ ...delivery, url: receiver.url, allowPrivate: true })).toEqual({ status: 307 });
    expect(receiver.requests.map((request) => request.url)).toEqual(["/hook"]);
  });

  describe("private destinations", () => {
    it.each([
      ["a loopback address", (port: number) => `http://127.0.0.1:${port}/hook`, "127.0.0.1"],
      ["an IPv6 loopback address", (port: number) => `http://[::1]:${port}/hook`, "::1"],
      ["an IPv4-mapped loopback address", (port: number) => `http://[::ffff:127.0.0.1]:${port}/hook`, "::ffff:7f00:1"],
    ])("refuses %s and never connects", async (_, url, refused) => {
      const receiver = await startReceiver();
      const attempt = postWebhook({ ...delivery, url: url(receiver.port), allowPrivate: false });
      await expect(attempt).rejects.toThrow(DestinationRefusedError);
      await expect(attempt).rejects.toThrow(`is a private or loopback address (${refused}); start the server with`);
      expect(receiver.sockets).toHaveLength(0);
    });

    it("refuses a name that resolves to loopback (localhost, through the system resolver) and never connects", async () => {
      const receiver = await startReceiver();
      const attempt = postWebhook({ ...delivery, url: `http://localhost:${receiver.port}/hook`, allowPrivate: false });
      await expect(attempt).rejects.toThrow(DestinationRefusedError);
      await expect(attempt).rejects.toThrow(`localhost:${receiver.port} is a private or loopback address`);
      expect(receiver.sockets).toHaveLength(0);
    });

    it("refuses a name when any of its addresses is private, even if the first is public", async () => {
      const receiver = await startReceiver();
      const dns = scriptedResolver(["93.184.215.14", "127.0.0.1"]);
      const attempt = postWebhook(
        { ...delivery, url: `http://mixed.example.test:${receiver.port}/hook`, allowPrivate: false },
        dns.resolve,
      );
      await expect(attempt).rejects.toThrow("(127.0.0.1)");
      expect(receiver.sockets).toHaveLength(0);
    });

    it.each(["64:ff9b:1::a00:1", "::7f00:1", "2002:7f00:1::", "fec0::1"])(
      "refuses a name that resolves to %s (translated or site-local IPv6)",
      async (address) => {
        const dns = scriptedResolver([address]);
        const attempt = postWebhook(
          { ...delivery, url: "https://translated.example.test/hook", allowPrivate: false },
          dns.resolve,
        );
        await expect(attempt).rejects.toThrow(DestinationRefusedError);
        await expect(attempt).rejects.toThrow(`(${address})`);
      },
    );
  });

  describe("rebinding DNS", () => {
    it("connects to the address it resolved once, whatever a second answer would say", async () => {
      const receiver = await startReceiver();
      // 127.0.0.2 is loopback too, but nothing listens there: a second resolution would fail the delivery.
      const dns = scriptedResolver(["127.0.0.1"], ["127.0.0.2"]);
      const answer = await postWebhook(
        { ...delivery, url: `http://hooks.example.test:${receiver.port}/hook`, allowPrivate: true },
        dns.resolve,
      );
      expect(answer).toEqual({ status: 200 });
      expect(dns.questions).toEqual(["hooks.example.test"]);
      expect(receiver.requests).toHaveLength(1);
      expect(receiver.requests[0]?.headers.host).toBe(`hooks.example.test:${receiver.port}`);
    });

    it("hands the socket the public address that passed the check, not the loopback one answered next", async () => {
      const receiver = await startReceiver();
      const dns = scriptedResolver(["93.184.215.14"], ["127.0.0.1"]);
      // Watch where the socket is told to connect, and stop it there: the test never leaves the machine.
      const handedOver: string[] = [];
      const onSocket = (message: unknown) => {
        const { socket } = message as { socket: Socket };
        socket.once("lookup", (_error: Error | null, address: string, _family: number, host: string) => {
          if (host === "rebind.example.test") {
            handedOver.push(address);
            socket.destroy();
          }
        });
      };
      subscribe("net.client.socket", onSocket);
      try {
        const attempt = postWebhook(
          { ...delivery, url: `http://rebind.example.test:${receiver.port}/hook`, allowPrivate: false },
          dns.resolve,
        );
        await expect(attempt).rejects.toThrow(`Could not deliver to rebind.example.test:${receiver.port}`);
      } finally {
        unsubscribe("net.client.socket", onSocket);
      }
      expect(handedOver).toEqual(["93.184.215.14"]);
      expect(dns.questions).toHaveLength(1);
      expect(receiver.sockets).toHaveLength(0);
    });
  });

  it("sends TLS's server name as the URL's host name, not the pinned address", async () => {
    const serverNames: string[] = [];
    const server = createTlsServer({
      SNICallback: (serverName, callback) => {
        serverNames.push(serverName);
        callback(new Error("This test server has no certificate."), undefined);
      },
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const dns = scriptedResolver(["127.0.0.1"]);
      const attempt = postWebhook(
        { ...delivery, url: `https://secure.example.test:${port}/hook`, allowPrivate: true },
        dns.resolve,
      );
      await expect(attempt).rejects.toThrow(`Could not deliver to secure.example.test:${port}`);
      expect(serverNames).toEqual(["secure.example.test"]);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  describe("failures", () => {
    it("gives up after the timeout and closes the connection", async () => {
      const receiver = await startReceiver(() => {
        // Never answers.
      });
      const started = performance.now();
      const attempt = postWebhook({ ...delivery, url: receiver.url, allowPrivate: true, timeoutMs: 300 });
      await expect(attempt).rejects.toThrow(`127.0.0.1:${receiver.port} did not answer within 300 ms.`);
      const elapsed = performance.now() - started;
      expect(elapsed).toBeGreaterThanOrEqual(290);
      expect(elapsed).toBeLessThan(2_000);
      expect(receiver.requests).toHaveLength(1);
      await receiver.allClosed();
    });

    it("counts name resolution in the timeout", async () => {
      const attempt = postWebhook(
        { ...delivery, url: "http://slow-dns.example.test/hook", allowPrivate: true, timeoutMs: 200 },
        () => new Promise(() => {}),
      );
      await expect(attempt).rejects.toThrow("slow-dns.example.test did not answer within 200 ms.");
    });

    it("stops when its signal aborts, with the signal's reason, and closes the connection", async () => {
      const receiver = await startReceiver(() => {
        // Never answers.
      });
      const controller = new AbortController();
      const attempt = postWebhook({ ...delivery, url: receiver.url, allowPrivate: true, signal: controller.signal });
      await receiver.waitForRequests(1);
      controller.abort(new Error("The server is shutting down."));
      await expect(attempt).rejects.toThrow("The server is shutting down.");
      await receiver.allClosed();
    });

    it("reads at most a bounded part of an endless answer, then closes the connection", async () => {
      let written = 0;
      const chunk = Buffer.alloc(16 * 1024, "x");
      const receiver = await startReceiver((response) => {
        response.writeHead(200);
        // Writes until the client goes away (bounded: at most 64 MiB).
        const pump = () => {
          while (!response.destroyed && written < 64 * 1024 * 1024) {
            written += chunk.length;
            if (!response.write(chunk)) {
              response.once("drain", pump);
              return;
            }
          }
        };
        pump();
      });
      const started = performance.now();
      expect(await postWebhook({ ...delivery, url: receiver.url, allowPrivate: true })).toEqual({ status: 200 });
      expect(performance.now() - started).toBeLessThan(2_000);
      await receiver.allClosed();
      expect(written).toBeLessThan(16 * 1024 * 1024);
    });

    it("explains a refused connection", async () => {
      const receiver = await startReceiver();
      const { port } = receiver;
      await receiver.close();
      const attempt = postWebhook({ ...delivery, url: `http://127.0.0.1:${port}/hook`, allowPrivate: true });
      await expect(attempt).rejects.toThrow(`Could not deliver to 127.0.0.1:${port}`);
      await expect(attempt).rejects.toMatchObject({ cause: { code: "ECONNREFUSED" } });
    });

    it("explains a name that does not resolve", async () => {
      const attempt = postWebhook(
        { ...delivery, url: "http://missing.example.test/hook", allowPrivate: true },
        async () => {
          throw Object.assign(new Error("getaddrinfo ENOTFOUND missing.example.test"), { code: "ENOTFOUND" });
        },
      );
      await expect(attempt).rejects.toThrow("Could not resolve missing.example.test");
      await expect(attempt).rejects.toMatchObject({ cause: { code: "ENOTFOUND" } });
    });

    it("refuses URLs that are not http or https", async () => {
      await expect(postWebhook({ ...delivery, url: "ftp://example.test/hook", allowPrivate: true })).rejects.toThrow(
        "Webhook URLs use http: or https:, not ftp:",
      );
    });
  });
});

// A real browser for the dashboard's e2e tests: playwright-core driving Debian's Chromium
// (/usr/bin/chromium, from `bash scripts/ensure-system-packages.sh`). playwright-core downloads no
// browsers, and none could be downloaded here, so a missing Chromium fails loudly instead of skipping.
import { accessSync, constants, mkdirSync } from "node:fs";
import { join } from "node:path";
import { chromium, type Browser, type Page, type Response } from "playwright-core";

const DEFAULT_CHROMIUM = "/usr/bin/chromium";

/** Headless Chromium: `FLOTILLA_CHROMIUM` if set, else Debian's /usr/bin/chromium. */
export async function launchBrowser(): Promise<Browser> {
  const executablePath = process.env.FLOTILLA_CHROMIUM || DEFAULT_CHROMIUM;
  try {
    accessSync(executablePath, constants.X_OK);
  } catch {
    throw new Error(
      `Chromium is missing: no executable at ${executablePath}` +
        (process.env.FLOTILLA_CHROMIUM ? " (from FLOTILLA_CHROMIUM)" : "") +
        ". The browser tests drive Debian's Chromium through playwright-core, which downloads no browsers." +
        " Install it with `bash scripts/ensure-system-packages.sh` (or, as root, `apt-get install chromium`)," +
        " or point FLOTILLA_CHROMIUM at a Chromium binary.",
    );
  }
  // --no-sandbox: the tests run as root, where Chromium's sandbox refuses to start.
  return chromium.launch({ executablePath, headless: true, args: ["--no-sandbox", "--disable-dev-shm-usage"] });
}

export interface NetworkLog {
  /** The URL of every network response the page received, in order (data: URLs are none). */
  urls: string[];
  /**
   * The text of every text-like response (text/*, JSON, JavaScript, XML, YAML, form data, and no
   * content type at all), and, for each text/event-stream response, the raw stream bytes received so
   * far, open streams included, whether the page reads it with EventSource or fetch(). Other bodies
   * (images, fonts, octet-stream) are not read. Waits for the non-stream bodies to finish; rejects
   * naming the URL of any body it could not read (read them before closing the page: a closed page's
   * bodies are gone).
   */
  bodies(): Promise<string[]>;
}

const TEXT_LIKE =
  /^(text\/|application\/([\w.+-]*\+)?(json|javascript|ecmascript|xml|yaml|x-yaml|x-www-form-urlencoded))/;

/**
 * Records the responses `page` receives from now on: call it before navigating. Ordinary bodies come
 * from Playwright's response.text(), which for a server-sent-events stream would wait for the stream
 * to end; those are read instead through the Chrome DevTools Protocol (Network.streamResourceContent
 * hands over what was already buffered, then each Network.dataReceived carries the next chunk; a
 * stream that ended before that could be switched on is read whole with Network.getResponseBody).
 */
export async function networkLog(page: Page): Promise<NetworkLog> {
  const urls: string[] = [];
  const bodies: Promise<string>[] = [];
  const streams: { chunks: string[]; ready: Promise<void> }[] = [];
  const byRequest = new Map<string, string[]>();

  const cdp = await page.context().newCDPSession(page);
  const decode = (data: string, base64 = true) => Buffer.from(data, base64 ? "base64" : "utf8").toString();
  cdp.on("Network.responseReceived", ({ requestId, response }) => {
    if (!response.mimeType.startsWith("text/event-stream")) return;
    const chunks: string[] = [];
    byRequest.set(requestId, chunks);
    const ready = cdp
      .send("Network.streamResourceContent", { requestId })
      // Chunks that arrived before streaming was switched on come first, even if a later one beat this reply.
      .then(({ bufferedData }) => void chunks.unshift(decode(bufferedData)))
      // A short stream may be over before streaming is switched on: then its whole body can be read.
      .catch(() => cdp.send("Network.getResponseBody", { requestId }))
      .then((r) => void (r && chunks.splice(0, chunks.length, decode(r.body, r.base64Encoded))))
      .catch((err: Error) => Promise.reject(new Error(`event stream ${response.url}: ${err.message}`)));
    streams.push({ chunks, ready });
  });
  cdp.on("Network.dataReceived", ({ requestId, data }) => {
    if (data) byRequest.get(requestId)?.push(decode(data));
  });
  await cdp.send("Network.enable");

  page.on("response", (response: Response) => {
    urls.push(response.url());
    const type = (response.headers()["content-type"] ?? "").toLowerCase();
    if (type.startsWith("text/event-stream") || (type && !TEXT_LIKE.test(type))) return;
    if (response.status() >= 300 && response.status() < 400) return; // redirects have no body
    const body = response
      .text()
      .catch((err: Error) => Promise.reject(new Error(`body of ${response.url()}: ${err.message}`)));
    body.catch(() => {}); // reported by bodies(), not as an unhandled rejection meanwhile
    bodies.push(body);
  });

  return {
    urls,
    bodies: async () => {
      const texts = await Promise.all(bodies);
      await Promise.all(streams.map((s) => s.ready));
      return [...texts, ...streams.map((s) => s.chunks.join(""))];
    },
  };
}

/** Saves a full-page PNG as test-results/screenshots/<name>.png and returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  const dir = join(import.meta.dirname, "..", "..", "test-results", "screenshots");
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}

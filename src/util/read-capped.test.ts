// A response body read past its cap stops at the cap: the server's endless answer is not read.
import { createServer } from "node:http";
import { describe, expect, it } from "vitest";
import { readCapped, ResponseTooLargeError } from "./read-capped.js";

describe("reading a response body with a cap", () => {
  it("stops at the first chunk past the cap of an endless body and says so", async () => {
    let sent = 0;
    const server = createServer((_req, res) => {
      const chunk = Buffer.alloc(64 * 1024);
      const more = () => {
        while (sent < 512 * 1024 * 1024) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once("drain", more);
        }
        res.end();
      };
      more();
    });
    await new Promise<void>((ok) => server.listen(0, "127.0.0.1", () => ok()));
    try {
      const res = await fetch(`http://127.0.0.1:${(server.address() as { port: number }).port}/`);
      const err = await readCapped(res, 1024 * 1024, () => "too large").catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ResponseTooLargeError);
      expect(sent).toBeLessThan(64 * 1024 * 1024); // the rest of the 512 MiB was never sent
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });

  it("refuses a declared length past the cap before reading anything", async () => {
    const res = new Response("x".repeat(10), { headers: { "content-length": "5000000000" } });
    await expect(readCapped(res, 1024, () => "declared too large")).rejects.toThrow("declared too large");
  });

  it("returns a body within the cap whole", async () => {
    await expect(readCapped(new Response("hello"), 5, () => "no")).resolves.toEqual(Buffer.from("hello"));
  });
});

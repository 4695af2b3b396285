// Pages of more than STREAMED_ROWS rows are streamed, read a chunk of rows a statement (lib/db/wire-list.ts,
// lib/api/pagination.ts): the body is the same page an unstreamed read gives, offset and cursor pages alike, and a
// statement failing midway cuts the body off rather than ending it as a whole page.
import { beforeAll, describe, expect, it } from "vitest";
import * as clients from "@/app/api/v1/clients/route";
import * as timeLogs from "@/app/api/v1/time-logs/route";
import { BODY_CHUNK_CHARS, jsonText, listResponse } from "@/lib/api/pagination";
import { database, prisma } from "@/lib/db/client";
import { STREAMED_ROWS } from "@/lib/db/wire-list";
import { call, type RouteModule, tokenFor, userByEmail } from "../support/api";

/** The answer of a 1,000-row cursor page whose first rows are `json` and whose later arrays `more` yields. */
const cursorPage = (json: string, more?: () => AsyncGenerator<string>) =>
  listResponse(new Request("http://localhost/api/v1/time-logs?per_page=1000"), {
    perPage: 1000,
    nextCursor: null,
    prevCursor: null,
    json,
    more,
  });

const ROWS = 2 * STREAMED_ROWS + 37; // three chunks, the last one short

beforeAll(async () => {
  const db = await prisma();
  const owner = await userByEmail("owner@acme.test");
  const tenantId = owner.tenantId;
  await db.client.createMany({
    data: Array.from({ length: ROWS }, (_, i) => ({ tenantId, name: `Streamed ${String(i).padStart(3, "0")}` })),
  });
  await db.timeLog.createMany({
    data: Array.from({ length: ROWS }, (_, i) => ({
      tenantId,
      userId: owner.id,
      minutes: 10 + i,
      date: new Date(Date.UTC(2026, 0, 1 + (i % 40))),
    })),
  });
});

async function dataOf(route: RouteModule, path: string) {
  const res = await call(route, "GET", path, { token: await tokenFor("owner@acme.test") });
  expect(res.status, path).toBe(200);
  return res.body as { data: { uuid: string }[]; meta: Record<string, unknown> };
}

/** The rows of the list read in unstreamed pages of STREAMED_ROWS. */
async function unstreamed(route: RouteModule, path: string, pages: number) {
  const read = await Promise.all(
    Array.from({ length: pages }, (_, i) => dataOf(route, `${path}&per_page=${STREAMED_ROWS}&page=${i + 1}`)),
  );
  return read.flatMap((page) => page.data);
}

describe.each([
  ["clients", clients, "clients?search=Streamed"],
  ["time-logs", timeLogs, "time-logs?range=2026-01-01,2026-02-28"],
] as const)("a streamed page of %s", (_, route, path) => {
  it("holds the rows of the unstreamed pages, in order, with the same meta", async () => {
    const expected = await unstreamed(route, path, 3);
    expect(expected.length).toBeGreaterThan(2 * STREAMED_ROWS);
    const streamed = await dataOf(route, `${path}&per_page=1000`);
    expect(streamed.data).toStrictEqual(expected);
    expect(streamed.meta).toMatchObject({ total: expected.length, per_page: 1000, last_page: 1 });
  });

  it("is the same as a cursor page", async () => {
    const expected = await unstreamed(route, path, 3);
    const first = await dataOf(route, `${path}&per_page=${STREAMED_ROWS + 50}&cursor=`);
    const next = first.meta.next_cursor as string;
    expect(next).toEqual(expect.any(String));
    const second = await dataOf(route, `${path}&per_page=${STREAMED_ROWS + 50}&cursor=${encodeURIComponent(next)}`);
    expect([...first.data, ...second.data]).toStrictEqual(expected);
    expect(second.meta.next_cursor).toBeNull();
  });
});

describe("a statement failing while a page is streamed", () => {
  it("errors the body: no complete JSON reaches the client", async () => {
    const response = cursorPage('[{"n":1}]', async function* () {
      yield '[{"n":2}]';
      throw new Error("connection lost");
    });
    expect(response.status).toBe(200);
    await expect(response.text()).rejects.toThrow("connection lost");
  });

  it("reads one chunk at a time, ahead of the one written, and cuts the body off when a later chunk's statement fails", async () => {
    const token = await tokenFor("owner@acme.test");
    const db = await database();
    const read = db.read;
    let statements = 0;
    let running = 0;
    let mostAtOnce = 0;
    // The page's statements only (authentication may answer from its cache, lib/auth/token-cache.ts): its first,
    // then the later chunks, the second of which fails. A request's place stands for one pooled connection: never two
    // of its statements at once.
    db.read = async (statement, options) => {
      if (!statement.text.includes("time_logs")) return read(statement, options);
      statements++;
      running++;
      mostAtOnce = Math.max(mostAtOnce, running);
      try {
        await new Promise((resolve) => setTimeout(resolve, 20));
        if (statements === 3) throw new Error("connection lost");
        return await read(statement, options);
      } finally {
        running--;
      }
    };
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", onUnhandled);
    try {
      const response = await timeLogs.GET(
        new Request("http://localhost/api/v1/time-logs?range=2026-01-01,2026-02-28&per_page=1000", {
          headers: { Authorization: `Bearer ${token}`, Accept: "application/json" },
        }),
        { params: Promise.resolve({}) },
      );
      expect(response.status).toBe(200);
      await expect(response.text()).rejects.toThrow("connection lost");
      expect(statements).toBe(3);
      expect(mostAtOnce).toBe(1);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(unhandled).toEqual([]);
    } finally {
      db.read = read;
      process.off("unhandledRejection", onUnhandled);
    }
  });

  it("joins the chunks into one array, skipping a chunk whose rows are gone", async () => {
    const response = cursorPage('[{"n":1}]', async function* () {
      yield '[{"n":2},{"n":3}]';
      yield "[]";
      yield '[{"n":4}]';
    });
    expect(JSON.parse(await response.text()).data).toStrictEqual([{ n: 1 }, { n: 2 }, { n: 3 }, { n: 4 }]);
  });
});

// A long body is encoded a slice at a time (lib/api/pagination.ts): a thousand rows encoded whole were one long task
// and two large objects for the garbage collector, which every other firm's requests waited behind.
describe("a long answer", () => {
  /** JSON text of a few slices, with a character outside the BMP across the first slice's end. */
  function textAcrossSlices() {
    const head = '{"data":[{"name":"';
    const name = `${"a".repeat(BODY_CHUNK_CHARS - 1 - head.length)}😀 Zoë ${"b".repeat(BODY_CHUNK_CHARS)}`;
    const text = `${head}${name}"},{"name":"Łódź 東京"}]}`;
    // The emoji's two halves straddle the first slice's end.
    expect(text.slice(BODY_CHUNK_CHARS - 1, BODY_CHUNK_CHARS + 1)).toBe("😀");
    return text;
  }

  async function chunksOf(response: Response) {
    const chunks: Uint8Array[] = [];
    const reader = response.body!.getReader();
    for (let read = await reader.read(); !read.done; read = await reader.read()) chunks.push(read.value);
    return chunks;
  }

  it("arrives whole, every character intact, in slices", async () => {
    const text = textAcrossSlices();
    const chunks = await chunksOf(jsonText(text));
    expect(chunks.length).toBeGreaterThan(1);
    expect(Buffer.concat(chunks).toString("utf8")).toBe(text);
    expect(Buffer.concat(chunks).length).toBe(Buffer.byteLength(text));
  });

  it("is the same whether its rows came in one statement or streamed", async () => {
    const row = JSON.parse(textAcrossSlices()).data[0];
    const whole = cursorPage(JSON.stringify([row, row, row]));
    const streamed = cursorPage(JSON.stringify([row]), async function* () {
      yield JSON.stringify([row, row]);
    });
    const [wholeText, streamedText] = [await whole.text(), await streamed.text()];
    expect(streamedText).toBe(wholeText);
    expect(JSON.parse(wholeText).data).toStrictEqual([row, row, row]);
  });

  it("stops reading its later rows when the reader goes away", async () => {
    let chunksRead = 0;
    let finished = false;
    const response = cursorPage('["first"]', async function* () {
      try {
        for (let chunk = 0; chunk < 10; chunk++) {
          chunksRead++;
          yield JSON.stringify(["x".repeat(3 * BODY_CHUNK_CHARS)]);
        }
      } finally {
        finished = true;
      }
    });
    const reader = response.body!.getReader();
    for (let slice = 0; slice < 4; slice++) await reader.read();
    await reader.cancel();
    expect(finished).toBe(true);
    expect(chunksRead).toBeLessThanOrEqual(2);
  });
});

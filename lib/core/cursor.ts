// Opaque cursors of cursor pages (decisions.md, Integrations): the sort key values of the last row of a page, signed
// with HMAC-SHA256 together with a hash of the list and its normalized query (filters, sort, page size), so that a
// cursor is refused (422) when tampered with or used on another list or with other filters.
import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import { validationFailed } from "./errors";

// Outside production a fixed secret keeps cursors working with no setup (as lib/auth/options.ts does for sign-in).
const DEVELOPMENT_SECRET = "development-only-cursor-secret";

function secret(): string {
  const configured = process.env.CURSOR_SECRET || process.env.NEXTAUTH_SECRET;
  if (configured) return configured;
  if (process.env.NODE_ENV === "production") throw new Error("Set CURSOR_SECRET or NEXTAUTH_SECRET to sign cursors.");
  return DEVELOPMENT_SECRET;
}

/** A position in a list: the values of its order's columns at one row, in order (dates as ISO strings). */
export type Position = (string | number | null)[];

/** What a cursor is bound to: the list's name and every query parameter but the cursor and the page number. */
export function cursorBinding(list: string, query: Record<string, unknown>): string {
  const normalized = Object.entries(query)
    .filter(([key, value]) => key !== "cursor" && key !== "page" && value !== undefined)
    .map(([key, value]) => [key, value instanceof Date ? value.toISOString() : value])
    .sort(([a], [b]) => String(a).localeCompare(String(b)));
  return createHash("sha256")
    .update(JSON.stringify([list, normalized]))
    .digest("base64url");
}

const sign = (payload: string, binding: string) =>
  createHmac("sha256", secret()).update(`${payload}.${binding}`).digest("base64url");

export function encodeCursor(position: Position, binding: string): string {
  const payload = Buffer.from(JSON.stringify(position)).toString("base64url");
  return `${payload}.${sign(payload, binding)}`;
}

const refused = () =>
  validationFailed({
    cursor: ["Not a cursor of this list with these filters and sort: start again with cursor= (empty)."],
  });

/** The position a cursor names; a 422 on `cursor` for one this server did not make for this list and query. */
export function decodeCursor(cursor: string, binding: string, length: number): Position {
  const [payload, signature, ...rest] = cursor.split(".");
  if (!payload || !signature || rest.length) throw refused();
  const expected = Buffer.from(sign(payload, binding));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw refused();
  const position: unknown = JSON.parse(Buffer.from(payload, "base64url").toString());
  if (!Array.isArray(position) || position.length !== length) throw refused();
  return position as Position;
}

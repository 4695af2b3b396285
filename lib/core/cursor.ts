// Opaque cursors of cursor pages (decisions.md, Integrations): the sort key values of a row at a page's edge (a long
// text value as a reference to that row instead, so that a cursor's length is bounded whatever the data) and the
// direction to read from it, signed with HMAC-SHA256 together with a hash of the list, its normalized query (filters,
// sort, page size) and the tenant and user that made it, so that a cursor is refused (422) when tampered with, used
// on another list or with other filters, or sent by another caller.
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

/** In a cursor's position, in place of a key's value: "the value of the row with this id" (read back in SQL). */
export interface RowReference {
  row: number;
}

/** A position as a cursor holds it: each key's value, or a reference to the row for a value too long to carry. */
export type CursorPosition = (Position[number] | RowReference)[];

export const isRowReference = (value: CursorPosition[number]): value is RowReference =>
  value !== null && typeof value === "object";

/**
 * The longest value a cursor carries, as JSON: any longer text (150 control characters are 900 as JSON) is carried as
 * a reference to its row, and a cursor stays far below the 1,000 characters a query's cursor may have.
 */
const LONGEST_CARRIED = 64;

/** A row's position as a cursor carries it: `id` (the row's) in place of any value too long to carry. */
export function carriedPosition(position: Position, id: number): CursorPosition {
  return position.map((value) => (JSON.stringify(value).length > LONGEST_CARRIED ? { row: id } : value));
}

/** Where a cursor leads: the rows after its position (a next page) or the rows before it (a previous page). */
export interface CursorTarget {
  position: CursorPosition;
  before: boolean;
}

/** Who made a cursor: only the same user of the same tenant may use it. */
export interface CursorOwner {
  tenant: { id: number };
  user: { id: number };
}

/**
 * What a cursor is bound to: the list's name, every query parameter but the cursor and the page number, and the
 * tenant and user that made it.
 */
export function cursorBinding(list: string, query: Record<string, unknown>, owner: CursorOwner): string {
  const normalized = Object.entries(query)
    .filter(([key, value]) => key !== "cursor" && key !== "page" && value !== undefined)
    .map(([key, value]) => [key, value instanceof Date ? value.toISOString() : value])
    .sort(([a], [b]) => String(a).localeCompare(String(b)));
  return createHash("sha256")
    .update(JSON.stringify([list, owner.tenant.id, owner.user.id, normalized]))
    .digest("base64url");
}

const sign = (payload: string, binding: string) =>
  createHmac("sha256", secret()).update(`${payload}.${binding}`).digest("base64url");

export function encodeCursor({ position, before }: CursorTarget, binding: string): string {
  const payload = Buffer.from(JSON.stringify(before ? { before: position } : { after: position })).toString(
    "base64url",
  );
  return `${payload}.${sign(payload, binding)}`;
}

const refused = () =>
  validationFailed({
    cursor: ["Not a cursor of this list with these filters and sort, made for you: start again with cursor= (empty)."],
  });

/**
 * The position and direction a cursor names; a 422 on `cursor` for one this server did not make for this list, query
 * and caller.
 */
export function decodeCursor(cursor: string, binding: string, length: number): CursorTarget {
  const [payload, signature, ...rest] = cursor.split(".");
  if (!payload || !signature || rest.length) throw refused();
  const expected = Buffer.from(sign(payload, binding));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw refused();
  const decoded: { after?: unknown; before?: unknown } = JSON.parse(Buffer.from(payload, "base64url").toString());
  const position = decoded.before ?? decoded.after;
  if (!Array.isArray(position) || position.length !== length) throw refused();
  return { position: position as CursorPosition, before: decoded.before !== undefined };
}

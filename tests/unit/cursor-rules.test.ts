// Tamper-proof cursors (lib/core/cursor.ts), without a database: a cursor leads back to its position only with the
// secret that signed it, on the list, query and caller it was made for; anything else is the 422 on `cursor`.
// Part of the mutation run (docs/testing.md, Mutation testing).
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  type CursorPosition,
  carriedPosition,
  cursorBinding,
  decodeCursor,
  encodeCursor,
  isRowReference,
} from "@/lib/core/cursor";
import { ApiError } from "@/lib/core/errors";

const acmeOwner = { tenant: { id: 1 }, user: { id: 10 } };
const query = { sort: "name", limit: 100, include_archived: false };
const binding = cursorBinding("clients", query, acmeOwner);
const position: CursorPosition = ["Harbour Bakery", 42];

/** The error a refused cursor is: a 422 naming `cursor`. */
function refusal(work: () => unknown) {
  try {
    work();
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    const { status, errors } = error as ApiError;
    return { status, errors };
  }
  return "accepted";
}
const REFUSED = {
  status: 422,
  errors: {
    cursor: ["Not a cursor of this list with these filters and sort, made for you: start again with cursor= (empty)."],
  },
};

/** A cursor's secret as a deployment sets it: CURSOR_SECRET, NEXTAUTH_SECRET, or neither. */
function secrets(cursor: string | undefined, nextauth: string | undefined) {
  vi.stubEnv("CURSOR_SECRET", cursor);
  vi.stubEnv("NEXTAUTH_SECRET", nextauth);
}

afterEach(() => vi.unstubAllEnvs());

describe("a cursor and its way back", () => {
  it.each([false, true])("leads to its position and direction (before: %s)", (before) => {
    secrets("cursor-secret", undefined);
    const cursor = encodeCursor({ position, before }, binding);
    expect(cursor).toMatch(/^[\w-]+\.[\w-]+$/);
    expect(decodeCursor(cursor, binding, 2)).toEqual({ position, before });
  });

  it("carries a row reference and a null as they are", () => {
    secrets("cursor-secret", undefined);
    const carried: CursorPosition = [{ row: 7 }, null, 3];
    expect(decodeCursor(encodeCursor({ position: carried, before: false }, binding), binding, 3)).toEqual({
      position: carried,
      before: false,
    });
  });
});

describe("the secret that signs cursors", () => {
  it("refuses a cursor signed with another configured CURSOR_SECRET", () => {
    secrets("first-secret", undefined);
    const cursor = encodeCursor({ position, before: false }, binding);
    secrets("second-secret", undefined);
    expect(refusal(() => decodeCursor(cursor, binding, 2))).toEqual(REFUSED);
    secrets("first-secret", undefined);
    expect(decodeCursor(cursor, binding, 2).position).toEqual(position);
  });

  it("uses NEXTAUTH_SECRET when no CURSOR_SECRET is set, and CURSOR_SECRET before it", () => {
    secrets(undefined, "sign-in-secret");
    const signedWithSignIn = encodeCursor({ position, before: false }, binding);
    secrets(undefined, "another-sign-in-secret");
    expect(refusal(() => decodeCursor(signedWithSignIn, binding, 2))).toEqual(REFUSED);
    secrets("cursor-secret", "sign-in-secret");
    expect(refusal(() => decodeCursor(signedWithSignIn, binding, 2))).toEqual(REFUSED);
    secrets(undefined, "sign-in-secret");
    expect(decodeCursor(signedWithSignIn, binding, 2).position).toEqual(position);
  });

  it("signs with a fixed development secret when none is set, and refuses it where one is", () => {
    secrets(undefined, undefined);
    const development = encodeCursor({ position, before: false }, binding);
    expect(decodeCursor(development, binding, 2).position).toEqual(position);
    secrets("configured-secret", undefined);
    expect(refusal(() => decodeCursor(development, binding, 2))).toEqual(REFUSED);
  });

  it("refuses to sign in production with no secret, saying what to set", () => {
    secrets("", "");
    vi.stubEnv("NODE_ENV", "production");
    expect(() => encodeCursor({ position, before: false }, binding)).toThrow(
      "Set CURSOR_SECRET or NEXTAUTH_SECRET to sign cursors.",
    );
    secrets("production-secret", "");
    expect(decodeCursor(encodeCursor({ position, before: false }, binding), binding, 2).position).toEqual(position);
  });
});

describe("what a cursor is bound to", () => {
  const cursor = () => encodeCursor({ position, before: false }, binding);
  const birchOwner = { tenant: { id: 2 }, user: { id: 10 } };
  const acmeStandard = { tenant: { id: 1 }, user: { id: 11 } };

  it.each([
    ["another list", cursorBinding("contacts", query, acmeOwner)],
    ["another sort", cursorBinding("clients", { ...query, sort: "-name" }, acmeOwner)],
    ["another filter", cursorBinding("clients", { ...query, q: "bakery" }, acmeOwner)],
    ["another page size", cursorBinding("clients", { ...query, limit: 50 }, acmeOwner)],
    ["another tenant", cursorBinding("clients", query, birchOwner)],
    ["another user", cursorBinding("clients", query, acmeStandard)],
  ])("is refused on %s", (_, other) => {
    secrets("cursor-secret", undefined);
    expect(refusal(() => decodeCursor(cursor(), other, 2))).toEqual(REFUSED);
  });

  it("is the same whatever the order of the query, its page, its cursor and parameters not sent", () => {
    const reordered = { include_archived: false, limit: 100, sort: "name" };
    expect(cursorBinding("clients", reordered, acmeOwner)).toBe(binding);
    expect(cursorBinding("clients", { ...query, cursor: "abc.def", page: 3, q: undefined }, acmeOwner)).toBe(binding);
  });

  it("names a date by its instant", () => {
    const since = new Date("2026-11-01T09:30:00.000Z");
    expect(cursorBinding("jobs", { updated_since: since }, acmeOwner)).toBe(
      cursorBinding("jobs", { updated_since: "2026-11-01T09:30:00.000Z" }, acmeOwner),
    );
    expect(cursorBinding("jobs", { updated_since: since }, acmeOwner)).not.toBe(
      cursorBinding("jobs", { updated_since: new Date("2026-11-01T09:30:01.000Z") }, acmeOwner),
    );
  });
});

describe("a tampered or malformed cursor", () => {
  it("is refused when its payload is changed", () => {
    secrets("cursor-secret", undefined);
    const [, signature] = encodeCursor({ position, before: false }, binding).split(".");
    const forged = Buffer.from(JSON.stringify({ after: ["Zebra Ltd", 1] })).toString("base64url");
    expect(refusal(() => decodeCursor(`${forged}.${signature}`, binding, 2))).toEqual(REFUSED);
  });

  it.each([
    ["no signature", (c: string) => c.split(".")[0]],
    ["an empty signature", (c: string) => `${c.split(".")[0]}.`],
    ["an empty payload", (c: string) => `.${c.split(".")[1]}`],
    ["a third part", (c: string) => `${c}.extra`],
    ["a shorter signature", (c: string) => c.slice(0, -1)],
    ["a longer signature", (c: string) => `${c}A`],
    ["one character of the signature changed", (c: string) => c.slice(0, -1) + (c.endsWith("A") ? "B" : "A")],
  ])("is refused with %s", (_, spoil) => {
    secrets("cursor-secret", undefined);
    expect(refusal(() => decodeCursor(spoil(encodeCursor({ position, before: false }, binding)), binding, 2))).toEqual(
      REFUSED,
    );
  });

  it("is refused when its position has another number of keys than the list's order", () => {
    secrets("cursor-secret", undefined);
    const cursor = encodeCursor({ position, before: true }, binding);
    expect(refusal(() => decodeCursor(cursor, binding, 3))).toEqual(REFUSED);
    expect(refusal(() => decodeCursor(cursor, binding, 1))).toEqual(REFUSED);
    const notAList = encodeCursor({ position: "Harbour" as unknown as CursorPosition, before: false }, binding);
    expect(refusal(() => decodeCursor(notAList, binding, 7))).toEqual(REFUSED);
  });
});

describe("values a cursor carries", () => {
  it("carries a value up to 64 characters of JSON, and a reference to the row for a longer one", () => {
    const longest = "x".repeat(62); // 64 characters with its quotes
    expect(carriedPosition([longest, 5, null], 9)).toEqual([longest, 5, null]);
    expect(carriedPosition([`${longest}x`, 5], 9)).toEqual([{ row: 9 }, 5]);
    expect(carriedPosition(["\u0001".repeat(11)], 3)).toEqual([{ row: 3 }]); // 66 characters as JSON
  });

  it("tells a row reference from a value", () => {
    expect(isRowReference({ row: 1 })).toBe(true);
    for (const value of [null, 0, 12, "row", "2026-01-01"]) expect(isRowReference(value)).toBe(false);
  });
});

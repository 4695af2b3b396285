// Users built by PostgreSQL (lib/db/json-rows.ts): what serializeUser and, inside other records, serializeUserSummary
// give, for a user row of any alias. The placeholder avatar is the same data URL: the image's fixed parts are percent-encoded here
// once, and the initials in SQL as encodeURIComponent(escapeXml(…)) does.
import { isoDate, isoTime, jsonObject } from "@/lib/db/json-rows";
import { Prisma } from "@/lib/generated/prisma/client";
import { placeholderSvg } from "./serialize";

const MARK = "\u0000";
const [SVG_BEFORE, SVG_AFTER] = placeholderSvg(MARK)
  .split(MARK)
  .map((part) => encodeURIComponent(part).replace(/'/g, "''"));

/** First letters of first and last name, upper case. */
const initials = (u: string) => `upper(left(${u}.firstname, 1) || left(${u}.lastname, 1))`;

const fullname = (u: string) => `btrim(${u}.firstname || ' ' || ${u}.lastname)`;

/** encodeURIComponent(escapeXml(text)) of a short text, character by character. */
const encodedXmlText = (text: string) => `(SELECT string_agg(CASE
    WHEN ch IN ('<', '>', '&', '"', '''') THEN '%26%23' || ascii(ch) || '%3B'
    WHEN ch ~ '^[A-Za-z0-9_.!~*()-]$' THEN ch
    ELSE upper(regexp_replace(encode(convert_to(ch, 'UTF8'), 'hex'), '(..)', '%\\1', 'g')) END, '' ORDER BY n)
  FROM regexp_split_to_table(${text}, '') WITH ORDINALITY AS chars(ch, n))`;

/** The stored avatar, or the placeholder with the user's initials. */
const avatarUrl = (u: string) => `COALESCE(NULLIF(${u}.avatar_url, ''),
  'data:image/svg+xml,${SVG_BEFORE}' || COALESCE(${encodedXmlText(initials(u))}, '') || '${SVG_AFTER}')`;

const column = (u: string, name: string) => Prisma.raw(`${u}.${name}`);

export function userSummaryWire(alias: string): Prisma.Sql {
  return jsonObject([
    ["id", column(alias, "id")],
    ["fullname", Prisma.raw(fullname(alias))],
    ["email", column(alias, "email")],
    ["initials", Prisma.raw(initials(alias))],
    ["avatar_url", Prisma.raw(avatarUrl(alias))],
  ]);
}

/** The user object of /users (is_contractor derived, decisions.md). */
export function userWire(alias = "t"): Prisma.Sql {
  const u = alias;
  return jsonObject([
    ["id", column(u, "id")],
    ["fullname", Prisma.raw(fullname(u))],
    ["firstname", column(u, "firstname")],
    ["lastname", column(u, "lastname")],
    ["email", column(u, "email")],
    ["initials", Prisma.raw(initials(u))],
    ["avatar_url", Prisma.raw(avatarUrl(u))],
    ["role", Prisma.raw(`(SELECT r.name FROM roles r WHERE (r.tenant_id, r.id) = (${u}.tenant_id, ${u}.role_id))`)],
    ["timezone", column(u, "timezone")],
    ["client_access", column(u, "client_access")],
    ["is_contractor", Prisma.raw(`${u}.client_access = 'assigned_clients'`)],
    ["is_owner", column(u, "is_owner")],
    ["archived_date", isoDate(`${u}.archived_date`)],
    ["updated_at", isoTime(`${u}.updated_at`)],
  ]);
}

/** A time log's user: `{id, fullname}`. */
export const userNameWire = (alias: string) =>
  jsonObject([
    ["id", column(alias, "id")],
    ["fullname", Prisma.raw(fullname(alias))],
  ]);

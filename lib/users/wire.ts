// Users inside other records, built by PostgreSQL (lib/db/json-rows.ts): what serializeUserSummary gives, for a user
// row of any alias. The placeholder avatar is the same data URL: the image's fixed parts are percent-encoded here
// once, and the initials in SQL as encodeURIComponent(escapeXml(…)) does.
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

export function userSummaryWire(alias: string): Prisma.Sql {
  return Prisma.raw(`json_build_object('id', ${alias}.id, 'fullname', ${fullname(alias)}, 'email', ${alias}.email,
    'initials', ${initials(alias)},
    'avatar_url', COALESCE(NULLIF(${alias}.avatar_url, ''),
      'data:image/svg+xml,${SVG_BEFORE}' || COALESCE(${encodedXmlText(initials(alias))}, '') || '${SVG_AFTER}'))`);
}

/** A time log's user: `{id, fullname}`. */
export const userNameWire = (alias: string) =>
  Prisma.raw(`json_build_object('id', ${alias}.id, 'fullname', ${fullname(alias)})`);

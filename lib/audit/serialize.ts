// The audit log's shapes: an entry as the API answers it, as a sentence a person reads (the settings page), and as
// a CSV row (the page's download).
import type { z } from "zod";
import type { AuditEvent } from "@/lib/generated/prisma/client";
import { readsNested, type TokenAccess, type TokenResource } from "@/lib/tokens/access";
import type { auditEventObject, Changes, TargetType } from "./schemas";

/** An entry as the API may answer it: reduced for a token that cannot read what it names (auditEventForToken). */
type ApiAuditEvent = z.output<typeof auditEventObject>;
/** An entry with everything in it: what the settings page shows and the CSV holds. */
export type AuditEventOutput = Omit<ApiAuditEvent, "actor" | "target"> & {
  actor: { type: "user"; id: number; name: string; email: string } | { type: "cli" | "system" };
  target: ApiAuditEvent["target"] & { name: string };
};

export function serializeAuditEvent(row: AuditEvent): AuditEventOutput {
  // An MCP tool's entry says `mcp:<tool>` (lib/audit/mutations.ts).
  const [via, tool] = row.via.split(":");
  return {
    id: row.id,
    action: row.action as AuditEventOutput["action"],
    actor:
      row.actorId === null
        ? { type: row.via === "system" ? "system" : "cli" }
        : { type: "user", id: row.actorId, name: row.actorName ?? "", email: row.actorEmail ?? "" },
    via: via as AuditEventOutput["via"],
    ...(tool ? { tool } : {}),
    token: row.tokenId === null ? null : { id: row.tokenId, name: row.tokenName ?? "" },
    target: {
      type: row.targetType as AuditEventOutput["target"]["type"],
      ...(row.targetUuid === null ? {} : { uuid: row.targetUuid }),
      ...(row.targetId === null ? {} : { id: row.targetId }),
      name: row.targetName,
    },
    changes: row.changes as Changes,
    address: row.address,
    created_at: row.createdAt.toISOString(),
  };
}

/** The token resource whose access shows a target's name and changed values. */
const TARGET_RESOURCES: Partial<Record<TargetType, TokenResource>> = {
  client: "clients",
  contact: "contacts",
  job: "jobs",
  user: "users",
  webhook: "webhooks",
};

/**
 * An entry as a token reads it (decisions.md, "Token access reaches nested data"): what was acted on by identifier
 * only, and its changes by field name only ("changed"), when the token cannot read its resource; the acting user by
 * id only without access to users.
 */
export function auditEventForToken(event: AuditEventOutput, access: TokenAccess): ApiAuditEvent {
  const resource = TARGET_RESOURCES[event.target.type];
  const hidden = resource !== undefined && !readsNested(access, resource);
  return {
    ...event,
    actor:
      event.actor.type === "user" && !readsNested(access, "users") ? { type: "user", id: event.actor.id } : event.actor,
    target: hidden ? { type: event.target.type, uuid: event.target.uuid, id: event.target.id } : event.target,
    changes: hidden ? Object.fromEntries(Object.keys(event.changes).map((field) => [field, "changed"])) : event.changes,
  };
}

// ---- Sentences ----

const NOUNS: Record<AuditEventOutput["target"]["type"], string> = {
  client: "the client",
  contact: "the contact",
  job: "the job",
  webhook: "the webhook",
  token: "the API token",
  user: "",
  tenant: "the firm",
  oauth_app: "the app",
  oauth_client: "the app",
};

/** What an action did, after the actor's name; `{target}` is the target ("the client Acme Ltd"). */
const VERBS: Partial<Record<AuditEventOutput["action"], string>> = {
  "webhook.deleted": "deleted {target}",
  "webhook.tested": "sent a test event to {target}",
  "webhook.disabled": "disabled {target}",
  "token.deleted": "deleted {target}",
  "token.revoked": "revoked {target}",
  "member.created": "added {target} to the firm",
  "member.invited": "invited {target} to the firm",
  "member.invite_renewed": "made a new invite link for {target}",
  "member.invite_accepted": "accepted the invite and set a password",
  "member.reset_link_created": "made a one-time link for {target} to set a new password",
  "member.archived": "archived {target}",
  "member.unarchived": "unarchived {target}",
  "password.changed": "changed the password of {target}",
  "password.reset": "set a new password with a one-time link, which signed them out everywhere",
  "sign_in.succeeded": "signed in",
  "oauth_app.authorized": "connected {target}",
  "oauth_app.revoked": "disconnected {target}",
  "oauth_client.registered": "registered {target}",
};

/**
 * Sentences about an account rather than by a person: whoever typed an email at the sign-in page may not be its
 * person, so these name the account tried ("A sign-in as Bea Birch (bea@…) failed"), never an actor.
 */
const ABOUT_ACCOUNT: Partial<Record<AuditEventOutput["action"], (account: string, event: AuditEventOutput) => string>> =
  {
    "sign_in.failed": (account) => `A sign-in as ${account} failed: wrong password`,
    "sign_in.throttled": (account, { changes }) => {
      const wait = changes.wait_seconds;
      if (wait === undefined || wait === "changed")
        return `A sign-in as ${account} was refused: too many failed sign-ins from its address`;
      const failures = changes.failed_attempts;
      const count =
        failures && failures !== "changed" ? `${valueText(failures[1])} wrong passwords` : "wrong passwords";
      return `Sign-ins as ${account} now wait ${valueText(wait[1])} s before each try is checked: ${count} for this email within 15 minutes`;
    },
    "password.reset_requested": (account) =>
      `A one-time link to set a new password was mailed to ${account}, asked for on the sign-in page ("Forgot password?")`,
  };

/** Fields whose API names read badly as words, by the kind of record. */
const FIELD_WORDS: Partial<Record<AuditEventOutput["target"]["type"], Record<string, string>>> = {
  client: { user_id: "account manager", client_id: "client reference" },
  job: { user_id: "assignee" },
};

/** A field's name as words: `street_address` → street address, `custom_fields.VAT number` → VAT number. */
const fieldLabel = (field: string, type?: AuditEventOutput["target"]["type"]) =>
  (type && FIELD_WORDS[type]?.[field]) ?? field.replace(/^custom_fields\./, "").replaceAll("_", " ");

/** A value of a change as words: nothing, none, yes, no, or the value. */
export function valueText(value: unknown): string {
  if (value === null || value === undefined || value === "") return "nothing";
  if (Array.isArray(value)) return value.length ? value.map(valueText).join(", ") : "none";
  if (typeof value === "boolean") return value ? "yes" : "no";
  // A token's access and the like: "clients write, contacts read", not JSON.
  if (typeof value === "object")
    return Object.entries(value)
      .map(([key, inner]) => `${fieldLabel(key)} ${valueText(inner)}`)
      .join(", ");
  return String(value);
}

/**
 * The names of records that changes name by id (people, client groups, tags), read by the page that shows the
 * sentences; without them, the ids are shown.
 */
export interface AuditNames {
  users: ReadonlyMap<number, string>;
  clientGroups: ReadonlyMap<number, string>;
  tags: ReadonlyMap<number, string>;
}

/** The fields whose values are ids of other records, and where their names are. */
export const ID_FIELDS: Record<string, keyof AuditNames> = {
  user_id: "users",
  client_groups: "clientGroups",
  tags: "tags",
};

/** A change's value, with ids of people, groups and tags as their names where known. */
export function changeValueText(field: string, value: unknown, names?: AuditNames): string {
  const kind = ID_FIELDS[field];
  if (!kind || !names) return valueText(value);
  const name = (id: unknown) => (typeof id === "number" ? (names[kind].get(id) ?? `#${id}`) : id);
  return valueText(Array.isArray(value) ? value.map(name) : name(value));
}

/** "a", "a and b", "a, b and c". */
const listText = (parts: string[]) =>
  parts.length < 2 ? parts.join("") : `${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}`;

/** `target` names the record with its kind ("the webhook https://…"), `name` alone. */
function changesText(event: AuditEventOutput, target: string, names?: AuditNames): string {
  const {
    changes,
    target: { name, type },
  } = event;
  const entries = Object.entries(changes);
  // Turning something on or off is said so, not as "changed the enabled of … from yes to no".
  const [only] = entries;
  if (entries.length === 1 && only[0] === "enabled" && only[1] !== "changed")
    return `${only[1][1] ? "enabled" : "disabled"} ${target}`;
  const parts = entries.map(([field, change], i) => {
    const of = i === 0 ? ` of ${name}` : "";
    if (change === "changed") return `the ${fieldLabel(field, type)}${of}`;
    const [before, after] = change.map((value) => changeValueText(field, value, names));
    return `the ${fieldLabel(field, type)}${of} from ${before} to ${after}`;
  });
  return `changed ${listText(parts)}`;
}

/** The entry as a sentence: "Olivia Owner changed the city of Acme Ltd from Leeds to York, with token 'Invoicing'". */
export function describeAuditEvent(event: AuditEventOutput, names?: AuditNames): string {
  const actor = actorText(event.actor);
  const aboutAccount = ABOUT_ACCOUNT[event.action];
  if (aboutAccount) return aboutAccount(event.actor.type === "user" ? actor : event.target.name, event);
  const noun = NOUNS[event.target.type];
  const target = noun ? `${noun} ${event.target.name}` : event.target.name;
  const verb = VERBS[event.action];
  let what: string;
  if (verb) what = verb.replace("{target}", target);
  else if (event.action.endsWith(".created")) what = `created ${target}`;
  else if (event.action === "webhook.secret_rotated") what = `rotated the secret of ${target}`;
  else if (Object.keys(event.changes).length) what = changesText(event, target, names);
  else what = `saved ${target} without changing it`;
  const through =
    event.via === "mcp" ? `through MCP (${event.tool}) with` : event.via === "oauth" ? "through the app" : "with token";
  return `${actor} ${what}${event.token ? `, ${through} '${event.token.name}'` : ""}`;
}

/**
 * Who acted, unambiguously: a display name can be anyone's (a Standard user may rename themselves "Olivia Owner"),
 * so a person is named with their email.
 */
function actorText(actor: AuditEventOutput["actor"]): string {
  if (actor.type === "cli") return "The command line";
  if (actor.type !== "user") return "Webhook delivery";
  return actor.name ? `${actor.name} (${actor.email})` : actor.email;
}

// ---- CSV ----

export const CSV_COLUMNS = [
  "created_at",
  "action",
  "description",
  "actor_type",
  "actor_id",
  "actor_name",
  "actor_email",
  "via",
  "token_id",
  "token_name",
  "target_type",
  "target_uuid",
  "target_id",
  "target_name",
  "changes",
  "address",
] as const;

/**
 * One CSV cell: quoted, with quotes doubled. A cell that a spreadsheet would run as a formula (starting with =, +,
 * -, @, a tab or a carriage return: any name or value a person typed) gets a leading apostrophe, as OWASP advises.
 */
export function csvCell(value: unknown): string {
  const text = value === null || value === undefined ? "" : String(value);
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return `"${safe.replaceAll('"', '""')}"`;
}

export function auditCsvRow(event: AuditEventOutput): string {
  const actor = event.actor.type === "user" ? event.actor : undefined;
  const cells: Record<(typeof CSV_COLUMNS)[number], unknown> = {
    created_at: event.created_at,
    action: event.action,
    description: describeAuditEvent(event),
    actor_type: event.actor.type,
    actor_id: actor?.id,
    actor_name: actor?.name,
    actor_email: actor?.email,
    via: event.via,
    token_id: event.token?.id,
    token_name: event.token?.name,
    target_type: event.target.type,
    target_uuid: event.target.uuid,
    target_id: event.target.id,
    target_name: event.target.name,
    changes: JSON.stringify(event.changes),
    address: event.address,
  };
  return `${CSV_COLUMNS.map((column) => csvCell(cells[column])).join(",")}\r\n`;
}

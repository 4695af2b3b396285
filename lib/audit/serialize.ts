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
  return {
    id: row.id,
    action: row.action as AuditEventOutput["action"],
    actor:
      row.actorId === null
        ? { type: row.via === "system" ? "system" : "cli" }
        : { type: "user", id: row.actorId, name: row.actorName ?? "", email: row.actorEmail ?? "" },
    via: row.via as AuditEventOutput["via"],
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
  "member.archived": "archived {target}",
  "member.unarchived": "unarchived {target}",
  "password.changed": "changed the password of {target}",
  "sign_in.succeeded": "signed in",
  "sign_in.failed": "failed to sign in",
  "sign_in.throttled": "was refused sign-in after too many attempts",
};

/** A field's name as words: `street_address` → street address, `custom_fields.VAT number` → VAT number. */
const fieldLabel = (field: string) => field.replace(/^custom_fields\./, "").replaceAll("_", " ");

/** A value of a change as words: nothing, none, yes, no, or the value. */
export function valueText(value: unknown): string {
  if (value === null || value === undefined || value === "") return "nothing";
  if (Array.isArray(value)) return value.length ? value.map(valueText).join(", ") : "none";
  if (typeof value === "boolean") return value ? "yes" : "no";
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

/** "a", "a and b", "a, b and c". */
const listText = (parts: string[]) =>
  parts.length < 2 ? parts.join("") : `${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}`;

function changesText(changes: Changes, target: string): string {
  const parts = Object.entries(changes).map(([field, change], i) => {
    const of = i === 0 ? ` of ${target}` : "";
    return change === "changed"
      ? `the ${fieldLabel(field)}${of}`
      : `the ${fieldLabel(field)}${of} from ${valueText(change[0])} to ${valueText(change[1])}`;
  });
  return `changed ${listText(parts)}`;
}

const ACTOR_NAMES: Partial<Record<AuditEventOutput["actor"]["type"], string>> = {
  cli: "The command line",
  system: "Webhook delivery",
};

/** The entry as a sentence: "Olivia Owner changed the city of Acme Ltd from Leeds to York, with token 'Invoicing'". */
export function describeAuditEvent(event: AuditEventOutput): string {
  const actor =
    ACTOR_NAMES[event.actor.type] ?? (event.actor.type === "user" ? event.actor.name || event.actor.email : "");
  const noun = NOUNS[event.target.type];
  const target = noun ? `${noun} ${event.target.name}` : event.target.name;
  const verb = VERBS[event.action];
  let what: string;
  if (verb) what = verb.replace("{target}", target);
  else if (event.action.endsWith(".created")) what = `created ${target}`;
  else if (event.action === "webhook.secret_rotated") what = `rotated the secret of ${target}`;
  else if (Object.keys(event.changes).length) what = changesText(event.changes, event.target.name);
  else what = `saved ${target} without changing it`;
  return `${actor} ${what}${event.token ? `, with token '${event.token.name}'` : ""}`;
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

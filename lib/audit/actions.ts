// The audit log's actions, one list per area. An area that records something new adds its list here and to
// AUDIT_ACTIONS (and, where the generic sentence does not read well, its words in serialize.ts's VERBS); the API's
// filter, the OpenAPI document and the settings page's filter all follow this one list.

/** Records the API writes. */
const RECORD_ACTIONS = [
  "client.created",
  "client.updated",
  "contact.created",
  "contact.updated",
  "job.created",
  "job.updated",
] as const;

const WEBHOOK_ACTIONS = [
  "webhook.created",
  "webhook.updated",
  "webhook.deleted",
  "webhook.secret_rotated",
  "webhook.tested",
  "webhook.disabled",
] as const;

const TOKEN_ACTIONS = ["token.created", "token.deleted", "token.revoked"] as const;

/** The firm's people, as the team page and the operator's commands manage them. */
const MEMBER_ACTIONS = [
  "member.created",
  "member.invited",
  "member.invite_renewed",
  "member.invite_accepted",
  "member.reset_link_created",
  "member.role_changed",
  "member.client_access_changed",
  "member.groups_changed",
  "member.archived",
  "member.unarchived",
] as const;

/** A firm and a person's own account. */
const ACCOUNT_ACTIONS = [
  "tenant.created",
  "password.changed",
  "password.reset_requested",
  "password.reset",
  "profile.updated",
] as const;

/** Sign-in attempts: about the account tried, whoever typed its email. */
const SIGN_IN_ACTIONS = ["sign_in.succeeded", "sign_in.failed", "sign_in.throttled"] as const;

/** Third-party apps on OAuth: grants, registered apps, the firm's policy (lib/oauth). */
const OAUTH_ACTIONS = [
  "oauth_app.authorized",
  "oauth_app.access_changed",
  "oauth_app.revoked",
  "oauth_client.registered",
  "oauth_policy.changed",
] as const;

export const AUDIT_ACTIONS = [
  ...RECORD_ACTIONS,
  ...WEBHOOK_ACTIONS,
  ...TOKEN_ACTIONS,
  ...MEMBER_ACTIONS,
  ...ACCOUNT_ACTIONS,
  ...SIGN_IN_ACTIONS,
  ...OAUTH_ACTIONS,
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

"use client";

import { ShownOnce } from "../shown-once";
import { Time } from "../time";

/** What a one-time link is for: an invite (the first password) or a reset (a new one). */
const WORDS = {
  invite: { heading: "the invite link", after: "" },
  reset: {
    heading: "the link to set a new password",
    after: " Using it signs them out everywhere; their password stays as it is until then.",
  },
} as const;

/** A one-time link to set a password, right after it was made: the one time it can be seen. */
export function InviteLink({
  name,
  email,
  link,
  expiresAt,
  timezone,
  kind = "invite",
}: {
  name: string;
  email: string;
  link: string;
  expiresAt: string;
  timezone: string;
  kind?: keyof typeof WORDS;
}) {
  const words = WORDS[kind];
  return (
    <ShownOnce
      heading={`Copy ${words.heading} for ${name} now`}
      label={`${kind === "invite" ? "Invite link" : "Link to set a new password"} for ${name}`}
      fieldId={`${kind}-link-${link.slice(-8)}`}
      value={link}
      what="link"
      copyLabel="Copy link"
    >
      Send it to {email} yourself, a way you know reaches them: nothing is emailed. It works once, until{" "}
      <Time value={expiresAt} timezone={timezone} />, and will not be shown again.{words.after}
    </ShownOnce>
  );
}

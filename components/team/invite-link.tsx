"use client";

import { ShownOnce } from "../shown-once";

/** An invite link, right after it was made: the one time it can be seen. */
export function InviteLink({
  name,
  email,
  link,
  expiresAt,
  timezone,
}: {
  name: string;
  email: string;
  link: string;
  expiresAt: string;
  timezone: string;
}) {
  const until = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: timezone });
  return (
    <ShownOnce
      heading={`Copy the invite link for ${name} now`}
      label={`Invite link for ${name}`}
      fieldId={`invite-link-${link.slice(-8)}`}
      value={link}
      what="link"
      copyLabel="Copy link"
    >
      Send it to {email} yourself: nothing is emailed. It works once, until{" "}
      <time dateTime={expiresAt}>{until.format(new Date(expiresAt))}</time>, and will not be shown again.
    </ShownOnce>
  );
}

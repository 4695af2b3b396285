"use client";

import { useEffect, useRef, useState } from "react";
import { secondaryButton } from "../styles";

/** An invite link, right after it was made: the one time it can be seen. Focus moves here. */
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
  const heading = useRef<HTMLHeadingElement>(null);
  const field = useRef<HTMLTextAreaElement>(null);
  const [copyStatus, setCopyStatus] = useState("");
  useEffect(() => heading.current?.focus(), []);
  const id = `invite-link-${link.slice(-8)}`;
  const until = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: timezone });

  async function copy() {
    try {
      await navigator.clipboard.writeText(link);
      setCopyStatus("Copied to the clipboard.");
    } catch {
      field.current?.select();
      setCopyStatus("Could not copy automatically: the link is selected, press Ctrl+C (⌘C on a Mac).");
    }
  }

  return (
    <div className="mt-4 rounded-md border border-amber-300 bg-amber-50 p-4">
      <h3 ref={heading} tabIndex={-1} className="font-semibold break-words text-amber-950 focus:outline-none">
        Copy the invite link for {name} now
      </h3>
      <p className="mt-1 text-sm break-words text-amber-950">
        Send it to {email} yourself: nothing is emailed. It works once, until{" "}
        <time dateTime={expiresAt}>{until.format(new Date(expiresAt))}</time>, and will not be shown again.
      </p>
      <div className="mt-3 flex flex-col gap-2 sm:flex-row">
        <label htmlFor={id} className="sr-only">
          Invite link for {name}
        </label>
        {/* A textarea, so that on a narrow screen the link wraps and stays whole and selectable. */}
        <textarea
          ref={field}
          id={id}
          readOnly
          rows={3}
          value={link}
          spellCheck={false}
          onFocus={(event) => event.currentTarget.select()}
          className="block w-full min-w-0 flex-1 resize-none rounded-md border border-amber-300 bg-white px-3 py-2 font-mono text-sm break-all text-slate-900 focus:outline-none focus:ring-2 focus:ring-slate-900"
        />
        <button type="button" onClick={copy} className={`${secondaryButton} self-start`}>
          Copy link
        </button>
      </div>
      <p aria-live="polite" className="mt-2 min-h-5 text-sm text-amber-950">
        {copyStatus}
      </p>
    </div>
  );
}

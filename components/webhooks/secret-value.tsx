"use client";

import { useEffect, useRef, useState } from "react";
import { secondaryButton } from "../styles";

/** A signing secret, right after it was made: the one time it can be seen. */
export function SecretValue({ title, secret }: { title: string; secret: string }) {
  const heading = useRef<HTMLHeadingElement>(null);
  const field = useRef<HTMLTextAreaElement>(null);
  const [copyStatus, setCopyStatus] = useState("");

  // Focus lands here, so keyboard and screen reader users reach the value they must copy now.
  useEffect(() => heading.current?.focus(), []);

  async function copy() {
    try {
      await navigator.clipboard.writeText(secret);
      setCopyStatus("Copied to the clipboard.");
    } catch {
      field.current?.select();
      setCopyStatus("Could not copy automatically: the secret is selected, press Ctrl+C (⌘C on a Mac).");
    }
  }

  return (
    <div className="mt-4 rounded-md border border-amber-300 bg-amber-50 p-4">
      <h3 ref={heading} tabIndex={-1} className="font-semibold text-amber-950 focus:outline-none">
        {title}
      </h3>
      <p className="mt-1 text-sm text-amber-950">
        Your receiver verifies the webhook-signature header with it. It will not be shown again; if you lose it, rotate
        the secret.
      </p>
      <div className="mt-3 flex flex-col gap-2 sm:flex-row">
        <label htmlFor="webhook-secret-value" className="sr-only">
          Signing secret
        </label>
        <textarea
          ref={field}
          id="webhook-secret-value"
          readOnly
          rows={2}
          value={secret}
          spellCheck={false}
          onFocus={(event) => event.currentTarget.select()}
          className="block w-full min-w-0 flex-1 resize-none rounded-md border border-amber-300 bg-white px-3 py-2 font-mono text-sm break-all text-slate-900 focus:outline-none focus:ring-2 focus:ring-slate-900"
        />
        <button type="button" onClick={copy} className={`${secondaryButton} self-start`}>
          Copy
        </button>
      </div>
      <p aria-live="polite" className="mt-2 min-h-5 text-sm text-amber-950">
        {copyStatus}
      </p>
    </div>
  );
}

"use client";

import { useEffect, useRef, useState } from "react";
import { secondaryButton } from "../styles";

/** A token's value, right after its creation: the one time it can be seen. */
export function NewTokenValue({ name, token }: { name: string; token: string }) {
  const heading = useRef<HTMLHeadingElement>(null);
  const field = useRef<HTMLTextAreaElement>(null);
  const [copyStatus, setCopyStatus] = useState("");

  // Move focus here, so keyboard and screen reader users land on the value they must copy now.
  useEffect(() => heading.current?.focus(), []);

  async function copy() {
    try {
      await navigator.clipboard.writeText(token);
      setCopyStatus("Copied to the clipboard.");
    } catch {
      // No clipboard access (e.g. a page served over plain HTTP): select the value for the person to copy.
      field.current?.select();
      setCopyStatus("Could not copy automatically: the token is selected, press Ctrl+C (⌘C on a Mac).");
    }
  }

  return (
    <div className="mt-4 rounded-md border border-amber-300 bg-amber-50 p-4">
      <h3 ref={heading} tabIndex={-1} className="font-semibold text-amber-950 focus:outline-none">
        Copy your new token “{name}” now
      </h3>
      <p className="mt-1 text-sm text-amber-950">
        It will not be shown again. If you lose it, delete it and create a new one.
      </p>
      <div className="mt-3 flex flex-col gap-2 sm:flex-row">
        <label htmlFor="new-token-value" className="sr-only">
          Token value
        </label>
        {/* A textarea, so that on a narrow screen the value wraps and stays whole and selectable. */}
        <textarea
          ref={field}
          id="new-token-value"
          readOnly
          rows={2}
          value={token}
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

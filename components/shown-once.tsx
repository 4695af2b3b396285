"use client";

import { type ReactNode, useEffect, useRef, useState } from "react";
import { secondaryButton } from "./styles";

/**
 * A secret right after it was made (a token, a signing secret, an invite link): the one time it can be seen, with a
 * copy button. Focus moves to its heading, so keyboard and screen reader users land on the value they must copy now.
 */
export function ShownOnce({
  heading,
  children,
  label,
  fieldId,
  value,
  what,
  copyLabel = "Copy",
}: {
  heading: ReactNode;
  /** What to do with the value, under the heading. */
  children: ReactNode;
  /** The field's accessible name. */
  label: string;
  fieldId: string;
  value: string;
  /** The value's kind in messages: "the token is selected". */
  what: string;
  copyLabel?: string;
}) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  const field = useRef<HTMLTextAreaElement>(null);
  const [copyStatus, setCopyStatus] = useState("");

  useEffect(() => headingRef.current?.focus(), []);

  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      setCopyStatus("Copied to the clipboard.");
    } catch {
      // No clipboard access (e.g. a page served over plain HTTP): select the value for the person to copy.
      field.current?.select();
      setCopyStatus(`Could not copy automatically: the ${what} is selected, press Ctrl+C (⌘C on a Mac).`);
    }
  }

  return (
    <div className="mt-4 rounded-md border border-amber-300 bg-amber-50 p-4">
      <h3 ref={headingRef} tabIndex={-1} className="font-semibold break-words text-amber-950 focus:outline-none">
        {heading}
      </h3>
      <p className="mt-1 text-sm break-words text-amber-950">{children}</p>
      <div className="mt-3 flex flex-col gap-2 sm:flex-row">
        <label htmlFor={fieldId} className="sr-only">
          {label}
        </label>
        {/* A textarea, so that on a narrow screen the value wraps and stays whole and selectable; it is as tall as
            the value, so no empty line is left under a value that fits on one. */}
        <textarea
          ref={field}
          id={fieldId}
          readOnly
          rows={1}
          value={value}
          spellCheck={false}
          onFocus={(event) => event.currentTarget.select()}
          className="block field-sizing-content w-full min-w-0 flex-1 resize-none rounded-md border border-amber-300 bg-white px-3 py-2 font-mono text-sm break-all text-slate-900 focus:outline-none focus:ring-2 focus:ring-slate-900"
        />
        <button type="button" onClick={copy} className={`${secondaryButton} self-start`}>
          {copyLabel}
        </button>
      </div>
      {/* Always present, so that screen readers announce what appears in it; empty, it takes no room. */}
      <p aria-live="polite" className="mt-2 text-sm text-amber-950 empty:mt-0">
        {copyStatus}
      </p>
    </div>
  );
}

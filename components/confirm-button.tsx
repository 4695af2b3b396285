"use client";

import { type ReactNode, useId, useRef } from "react";
import { dangerButton, secondaryButton } from "./styles";
import { SubmitButton } from "./submit-button";

/**
 * A button for an action that cannot be taken back: it opens a modal dialog (the browser's own: it traps focus and
 * closes on Escape) that says what will happen, with Cancel focused; only the dialog's own button acts. The dialog's
 * ids come from useId, so two lists on one page never share them.
 */
export function ConfirmButton({
  label,
  accessibleLabel,
  title,
  children,
  confirmLabel,
  pendingLabel,
  fields,
  action,
  onDone,
}: {
  label: string;
  /** What the opening button says to a screen reader when `label` alone is ambiguous ("Delete" among many). */
  accessibleLabel?: string;
  title: string;
  /** What happens, in a sentence or two. */
  children: ReactNode;
  confirmLabel: string;
  pendingLabel: string;
  /** Hidden fields the action receives (e.g. the record's id). */
  fields: Record<string, string>;
  action: (form: FormData) => unknown;
  onDone?: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  async function confirmed(form: FormData) {
    await action(form);
    dialog.current?.close();
    onDone?.();
  }
  return (
    <>
      <button
        type="button"
        onClick={() => dialog.current?.showModal()}
        aria-label={accessibleLabel}
        aria-haspopup="dialog"
        className={secondaryButton}
      >
        {label}
      </button>
      <dialog
        ref={dialog}
        aria-labelledby={titleId}
        className="m-auto w-[min(28rem,calc(100vw-2rem))] rounded-lg bg-white p-6 text-slate-900 shadow-xl backdrop:bg-slate-900/50"
      >
        <h3 id={titleId} className="text-lg font-semibold break-words">
          {title}
        </h3>
        <div className="mt-2 text-sm text-slate-600">{children}</div>
        <form action={confirmed} className="mt-6 flex flex-wrap justify-end gap-3">
          {Object.entries(fields).map(([name, value]) => (
            <input key={name} type="hidden" name={name} value={value} />
          ))}
          <button type="button" autoFocus onClick={() => dialog.current?.close()} className={secondaryButton}>
            Cancel
          </button>
          <SubmitButton label={confirmLabel} pendingLabel={pendingLabel} className={dangerButton} />
        </form>
      </dialog>
    </>
  );
}

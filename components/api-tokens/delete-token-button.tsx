"use client";

import { useRef } from "react";
import { deleteToken } from "@/app/settings/api-tokens/actions";
import { dangerButton, secondaryButton } from "../styles";
import { SubmitButton } from "../submit-button";
import { useDeletions } from "./deletions";

/**
 * Delete, after a confirmation in a modal dialog (the browser's own: it traps focus and closes on Escape). The firm
 * tokens list passes its own action, verb and title.
 */
export function DeleteTokenButton({
  id,
  name,
  action = deleteToken,
  verb = "Delete",
  title = `Delete the token “${name}”?`,
  focusAfter = "your-tokens-heading",
}: {
  id: number;
  name: string;
  action?: (form: FormData) => Promise<void>;
  verb?: "Delete" | "Revoke";
  title?: string;
  /** The id of the element that gets focus once the token is gone. */
  focusAfter?: string;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = `delete-token-${id}-title`;
  const { onDeleted } = useDeletions();
  async function remove(form: FormData) {
    await action(form);
    dialog.current?.close();
    onDeleted(id, `Token ${verb.toLowerCase()}d`, focusAfter);
  }
  return (
    <>
      <button
        type="button"
        onClick={() => dialog.current?.showModal()}
        aria-label={`${verb} ${name}`}
        className={secondaryButton}
      >
        {verb}
      </button>
      <dialog
        ref={dialog}
        aria-labelledby={titleId}
        className="m-auto w-[min(28rem,calc(100vw-2rem))] rounded-lg bg-white p-6 text-slate-900 shadow-xl backdrop:bg-slate-900/50"
      >
        <h3 id={titleId} className="text-lg font-semibold break-words">
          {title}
        </h3>
        <p className="mt-2 text-sm text-slate-600">
          Anything that uses it loses access at once. This cannot be undone.
        </p>
        <form action={remove} className="mt-6 flex flex-wrap justify-end gap-3">
          <input type="hidden" name="id" value={id} />
          <button type="button" autoFocus onClick={() => dialog.current?.close()} className={secondaryButton}>
            Cancel
          </button>
          <SubmitButton
            label={`${verb} token`}
            pendingLabel={`${verb === "Delete" ? "Deleting" : "Revoking"}…`}
            className={dangerButton}
          />
        </form>
      </dialog>
    </>
  );
}

"use client";

import { deleteToken } from "@/app/settings/api-tokens/actions";
import { ConfirmButton } from "../confirm-button";
import { useDeletions } from "./deletions";

/** Delete, after a confirmation. The firm tokens list passes its own action, verb and title. */
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
  const { onDeleted } = useDeletions();
  return (
    <ConfirmButton
      label={verb}
      accessibleLabel={`${verb} ${name}`}
      title={title}
      confirmLabel={`${verb} token`}
      pendingLabel={`${verb === "Delete" ? "Deleting" : "Revoking"}…`}
      fields={{ id: String(id) }}
      action={action}
      onDone={() => onDeleted(id, `Token ${verb.toLowerCase()}d: ${name}`, focusAfter)}
    >
      Anything that uses it loses access at once. This cannot be undone.
    </ConfirmButton>
  );
}

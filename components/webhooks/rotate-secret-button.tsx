"use client";

import { useActionState } from "react";
import { type RotateSecretState, rotateSecretAction } from "@/app/settings/webhooks/actions";
import { ConfirmButton } from "../confirm-button";
import { SecretValue } from "./secret-value";

/** Rotate the signing secret, after a confirmation (the receiver must be given the new one within a day). */
export function RotateSecretButton({ uuid, url }: { uuid: string; url: string }) {
  const [state, formAction] = useActionState<RotateSecretState, FormData>(rotateSecretAction, { status: "idle" });
  return (
    <>
      <ConfirmButton
        label="Rotate secret"
        accessibleLabel={`Rotate the signing secret of ${url}`}
        title={`Rotate the signing secret of ${url}?`}
        confirmLabel="Rotate secret"
        pendingLabel="Rotating…"
        fields={{ uuid }}
        action={formAction}
      >
        A new secret signs every delivery from now on; the old one also signs for 24 hours, then stops. Give the new one
        to the receiver within that day, or it will reject the deliveries.
      </ConfirmButton>
      {state.status === "rotated" && (
        <div className="basis-full">
          <SecretValue
            key={state.secret}
            title={`Copy the new signing secret of ${url} now (the old one signs too for 24 hours)`}
            secret={state.secret}
          />
        </div>
      )}
    </>
  );
}

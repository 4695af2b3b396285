"use client";

import { useActionState } from "react";
import { type RotateSecretState, rotateSecretAction } from "@/app/settings/webhooks/actions";
import { secondaryButton } from "../styles";
import { SubmitButton } from "../submit-button";
import { SecretValue } from "./secret-value";

export function RotateSecretButton({ uuid, url }: { uuid: string; url: string }) {
  const [state, formAction] = useActionState<RotateSecretState, FormData>(rotateSecretAction, { status: "idle" });
  return (
    <>
      <form action={formAction}>
        <input type="hidden" name="uuid" value={uuid} />
        <SubmitButton label="Rotate secret" pendingLabel="Rotating…" className={secondaryButton} />
      </form>
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

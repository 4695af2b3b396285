"use client";

import { ShownOnce } from "../shown-once";

/** A signing secret, right after it was made: the one time it can be seen. */
export function SecretValue({ title, secret }: { title: string; secret: string }) {
  return (
    <ShownOnce heading={title} label="Signing secret" fieldId="webhook-secret-value" value={secret} what="secret">
      Your receiver verifies the webhook-signature header with it. It will not be shown again; if you lose it, rotate
      the secret.
    </ShownOnce>
  );
}

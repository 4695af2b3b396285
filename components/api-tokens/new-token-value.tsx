"use client";

import { ShownOnce } from "../shown-once";

/** A token's value, right after its creation: the one time it can be seen. */
export function NewTokenValue({ name, token }: { name: string; token: string }) {
  return (
    <ShownOnce
      heading={`Copy your new token “${name}” now`}
      label="Token value"
      fieldId="new-token-value"
      value={token}
      what="token"
    >
      It will not be shown again. If you lose it, delete it and create a new one.
    </ShownOnce>
  );
}

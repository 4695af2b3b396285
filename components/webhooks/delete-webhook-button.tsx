"use client";

import { deleteWebhookAction } from "@/app/settings/webhooks/actions";
import { ConfirmButton } from "../confirm-button";

/** Delete an endpoint, after a confirmation: its deliveries go with it and nothing more is sent there. */
export function DeleteWebhookButton({ uuid, url }: { uuid: string; url: string }) {
  return (
    <ConfirmButton
      label="Delete"
      accessibleLabel={`Delete the endpoint ${url}`}
      title={`Delete the endpoint ${url}?`}
      confirmLabel="Delete endpoint"
      pendingLabel="Deleting…"
      fields={{ uuid }}
      action={deleteWebhookAction}
    >
      Nothing more is sent to it, and its deliveries are deleted with it. This cannot be undone.
    </ConfirmButton>
  );
}

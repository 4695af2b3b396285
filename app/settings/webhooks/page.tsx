import type { Metadata } from "next";
import { AccountSettingsLayout } from "@/components/account-settings-layout";
import { NewWebhookForm } from "@/components/webhooks/new-webhook-form";
import { WebhookList } from "@/components/webhooks/webhook-list";
import { requireSignedInUser } from "@/lib/auth/session";
import { WEBHOOKS_PATH } from "@/lib/paths";
import { webhookManager, webhooksPage } from "@/lib/webhooks/settings";

export const metadata: Metadata = { title: "Webhooks · Client, Job and Time Tracking" };

export default async function WebhooksPage() {
  const user = await requireSignedInUser(WEBHOOKS_PATH);
  const scope = await webhookManager(user);
  return (
    <AccountSettingsLayout user={user} current={WEBHOOKS_PATH}>
      <h1 className="text-2xl font-semibold">Webhooks</h1>
      {!scope ? (
        <p className="mt-2 max-w-prose text-sm text-slate-600">
          Only Owners and Admins manage the firm&apos;s webhooks.
        </p>
      ) : (
        <>
          <p className="mt-2 mb-6 max-w-prose text-sm text-slate-600">
            When a client, contact or job is created or changed, the firm&apos;s integrations are told at once: the
            record is POSTed to each endpoint subscribed to that event, signed with the endpoint&apos;s secret (Standard
            Webhooks), and retried for about a day when the receiver fails.
          </p>
          <NewWebhookForm />
          <section aria-labelledby="webhooks-heading" className="mt-8">
            <h2 id="webhooks-heading" className="mb-3 text-lg font-semibold">
              Endpoints
            </h2>
            <WebhookList webhooks={await webhooksPage(scope)} timezone={user.timezone} />
          </section>
        </>
      )}
    </AccountSettingsLayout>
  );
}

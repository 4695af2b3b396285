import type { Metadata } from "next";
import { AccountSettingsLayout } from "@/components/account-settings-layout";
import { NewWebhookForm } from "@/components/webhooks/new-webhook-form";
import { WebhookList } from "@/components/webhooks/webhook-list";
import { WEBHOOKS_PATH } from "@/lib/paths";
import { requireSettingsPage } from "@/lib/settings-pages";
import { allowPrivateTargets } from "@/lib/webhooks/address";
import { requireWebhookManager, webhooksPage } from "@/lib/webhooks/settings";

export const metadata: Metadata = { title: "Webhooks · Client, Job and Time Tracking" };

/** For Owners and Admins (`webhooks.manage`); anyone else gets the 404 page (lib/settings-pages.ts). */
export default async function WebhooksPage() {
  const user = await requireSettingsPage(WEBHOOKS_PATH);
  const scope = await requireWebhookManager(user);
  return (
    <AccountSettingsLayout user={user} current={WEBHOOKS_PATH}>
      <h1 className="text-2xl font-semibold">Webhooks</h1>
      <p className="mt-2 mb-6 max-w-prose text-sm text-slate-600">
        When a client, contact or job is created or changed, the firm&apos;s integrations are told at once: the record
        is POSTed to each endpoint subscribed to that event, signed with the endpoint&apos;s secret (Standard Webhooks),
        and retried for about a day when the receiver fails.
      </p>
      <NewWebhookForm privateTargets={allowPrivateTargets()} />
      <section aria-labelledby="webhooks-heading" className="mt-8">
        <h2 id="webhooks-heading" className="mb-3 text-lg font-semibold">
          Endpoints
        </h2>
        <WebhookList webhooks={await webhooksPage(scope)} timezone={user.timezone} />
      </section>
    </AccountSettingsLayout>
  );
}

import type { Metadata } from "next";
import { AccountSettingsLayout } from "@/components/account-settings-layout";
import { GrantList } from "@/components/oauth/grant-list";
import { connectedAppsPage } from "@/lib/oauth/pages";
import { CONNECTED_APPS_PATH } from "@/lib/paths";
import { requireSettingsPage } from "@/lib/settings-pages";

export const metadata: Metadata = { title: "Connected apps · Client, Job and Time Tracking" };

export default async function ConnectedAppsPage() {
  const user = await requireSettingsPage(CONNECTED_APPS_PATH);
  const { own, firm } = await connectedAppsPage(user);
  return (
    <AccountSettingsLayout user={user} current={CONNECTED_APPS_PATH}>
      <h1 className="text-2xl font-semibold">Connected apps</h1>
      <p className="mt-2 mb-6 max-w-prose text-sm text-slate-600">
        Apps you allowed to use the API as you (OAuth). Each does at most what you granted, within what your role allows
        and your firm permits. Lower an app’s access, or revoke it: it stops working at once.
      </p>
      <section aria-labelledby="your-apps-heading">
        <h2 id="your-apps-heading" className="mb-3 text-lg font-semibold">
          Your apps
        </h2>
        <GrantList grants={own} timezone={user.timezone} />
      </section>
      {firm && (
        <section aria-labelledby="firm-apps-heading" className="mt-8">
          <h2 id="firm-apps-heading" className="text-lg font-semibold">
            Firm’s connected apps
          </h2>
          <p className="mt-1 mb-3 max-w-prose text-sm text-slate-600">
            Every app anyone in the firm has connected. Revoke one that should no longer have access.
          </p>
          <GrantList grants={firm} timezone={user.timezone} firm />
        </section>
      )}
    </AccountSettingsLayout>
  );
}

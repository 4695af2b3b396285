import type { Metadata } from "next";
import { AccountSettingsLayout } from "@/components/account-settings-layout";
import { ConfirmButton } from "@/components/confirm-button";
import { ListAppForm, RegisterAppForm } from "@/components/oauth/app-forms";
import { primaryButton, secondaryButton } from "@/components/styles";
import { appsPolicyPage } from "@/lib/oauth/pages";
import { APPS_PATH } from "@/lib/paths";
import { requireSettingsPage } from "@/lib/settings-pages";
import { accessSummary } from "@/lib/tokens/access";
import { deleteAppAction, savePolicyAction, unlistAppAction } from "./actions";

export const metadata: Metadata = { title: "App policy · Client, Job and Time Tracking" };

export default async function AppPolicyPage() {
  const user = await requireSettingsPage(APPS_PATH);
  const { name, policy, listed, clients } = await appsPolicyPage(user);
  return (
    <AccountSettingsLayout user={user} current={APPS_PATH}>
      <h1 className="text-2xl font-semibold">App policy</h1>
      <p className="mt-2 mb-6 max-w-prose text-sm text-slate-600">
        Which third-party apps and assistants people of {name} may connect (OAuth), and the most each may do. Every
        change applies to the next request of every app.
      </p>
      <section aria-labelledby="policy-heading">
        <h2 id="policy-heading" className="mb-3 text-lg font-semibold">
          Policy
        </h2>
        <form action={savePolicyAction} className="space-y-3 rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
          <fieldset className="space-y-1 text-sm">
            <legend className="font-medium">Apps people may connect</legend>
            <label className="block">
              <input type="radio" name="apps" value="any" defaultChecked={!policy.onlyListedApps} /> Any app (apps the
              firm has not listed are marked unverified)
            </label>
            <label className="block">
              <input type="radio" name="apps" value="listed" defaultChecked={policy.onlyListedApps} /> Only the apps
              listed below
            </label>
          </fieldset>
          <label className="block text-sm">
            <input type="checkbox" name="personal_tokens_at_mcp" defaultChecked={policy.personalTokensAtMcp} /> People
            may use their personal API tokens with assistants (at /api/mcp)
          </label>
          <button type="submit" className={primaryButton}>
            Save policy
          </button>
        </form>
      </section>
      <section aria-labelledby="listed-heading" className="mt-8 space-y-3">
        <h2 id="listed-heading" className="text-lg font-semibold">
          Listed apps
        </h2>
        {listed.length === 0 ? (
          <p className="text-sm text-slate-600">No app is listed.</p>
        ) : (
          <ul
            aria-label="Listed apps"
            className="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white"
          >
            {listed.map((app) => (
              <li key={app.clientId} className="grid grid-cols-[minmax(0,1fr)_auto] items-start gap-4 p-4">
                <div className="min-w-0 text-sm">
                  <h3 className="font-medium break-words">{app.name}</h3>
                  <p className="break-all text-slate-500">{app.clientId}</p>
                  <p className="text-slate-600">At most: {accessSummary(app.cap)}</p>
                </div>
                <form action={unlistAppAction}>
                  <input type="hidden" name="client_id" value={app.clientId} />
                  <button type="submit" className={secondaryButton} aria-label={`Remove ${app.name} from the list`}>
                    Remove
                  </button>
                </form>
              </li>
            ))}
          </ul>
        )}
        <ListAppForm />
      </section>
      <section aria-labelledby="registered-heading" className="mt-8 space-y-3">
        <h2 id="registered-heading" className="text-lg font-semibold">
          Registered apps
        </h2>
        <p className="max-w-prose text-sm text-slate-600">
          Apps made for this firm (an in-house integration): only its people may connect them. Others connect with their
          own client metadata document or register themselves.
        </p>
        {clients.length > 0 && (
          <ul
            aria-label="Registered apps"
            className="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white"
          >
            {clients.map((client) => (
              <li key={client.id} className="grid grid-cols-[minmax(0,1fr)_auto] items-start gap-4 p-4">
                <div className="min-w-0 text-sm">
                  <h3 className="font-medium break-words">
                    {client.name}{" "}
                    <span className="text-slate-500">({client.secretHash ? "confidential" : "public"})</span>
                  </h3>
                  <p className="break-all text-slate-500">{client.id}</p>
                  <p className="break-all text-slate-600">{client.redirectUris.join(" · ")}</p>
                </div>
                <ConfirmButton
                  label="Delete"
                  accessibleLabel={`Delete ${client.name}`}
                  title={`Delete ${client.name}?`}
                  confirmLabel="Delete"
                  pendingLabel="Deleting…"
                  fields={{ client_id: client.id }}
                  action={deleteAppAction}
                >
                  Everyone’s connection to {client.name} ends at once, and it can no longer get tokens.
                </ConfirmButton>
              </li>
            ))}
          </ul>
        )}
        <RegisterAppForm />
      </section>
    </AccountSettingsLayout>
  );
}

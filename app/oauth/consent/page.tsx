// The consent page (docs/oauth.md): what the app asks, in the token page's words, lowered to what the person's role
// allows and capped by the firm's policy; the person may lower it further and choose an expiry. The form posts to
// /oauth/authorize with an anti-forgery value bound to this person and request; the page is never framed
// (proxy.ts's frame-ancestors 'none' and X-Frame-Options: DENY).
import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { ConsentForm } from "@/components/oauth/consent-form";
import { signInPath } from "@/lib/auth/callback-url";
import { signedInUser } from "@/lib/auth/session";
import { consentPage } from "@/lib/oauth/pages";
import { OAUTH_CONSENT_PATH } from "@/lib/paths";

export const metadata: Metadata = { title: "Connect an app · Client, Job and Time Tracking" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export default async function ConsentPage({ searchParams }: { searchParams: SearchParams }) {
  const params = await searchParams;
  const sealed = typeof params.request === "string" ? params.request : "";
  const user = await signedInUser();
  if (!user) redirect(signInPath(`${OAUTH_CONSENT_PATH}?${new URLSearchParams({ request: sealed })}`));
  const consent = await consentPage(user, sealed, params.firm);
  if (!consent)
    return (
      <Shell>
        <h1 className="text-2xl font-semibold">This request has expired</h1>
        <p className="mt-2 text-slate-700">Start again from the app you were connecting.</p>
      </Shell>
    );
  const { request, app, options, chosen, offline, csrf } = consent;
  return (
    <Shell>
      <ConsentForm
        sealed={sealed}
        csrf={csrf}
        appName={app.name}
        clientId={app.id}
        redirectUri={request.redirectUri}
        audience={request.audience}
        offline={offline}
        firms={options.map(({ tenantId, tenantName }) => ({ tenantId, tenantName }))}
        chosen={chosen}
        email={user.email}
      />
    </Shell>
  );
}

function Shell({ children }: { children: React.ReactNode }) {
  return (
    <main id="content" className="mx-auto max-w-xl px-4 py-10">
      {children}
    </main>
  );
}

import type { Metadata } from "next";
import { AccountSettingsLayout } from "@/components/account-settings-layout";
import { DeletionsProvider } from "@/components/api-tokens/deletions";
import { NewTokenForm } from "@/components/api-tokens/new-token-form";
import { TokenList } from "@/components/api-tokens/token-list";
import { requireSignedInUser } from "@/lib/auth/session";
import { API_TOKENS_PATH } from "@/lib/paths";
import { tokensPage } from "@/lib/tokens/settings";

export const metadata: Metadata = { title: "API tokens · Client, Job and Time Tracking" };

export default async function ApiTokensPage() {
  const user = await requireSignedInUser(API_TOKENS_PATH);
  const { own: tokens, firm: firmTokens } = await tokensPage(user);
  return (
    <AccountSettingsLayout user={user} current={API_TOKENS_PATH}>
      <h1 className="text-2xl font-semibold">API tokens</h1>
      <p className="mt-2 mb-6 max-w-prose text-sm text-slate-600">
        A token lets a script or another tool call the API as you, with your role and access. Send it in a header:{" "}
        <code className="rounded bg-slate-200 px-1 py-0.5 text-xs whitespace-nowrap">
          Authorization: Bearer &lt;token&gt;
        </code>
        . Give it only the access it needs (it never does more than your role allows); delete one to revoke it at once.
      </p>
      <DeletionsProvider>
        <NewTokenForm />
        <section aria-labelledby="your-tokens-heading" className="mt-8">
          <h2 id="your-tokens-heading" tabIndex={-1} className="mb-3 text-lg font-semibold focus:outline-none">
            Your tokens
          </h2>
          <TokenList tokens={tokens} timezone={user.timezone} />
        </section>
        {firmTokens && (
          <section aria-labelledby="firm-tokens-heading" className="mt-8">
            <h2 id="firm-tokens-heading" tabIndex={-1} className="text-lg font-semibold focus:outline-none">
              Firm tokens
            </h2>
            <p className="mt-1 mb-3 max-w-prose text-sm text-slate-600">
              Every token of everyone in the firm. Revoke one that should no longer work, for example of someone who
              left.
            </p>
            <TokenList tokens={firmTokens} timezone={user.timezone} firm />
          </section>
        )}
      </DeletionsProvider>
    </AccountSettingsLayout>
  );
}

import Link from "next/link";
import { SiteHeader } from "@/components/site-header";
import { primaryButton, secondaryButton } from "@/components/styles";
import { signedInUser } from "@/lib/auth/session";
import { API_TOKENS_PATH } from "@/lib/paths";

export default async function Home() {
  return (
    <>
      <SiteHeader user={await signedInUser()} />
      <main className="mx-auto max-w-4xl px-4 py-16">
        <h1 className="text-2xl font-semibold">Client, Job and Time Tracking</h1>
        <p className="mt-4 max-w-2xl text-slate-600">
          A JSON API for clients, contacts, jobs, users and time logs, at <code>/api/v1</code>. Create a personal access
          token to call it.
        </p>
        <div className="mt-6 flex flex-wrap gap-3">
          <Link href={API_TOKENS_PATH} className={primaryButton}>
            Manage API tokens
          </Link>
          {/* /docs is a route handler's HTML page: nothing to prefetch, the router loads it as a full page. */}
          <Link href="/docs" prefetch={false} className={secondaryButton}>
            API reference
          </Link>
        </div>
      </main>
    </>
  );
}

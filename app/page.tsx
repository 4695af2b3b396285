import Link from "next/link";
import { primaryButton, secondaryButton } from "@/components/styles";

export default function Home() {
  return (
    <main className="mx-auto max-w-2xl px-6 py-16">
      <h1 className="text-2xl font-semibold">Client, Job and Time Tracking</h1>
      <p className="mt-4 text-slate-600">
        A JSON API for clients, contacts, jobs, users and time logs, at <code>/api/v1</code>. Create a personal access
        token to call it.
      </p>
      <div className="mt-6 flex flex-wrap gap-3">
        <Link href="/settings/api-tokens" className={primaryButton}>
          Manage API tokens
        </Link>
        {/* /docs is a route handler's HTML page: nothing to prefetch, the router loads it as a full page. */}
        <Link href="/docs" prefetch={false} className={secondaryButton}>
          API reference
        </Link>
      </div>
    </main>
  );
}

import Link from "next/link";

export default function Home() {
  return (
    <main className="mx-auto max-w-2xl px-6 py-16">
      <h1 className="text-2xl font-semibold">Client, Job and Time Tracking</h1>
      <p className="mt-4 text-slate-600">
        A JSON API for clients, contacts, jobs, users and time logs, at <code>/api/v1</code>. Create a personal access
        token to call it.
      </p>
      <Link href="/settings/api-tokens" className="mt-6 inline-block rounded bg-slate-900 px-4 py-2 text-white focus:outline-none focus-visible:ring-2 focus-visible:ring-offset-2 focus-visible:ring-slate-900">
        Manage API tokens
      </Link>
    </main>
  );
}

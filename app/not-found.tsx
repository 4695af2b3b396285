import type { Metadata } from "next";
import Link from "next/link";
import { SiteHeader } from "@/components/site-header";
import { primaryButton, secondaryButton } from "@/components/styles";
import { signedInUser } from "@/lib/auth/session";

export const metadata: Metadata = { title: "Page not found · Client, Job and Time Tracking" };

/**
 * Every page that is not there, or that the person's role may not use (lib/settings-pages.ts answers those with
 * notFound(), so as not to confirm they exist): a way back instead of Next's bare 404, under the usual header.
 */
export default async function NotFound() {
  return (
    <>
      <SiteHeader user={await signedInUser()} />
      <main className="mx-auto max-w-4xl px-4 py-16">
        <h1 className="text-2xl font-semibold">Page not found</h1>
        <p className="mt-4 max-w-2xl text-slate-600">
          There is no page at this address, or it is not one your role may open. The link may be old or mistyped.
        </p>
        <nav aria-label="Ways back" className="mt-6 flex flex-wrap gap-3">
          <Link href="/settings" className={primaryButton}>
            Account settings
          </Link>
          <Link href="/" className={secondaryButton}>
            Home
          </Link>
          {/* /docs is a route handler's HTML page: nothing to prefetch. */}
          <Link href="/docs" prefetch={false} className={secondaryButton}>
            API reference
          </Link>
        </nav>
      </main>
    </>
  );
}

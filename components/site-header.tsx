import Link from "next/link";
import type { SignedInUser } from "@/lib/auth/session";
import { SIGN_IN_PATH } from "@/lib/paths";
import { SignOutButton } from "./sign-out-button";
import { focusRing, secondaryButton } from "./styles";

/**
 * The bar at the top of every page but sign-in's own: the product's name (home), and who is signed in with Sign out,
 * or Sign in for a visitor.
 */
export function SiteHeader({ user }: { user: SignedInUser | null }) {
  return (
    <header className="border-b border-slate-200 bg-white">
      <div className="mx-auto flex max-w-4xl flex-wrap items-center justify-between gap-3 px-4 py-3">
        <Link href="/" className={`rounded font-semibold text-slate-900 hover:text-slate-600 ${focusRing}`}>
          Client, Job and Time Tracking
        </Link>
        <div className="flex flex-wrap items-center gap-3 text-sm">
          {user ? (
            <>
              <span className="text-slate-600">
                Signed in as <span className="font-medium break-all text-slate-900">{user.email}</span>
              </span>
              <SignOutButton />
            </>
          ) : (
            <Link href={SIGN_IN_PATH} className={secondaryButton}>
              Sign in
            </Link>
          )}
        </div>
      </div>
    </header>
  );
}

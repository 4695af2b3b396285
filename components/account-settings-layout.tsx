import Link from "next/link";
import type { SignedInUser } from "@/lib/auth/session";
import { settingsPagesFor } from "@/lib/settings-pages";
import { SiteHeader } from "./site-header";
import { focusRing } from "./styles";

/** The frame of every account settings page: who is signed in, sign out, and the settings sections. */
export async function AccountSettingsLayout({
  user,
  current,
  children,
}: {
  user: SignedInUser;
  current: string;
  children: React.ReactNode;
}) {
  const sections = await settingsPagesFor(user); // only the pages the person's role may use
  return (
    <>
      <a
        href="#content"
        className="sr-only rounded bg-white px-3 py-2 focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:ring-2 focus:ring-slate-900"
      >
        Skip to content
      </a>
      <SiteHeader user={user} />
      <div className="mx-auto max-w-4xl px-4 py-8 md:grid md:grid-cols-[11rem_1fr] md:gap-10">
        <nav aria-label="Account settings" className="mb-6 md:mb-0">
          <p className="mb-2 text-xs font-semibold tracking-wide text-slate-500 uppercase">Account settings</p>
          <ul className="flex flex-wrap gap-2 md:flex-col">
            {sections.map((section) => (
              <li key={section.href}>
                <Link
                  href={section.href}
                  aria-current={section.href === current ? "page" : undefined}
                  className={`block rounded-md px-3 py-2 text-sm font-medium text-slate-700 hover:bg-slate-200 aria-[current=page]:bg-slate-200 aria-[current=page]:text-slate-900 ${focusRing}`}
                >
                  {section.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <main id="content" className="min-w-0">
          {children}
        </main>
      </div>
    </>
  );
}

import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { AccountSettingsLayout } from "@/components/account-settings-layout";
import { AuditFiltersForm } from "@/components/audit/audit-filters";
import { AuditList } from "@/components/audit/audit-list";
import { secondaryButton } from "@/components/styles";
import { listAuditEvents } from "@/lib/audit/queries";
import { serializeAuditEvent } from "@/lib/audit/serialize";
import {
  auditNames,
  auditReader,
  filtersQuery,
  firmPeople,
  parseAuditFilters,
  type SearchParams,
  typedFilters,
} from "@/lib/audit/settings";
import { ApiError } from "@/lib/core/errors";
import { AUDIT_PATH } from "@/lib/paths";
import { requireSettingsPage } from "@/lib/settings-pages";

export const metadata: Metadata = { title: "Audit log · Client, Job and Time Tracking" };

const PAGE_SIZE = 50;

/** A cursor this person's page link no longer fits (other filters, or not theirs): no page, and a word about it. */
function staleCursor(error: unknown): null {
  if (error instanceof ApiError && error.status === 422) return null;
  throw error;
}

/** For Owners and Admins (`audit.read`); anyone else gets the 404 page (lib/settings-pages.ts). */
export default async function AuditPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const user = await requireSettingsPage(AUDIT_PATH);
  const reader = await auditReader(user);
  if (!reader) notFound(); // the role changed since requireSettingsPage read it
  const params = await searchParams;
  const parsed = parseAuditFilters(params, user.timezone);
  const filters = parsed.errors ? {} : parsed.filters;
  const cursor = typeof params.cursor === "string" ? params.cursor : "";
  const [people, page] = await Promise.all([
    firmPeople(reader),
    parsed.errors ? null : listAuditEvents(reader, { ...filters, cursor, limit: PAGE_SIZE }).catch(staleCursor),
  ]);
  const events = page ? page.rows.map(serializeAuditEvent) : [];
  return (
    <AccountSettingsLayout user={user} current={AUDIT_PATH}>
      <h1 className="text-2xl font-semibold">Audit log</h1>
      <p className="mt-2 mb-6 max-w-prose text-sm text-slate-600">
        Who changed what in your firm, when, and how: through the API (with which token), on these pages, or from the
        command line; and every sign-in. Entries cannot be changed or removed; they are kept for 400 days unless your
        operator set another period.
      </p>
      <AuditFiltersForm
        filters={filters}
        timezone={user.timezone}
        people={people}
        errors={parsed.errors}
        typed={parsed.errors ? typedFilters(params) : undefined}
      />
      <section aria-labelledby="entries-heading" className="mt-8">
        <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
          <h2 id="entries-heading" className="text-lg font-semibold">
            Entries
          </h2>
          {!parsed.errors && (
            <a href={`${AUDIT_PATH}/download?${filtersQuery(filters)}`} className={secondaryButton} download>
              Download CSV
            </a>
          )}
        </div>
        {page ? (
          <AuditList events={events} names={await auditNames(reader, events)} timezone={user.timezone} />
        ) : (
          <p role="status" className="text-sm text-red-700">
            {parsed.errors
              ? "Correct the filters above."
              : "That page link no longer works: start again from the newest."}
          </p>
        )}
        <nav aria-label="Pages" className="mt-4 flex gap-2">
          {cursor && (
            <Link href={`${AUDIT_PATH}?${filtersQuery(filters)}`} className={secondaryButton}>
              Newest
            </Link>
          )}
          {page?.nextCursor && (
            <Link
              href={`${AUDIT_PATH}?${filtersQuery(filters, { cursor: page.nextCursor })}`}
              className={secondaryButton}
            >
              Older entries
            </Link>
          )}
        </nav>
      </section>
    </AccountSettingsLayout>
  );
}

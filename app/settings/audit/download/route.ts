// The audit page's CSV download: the entries its filters select, every page of them, for the signed-in Owner or
// Admin (the same 404 as the page for anyone else). Cells a spreadsheet could run as formulas are defused
// (lib/audit/serialize.ts).
import { notFound } from "next/navigation";
import { allAuditEvents } from "@/lib/audit/queries";
import { auditCsvRow, CSV_COLUMNS, serializeAuditEvent } from "@/lib/audit/serialize";
import { auditReader, parseAuditFilters } from "@/lib/audit/settings";
import { AUDIT_PATH } from "@/lib/paths";
import { requireSettingsPage } from "@/lib/settings-pages";

export const dynamic = "force-dynamic";

export async function GET(request: Request) {
  const user = await requireSettingsPage(AUDIT_PATH);
  const reader = await auditReader(user);
  if (!reader) notFound(); // the role changed since requireSettingsPage read it
  const parsed = parseAuditFilters(Object.fromEntries(new URL(request.url).searchParams), user.timezone);
  if (parsed.errors)
    return new Response(
      Object.entries(parsed.errors)
        .map(([field, messages]) => `${field}: ${messages.join(" ")}`)
        .join("\n"),
      { status: 422, headers: { "Content-Type": "text/plain; charset=utf-8" } },
    );
  const encoder = new TextEncoder();
  const rows = allAuditEvents(reader, parsed.filters);
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(`${CSV_COLUMNS.join(",")}\r\n`));
    },
    async pull(controller) {
      const next = await rows.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(auditCsvRow(serializeAuditEvent(next.value))));
    },
  });
  const day = new Date().toISOString().slice(0, 10);
  return new Response(body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="audit-log-${day}.csv"`,
      "Cache-Control": "no-store",
    },
  });
}

import Link from "next/link";
import { auditReader } from "@/lib/audit/settings";
import type { SignedInUser } from "@/lib/auth/session";
import { AUDIT_PATH } from "@/lib/paths";
import { focusRing } from "../styles";

/** The settings navigation's Audit log link: only for those whose role has audit.read. */
export async function AuditNavItem({ user, current }: { user: SignedInUser; current: string }) {
  if (!(await auditReader(user))) return null;
  return (
    <li>
      <Link
        href={AUDIT_PATH}
        aria-current={current === AUDIT_PATH ? "page" : undefined}
        className={`block rounded-md px-3 py-2 text-sm font-medium text-slate-700 hover:bg-slate-200 aria-[current=page]:bg-slate-200 aria-[current=page]:text-slate-900 ${focusRing}`}
      >
        Audit log
      </Link>
    </li>
  );
}

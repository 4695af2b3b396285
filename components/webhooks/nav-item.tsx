import Link from "next/link";
import type { SignedInUser } from "@/lib/auth/session";
import { WEBHOOKS_PATH } from "@/lib/paths";
import { webhookManager } from "@/lib/webhooks/settings";
import { focusRing } from "../styles";

/** The settings navigation's Webhooks link: only for those whose role has webhooks.manage. */
export async function WebhooksNavItem({ user, current }: { user: SignedInUser; current: string }) {
  if (!(await webhookManager(user))) return null;
  return (
    <li>
      <Link
        href={WEBHOOKS_PATH}
        aria-current={current === WEBHOOKS_PATH ? "page" : undefined}
        className={`block rounded-md px-3 py-2 text-sm font-medium text-slate-700 hover:bg-slate-200 aria-[current=page]:bg-slate-200 aria-[current=page]:text-slate-900 ${focusRing}`}
      >
        Webhooks
      </Link>
    </li>
  );
}

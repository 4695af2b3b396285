"use server";
// The connected-apps page's mutations. The person comes from the session, never from the form; lib/oauth/pages.ts
// decides what they may touch (their own grants; every grant of the firm only with tokens.manage_all).
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { requireSignedInUser } from "@/lib/auth/session";
import { lowerOwnGrant, revokeFirmGrant, revokeOwnGrant } from "@/lib/oauth/pages";
import { CONNECTED_APPS_PATH } from "@/lib/paths";
import { TOKEN_RESOURCES, tokenAccessSchema } from "@/lib/tokens/access";

const grantIdSchema = z.coerce
  .number()
  .int()
  .positive()
  .max(2 ** 31 - 1);

async function withGrant(form: FormData, work: (user: { tenantId: number; userId: number }, id: number) => unknown) {
  const user = await requireSignedInUser(CONNECTED_APPS_PATH);
  const id = grantIdSchema.safeParse(form.get("id"));
  if (id.success) await work(user, id.data);
  revalidatePath(CONNECTED_APPS_PATH);
}

export async function revokeOwnGrantAction(form: FormData): Promise<void> {
  await withGrant(form, revokeOwnGrant);
}

export async function revokeFirmGrantAction(form: FormData): Promise<void> {
  await withGrant(form, revokeFirmGrant);
}

/** Lowers one of the person's grants to the levels chosen (a level above the grant's is refused, unchanged). */
export async function lowerGrantAction(form: FormData): Promise<void> {
  await withGrant(form, async (user, id) => {
    const access = tokenAccessSchema.safeParse(
      Object.fromEntries(TOKEN_RESOURCES.map((r) => [r, form.get(`access.${r}`)])),
    );
    if (access.success) await lowerOwnGrant(user, id, access.data);
  });
}

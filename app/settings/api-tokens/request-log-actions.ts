"use server";
// The request log of one token on the tokens page (components/api-tokens/request-log.tsx). The person comes from the
// session; lib/request-log/settings.ts decides whether they may see that token's requests.
import { z } from "zod";
import { requireSignedInUser } from "@/lib/auth/session";
import { API_TOKENS_PATH } from "@/lib/paths";
import { STATUS_CLASSES } from "@/lib/request-log/schemas";
import { tokenRequestsForPage } from "@/lib/request-log/settings";

const tokenIdSchema = z
  .number()
  .int()
  .positive()
  .max(2 ** 31 - 1);
const filterSchema = z.enum(STATUS_CLASSES).optional();

export async function loadTokenRequests(tokenId: number, statusClass: string | undefined) {
  const user = await requireSignedInUser(API_TOKENS_PATH);
  const id = tokenIdSchema.safeParse(tokenId);
  const filter = filterSchema.safeParse(statusClass || undefined);
  if (!id.success || !filter.success) return null;
  return tokenRequestsForPage(user, id.data, filter.data);
}

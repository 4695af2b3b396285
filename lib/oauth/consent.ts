// What the consent page offers and what its answer may choose: per firm the person belongs to (by email), whether the
// firm lets this app connect, and the access asked, each level lowered to the person's role there and capped by the
// firm's policy for the app. The answer is judged against the same offer, so a forged form cannot ask for more.
import { permissionsOf } from "@/lib/auth/permissions";
import type { PrismaClient } from "@/lib/generated/prisma/client";
import { FULL_ACCESS, intersectAccess, roleCeiling, type TokenAccess, tokenAccessSchema } from "@/lib/tokens/access";
import type { AuthorizationRequest } from "./authorize";
import type { AppClient } from "./clients";
import { parseScope } from "./scopes";

export interface FirmOption {
  tenantId: number;
  tenantName: string;
  userId: number;
  /** Why the firm does not let this app connect, or null when it does. */
  refusal: string | null;
  /** The firm listed this app: shown as verified. */
  listed: boolean;
  /** The most this person may grant the app here. */
  offered: TokenAccess;
}

/**
 * The firms the signed-in person may connect the app in: the one signed in to, and the others where the same email is
 * an active member with a password (a person the product already treats as the same one: sign-in picks among them by
 * the password). An app a firm registered is offered in that firm only.
 */
export async function firmOptions(
  client: PrismaClient,
  signedIn: { tenantId: number; userId: number; email: string },
  app: AppClient,
  request: AuthorizationRequest,
): Promise<FirmOption[]> {
  const asked = parseScope(request.scope)?.access ?? FULL_ACCESS;
  const people = await client.user.findMany({
    where: {
      email: signedIn.email,
      archivedDate: null,
      OR: [{ tenantId: signedIn.tenantId, id: signedIn.userId }, { passwordHash: { not: null } }],
      ...(app.tenantId !== null ? { tenantId: app.tenantId } : {}),
    },
    select: {
      id: true,
      tenantId: true,
      isOwner: true,
      role: { select: { permissions: true } },
      tenant: {
        select: {
          name: true,
          onlyListedApps: true,
          oauthFirmApps: { where: { clientId: app.id }, select: { accessCap: true } },
        },
      },
    },
    orderBy: [{ tenantId: "asc" }],
  });
  const options = people.map((person): FirmOption => {
    const listing = person.tenant.oauthFirmApps[0];
    const cap = listing ? tokenAccessSchema.parse(listing.accessCap) : FULL_ACCESS;
    const ceiling = roleCeiling(permissionsOf(person, person.role));
    return {
      tenantId: person.tenantId,
      tenantName: person.tenant.name,
      userId: person.id,
      refusal:
        person.tenant.onlyListedApps && !listing
          ? `${person.tenant.name} allows only the apps it has listed, and this app is not one of them.`
          : null,
      listed: !!listing || app.tenantId === person.tenantId,
      offered: intersectAccess(intersectAccess(asked, ceiling), cap),
    };
  });
  // The firm signed in to first.
  return options.sort((a, b) => Number(b.tenantId === signedIn.tenantId) - Number(a.tenantId === signedIn.tenantId));
}

/** Whether refresh tokens were asked for. */
export const asksOffline = (request: AuthorizationRequest) => parseScope(request.scope)?.offline ?? false;

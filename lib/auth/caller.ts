// Who is calling: the token's user, its role and tenant, and the tenant-scoped database every query goes through.
// lib/api/authenticate.ts builds it from a bearer token; every read and write of a resource takes it.
import type { Permission } from "@/lib/auth/permissions";
import type { TenantDb } from "@/lib/db/tenant";
import type { ClientAccess } from "@/lib/generated/prisma/enums";
import type { TokenAccess } from "@/lib/tokens/access";

export interface Caller {
  tenant: { id: number; name: string; timezone: string };
  user: {
    id: number;
    firstname: string;
    lastname: string;
    email: string;
    timezone: string;
    clientAccess: ClientAccess;
    isOwner: boolean;
  };
  roleName: string;
  permissions: ReadonlySet<Permission>;
  tokenId: number;
  /** The token's name as its owner gave it (for the audit log). */
  tokenName: string;
  /** The client's address where a trusted proxy tells it (lib/client-address.ts), else null. */
  address: string | null;
  /** What the token may touch per resource (lib/tokens/access.ts), checked by lib/api/route.ts before the role. */
  tokenAccess: TokenAccess;
  /** Set when the token is an app's (lib/oauth): the app acts for the user, and the audit log names it. */
  app?: { clientId: string; name: string; accessExpiresAt: Date };
  /** Set when an MCP tool made the request (lib/mcp): the audit log says so, and names the tool. */
  channel?: { via: "mcp"; tool: string };
  db: TenantDb;
}

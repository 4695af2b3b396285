// The session carries the signed-in person's tenant and user ids and session version (set in lib/auth/options.ts).
import type { DefaultSession } from "next-auth";

declare module "next-auth" {
  interface Session {
    user: { tenantId: number; userId: number; sessionVersion: number } & DefaultSession["user"];
  }
  interface User {
    tenantId: number;
    userId: number;
    sessionVersion: number;
  }
}

declare module "next-auth/jwt" {
  interface JWT {
    tenantId?: number;
    userId?: number;
    sessionVersion?: number;
  }
}

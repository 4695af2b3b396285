// next-auth configuration: email and password sign-in (Credentials provider) with JWT sessions, no database
// sessions. The JWT carries the tenant and user ids and the user's session version; lib/auth/session.ts turns it back
// into a person, and only while that version is the user's current one.
//
// Cross-site request forgery: next-auth requires its double-submit CSRF token (cookie plus form field) on the
// sign-in and sign-out POSTs, and its session cookie is SameSite=Lax, so another site cannot sign anyone in or out
// or send the cookie along with a cross-site POST.
import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { SIGN_IN_PATH } from "@/lib/paths";
import { endSessions, sessionIsCurrent } from "./account";
import { authorizeSignIn } from "./sign-in";

// Outside production (`next dev`) a fixed secret keeps sign-in working with no setup; it signs nothing
// that matters. In production next-auth refuses to start a session without NEXTAUTH_SECRET.
const DEVELOPMENT_SECRET = "development-only-secret-not-for-production";

export const authOptions: NextAuthOptions = {
  secret: process.env.NEXTAUTH_SECRET ?? (process.env.NODE_ENV === "production" ? undefined : DEVELOPMENT_SECRET),
  session: { strategy: "jwt", maxAge: 8 * 60 * 60 },
  pages: { signIn: SIGN_IN_PATH, error: SIGN_IN_PATH },
  providers: [
    CredentialsProvider({
      name: "Email and password",
      credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
      async authorize(credentials, request) {
        const identity = await authorizeSignIn(credentials, request.headers);
        return identity && { id: `${identity.tenantId}:${identity.userId}`, ...identity };
      },
    }),
  ],
  callbacks: {
    jwt({ token, user }) {
      // `user` is present only on the sign-in request itself.
      if (user) {
        token.tenantId = user.tenantId;
        token.userId = user.userId;
        token.sessionVersion = user.sessionVersion;
      }
      return token;
    },
    // Also what /api/auth/session answers: an ended session (signed out, password changed, user archived) is no
    // session there either, as on the pages (lib/auth/session.ts). next-auth answers `{}` for "no session".
    async session({ session, token }) {
      if (!token.tenantId || !token.userId || token.sessionVersion === undefined) return session;
      const { tenantId, userId, sessionVersion } = token;
      if (!(await sessionIsCurrent({ tenantId, userId }, sessionVersion))) return {} as typeof session;
      session.user = { ...session.user, tenantId, userId, sessionVersion };
      return session;
    },
  },
  events: {
    // A JWT cannot be revoked: signing out bumps the user's session version, so that this cookie, any copy of it and
    // the person's other sessions stop being accepted (lib/auth/session.ts compares versions on every request).
    async signOut({ token }) {
      if (token?.tenantId && token.userId && token.sessionVersion !== undefined) {
        await endSessions({ tenantId: token.tenantId, userId: token.userId }, token.sessionVersion);
      }
    },
  },
};

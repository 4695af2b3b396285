// next-auth's endpoints (/api/auth/signin, /callback/credentials, /session, /csrf, /signout).
import NextAuth from "next-auth";
import { authOptions } from "@/lib/auth/options";
import { SIGN_IN_FAILED } from "@/lib/auth/sign-in-errors";
import { newNonce, pageSecurityHeaders } from "@/lib/http/security-headers";
import { SIGN_IN_PATH } from "@/lib/paths";

const handler = NextAuth(authOptions);

type Context = { params: Promise<{ nextauth: string[] }> };

/**
 * Sets the page headers: some of next-auth's answers are its own HTML pages (/signout, /verify-request), which
 * proxy.ts does not reach under /api (decisions.md, "Security": every HTML answer carries them).
 */
function withPageHeaders(request: Request, response: Response): Response {
  for (const [name, value] of Object.entries(pageSecurityHeaders(newNonce(), request.headers))) {
    response.headers.set(name, value);
  }
  return response;
}

export async function GET(request: Request, context: Context) {
  const { nextauth } = await context.params;
  if (nextauth.join("/") === "callback/credentials") {
    // The credentials callback is a form POST; next-auth answers a GET with a text 500. Back to the sign-in form.
    const signIn = new URL(SIGN_IN_PATH, request.url);
    signIn.searchParams.set("error", SIGN_IN_FAILED);
    return withPageHeaders(request, new Response(null, { status: 303, headers: { Location: signIn.href } }));
  }
  return withPageHeaders(request, await handler(request, context));
}

export async function POST(request: Request, context: Context) {
  return withPageHeaders(request, await handler(request, context));
}

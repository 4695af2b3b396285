// An app's access token (OAuth, issue 52) for the person of a personal token, minted when a run starts since access
// tokens live an hour: the `/me` scenario with it stands beside `/me` with the personal token, in the same run.
import { createHash } from "node:crypto";
import { cliActor } from "@/lib/audit/mutations";
import { closeDatabase, prisma } from "@/lib/db/client";
import { findClient, registerFirmClient } from "@/lib/oauth/clients";
import { grantConsent } from "@/lib/oauth/grants";
import { exchangeCode, issueCode } from "@/lib/oauth/tokens";
import { hashToken } from "@/lib/tokens";
import { FULL_ACCESS } from "@/lib/tokens/access";

const REDIRECT_URI = "https://bench.example/callback";
const VERIFIER = "bench-verifier-bench-verifier-bench-verifier-0000";
const CHALLENGE = createHash("sha256").update(VERIFIER).digest("base64url");

export async function appTokenFor(personalToken: string): Promise<string> {
  try {
    const client = await prisma();
    const owner = await client.apiToken.findFirstOrThrow({ where: { tokenHash: hashToken(personalToken) } });
    const actor = cliActor(owner.tenantId);
    const { clientId } = await registerFirmClient(client, actor, {
      name: "Benchmark app",
      redirectUris: [REDIRECT_URI],
      confidential: false,
    });
    const app = (await findClient(client, clientId))!;
    const grantId = await grantConsent(
      client,
      {
        tenantId: owner.tenantId,
        userId: owner.userId,
        app,
        audience: "api",
        redirectUri: REDIRECT_URI,
        access: FULL_ACCESS,
        offline: false,
        expiresInDays: 1,
      },
      actor,
    );
    const code = await issueCode(
      client,
      { tenantId: owner.tenantId, grantId },
      {
        redirectUri: REDIRECT_URI,
        codeChallenge: CHALLENGE,
      },
    );
    const tokens = await exchangeCode(client, app, {
      code,
      redirectUri: REDIRECT_URI,
      codeVerifier: VERIFIER,
      resource: null,
    });
    return tokens.access_token;
  } finally {
    await closeDatabase();
  }
}

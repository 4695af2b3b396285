// The OAuth rules that need no database (lib/oauth/scopes.ts, lib/oauth/pkce.ts): which scopes exist, the access a
// `scope` parameter asks for and the scope string an access is written as, and the PKCE check of a code's verifier.
// Part of the mutation run (docs/testing.md, Mutation testing): each rule here has a test that fails without it.
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { verifierMatches } from "@/lib/oauth/pkce";
import { OFFLINE_ACCESS, parseScope, SCOPES, scopeOf } from "@/lib/oauth/scopes";
import { FULL_ACCESS, NO_ACCESS, READ_ONLY } from "@/lib/tokens/access";

const challengeOf = (verifier: string) => createHash("sha256").update(verifier).digest("base64url");

describe("scopes", () => {
  it("are each resource's levels above none (users, time logs and audit only read), then offline_access", () => {
    expect(SCOPES).toEqual([
      "clients:read",
      "clients:write",
      "contacts:read",
      "contacts:write",
      "jobs:read",
      "jobs:write",
      "users:read",
      "time_logs:read",
      "webhooks:read",
      "webhooks:write",
      "audit:read",
      "offline_access",
    ]);
    expect(OFFLINE_ACCESS).toBe("offline_access");
  });

  it("no scope at all asks for everything, with refresh tokens", () => {
    expect(parseScope(undefined)).toEqual({ access: FULL_ACCESS, offline: true });
    expect(parseScope(null)).toEqual({ access: FULL_ACCESS, offline: true });
    expect(parseScope("")).toEqual({ access: FULL_ACCESS, offline: true });
    expect(parseScope("  ")).toEqual({ access: FULL_ACCESS, offline: true });
  });

  it("asks for exactly the levels named, and refresh tokens only with offline_access", () => {
    expect(parseScope("jobs:read")).toEqual({ access: { ...NO_ACCESS, jobs: "read" }, offline: false });
    expect(parseScope("jobs:read  clients:write offline_access")).toEqual({
      access: { ...NO_ACCESS, jobs: "read", clients: "write" },
      offline: true,
    });
  });

  it("keeps write when read of the same resource is also named, in either order", () => {
    expect(parseScope("clients:write clients:read")?.access.clients).toBe("write");
    expect(parseScope("clients:read clients:write")?.access.clients).toBe("write");
  });

  it("refuses a scope this server does not have", () => {
    for (const scope of ["jobs:admin", "jobs", "audit:write", "openid", "clients:read email", "CLIENTS:READ"])
      expect(parseScope(scope)).toBeNull();
  });

  it("writes an access back as the scope string it came from, in the resources' order", () => {
    expect(scopeOf(NO_ACCESS, false)).toBe("");
    expect(scopeOf(NO_ACCESS, true)).toBe("offline_access");
    expect(scopeOf({ ...NO_ACCESS, users: "read", clients: "write" }, true)).toBe(
      "clients:write users:read offline_access",
    );
    expect(scopeOf(READ_ONLY, false)).toBe(
      "clients:read contacts:read jobs:read users:read time_logs:read webhooks:read audit:read",
    );
    const scope = "contacts:write jobs:read audit:read offline_access";
    const parsed = parseScope(scope);
    expect(parsed && scopeOf(parsed.access, parsed.offline)).toBe(scope);
  });
});

describe("PKCE (S256)", () => {
  const verifier = "a".repeat(43);

  it("accepts the verifier whose SHA-256 is the challenge, at 43 and at 128 characters of any unreserved kind", () => {
    expect(verifierMatches(verifier, challengeOf(verifier))).toBe(true);
    const long = `${"Az09-._~".repeat(16)}`;
    expect(long).toHaveLength(128);
    expect(verifierMatches(long, challengeOf(long))).toBe(true);
  });

  it("refuses another verifier, the challenge itself sent as the verifier, and a plain challenge", () => {
    expect(verifierMatches("b".repeat(43), challengeOf(verifier))).toBe(false);
    const challenge = challengeOf(verifier);
    expect(verifierMatches(challenge, challenge)).toBe(false);
    expect(verifierMatches(verifier, verifier)).toBe(false);
    expect(verifierMatches(verifier, `${challengeOf(verifier)}=`)).toBe(false);
    expect(verifierMatches(verifier, "")).toBe(false);
  });

  it("refuses a verifier too short, too long or with characters outside the unreserved set, even if it matches", () => {
    for (const bad of [
      "a".repeat(42),
      "a".repeat(129),
      `${"a".repeat(42)}+`,
      `${"a".repeat(42)} `,
      `${"a".repeat(42)}/`,
    ])
      expect(verifierMatches(bad, challengeOf(bad))).toBe(false);
  });
});

import { afterEach, describe, expect, it, vi } from "vitest";
import { pageSecurityHeaders } from "@/lib/http/security-headers";

afterEach(() => {
  vi.unstubAllEnvs();
});

const page = (headers: Record<string, string> = {}) => pageSecurityHeaders("bm9uY2Vub25jZQ==", new Headers(headers));

describe("page security headers", () => {
  it("allow scripts only with the nonce, forbid framing, and leave out HSTS on plain http", () => {
    vi.stubEnv("NEXTAUTH_URL", "http://localhost:3000");
    vi.stubEnv("APP_URL", "");
    vi.stubEnv("TRUST_PROXY", "");
    vi.stubEnv("VERCEL", "");
    const headers = page({ "x-forwarded-proto": "https" }); // a client's claim, with no trusted proxy
    expect(headers["Content-Security-Policy"]).toContain("script-src 'self' 'nonce-bm9uY2Vub25jZQ==' 'strict-dynamic'");
    expect(headers["Content-Security-Policy"]).toContain("frame-ancestors 'none'");
    expect(headers["Content-Security-Policy"]).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(headers["X-Frame-Options"]).toBe("DENY");
    expect(headers["Strict-Transport-Security"]).toBeUndefined();
  });

  it("add HSTS where the public URL is https, or a trusted proxy says the request came over https", () => {
    vi.stubEnv("NEXTAUTH_URL", "https://app.example");
    expect(page()["Strict-Transport-Security"]).toMatch(/^max-age=\d{8,}/);
    expect(page()["Content-Security-Policy"]).toContain("upgrade-insecure-requests");

    vi.stubEnv("NEXTAUTH_URL", "");
    vi.stubEnv("APP_URL", "");
    vi.stubEnv("TRUST_PROXY", "true");
    expect(page({ "x-forwarded-proto": "https" })["Strict-Transport-Security"]).toBeDefined();
    expect(page({ "x-forwarded-proto": "http" })["Strict-Transport-Security"]).toBeUndefined();
  });
});

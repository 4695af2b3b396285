// Links in list answers are on the public origin (decisions.md, Pagination): APP_URL when set; else the request's
// Host; X-Forwarded-Host and -Proto only from a trusted proxy (Vercel, or TRUST_PROXY=true). Never the server's own.
import { afterEach, describe, expect, it, vi } from "vitest";
import * as clients from "@/app/api/v1/clients/route";
import { call, tokenFor } from "../support/api";

const firstLink = async (headers: Record<string, string>) => {
  const res = await call(clients, "GET", "clients?limit=2&sort_by=name", {
    token: await tokenFor("owner@acme.test"),
    headers,
  });
  expect(res.status).toBe(200);
  return res.body.links.first as string;
};

afterEach(() => vi.unstubAllEnvs());

describe("list links", () => {
  it("use the Host the caller used", async () => {
    expect(await firstLink({ Host: "api.example.com" })).toBe(
      "http://api.example.com/api/v1/clients?limit=2&sort_by=name&page=1",
    );
  });

  it("ignore X-Forwarded-Host and -Proto without a trusted proxy", async () => {
    vi.stubEnv("TRUST_PROXY", "");
    vi.stubEnv("VERCEL", "");
    const link = await firstLink({
      Host: "api.example.com",
      "X-Forwarded-Host": "evil.test",
      "X-Forwarded-Proto": "https",
    });
    expect(link).toBe("http://api.example.com/api/v1/clients?limit=2&sort_by=name&page=1");
  });

  it("follow X-Forwarded-Host and -Proto behind a trusted proxy", async () => {
    vi.stubEnv("TRUST_PROXY", "true");
    const link = await firstLink({
      Host: "10.0.0.5:3000",
      "X-Forwarded-Host": "api.example.com",
      "X-Forwarded-Proto": "https",
    });
    expect(link).toBe("https://api.example.com/api/v1/clients?limit=2&sort_by=name&page=1");
  });

  it("use APP_URL over any header", async () => {
    vi.stubEnv("APP_URL", "https://jobs.harper.example");
    expect(await firstLink({ Host: "api.example.com" })).toBe(
      "https://jobs.harper.example/api/v1/clients?limit=2&sort_by=name&page=1",
    );
  });

  it("keep the request's own origin for a Host that is not a host", async () => {
    expect(await firstLink({ Host: "evil.test/path?x=" })).toBe(
      "http://localhost/api/v1/clients?limit=2&sort_by=name&page=1",
    );
  });
});

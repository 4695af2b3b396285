import { describe, expect, it } from "vitest";
import { safeCallbackUrl, signInPath } from "@/lib/auth/callback-url";

describe("the page to return to after signing in", () => {
  it.each([
    ["/settings/api-tokens", "/settings/api-tokens"],
    ["/settings/api-tokens?tab=new#top", "/settings/api-tokens?tab=new#top"],
    ["/", "/"],
  ])("keeps a path on this site: %s", (value, expected) => {
    expect(safeCallbackUrl(value)).toBe(expected);
  });

  it.each([
    ["an absolute URL", "https://evil.example/steal"],
    ["a protocol-relative URL", "//evil.example/steal"],
    ["a backslash trick", "/\\evil.example/steal"],
    ["a tab inside the slashes", "/\t/evil.example"],
    ["a dot segment before the slashes", "/.//evil.example"],
    ["dot segments that climb to the slashes", "/a/..//evil.example/steal"],
    ["an encoded dot segment", "/%2e//evil.example"],
    ["a javascript: URL", "javascript:alert(1)"],
    ["a relative path", "settings"],
    ["nothing", undefined],
    ["a repeated parameter", ["/a", "/b"]],
  ])("falls back to the API tokens page for %s", (_, value) => {
    expect(safeCallbackUrl(value)).toBe("/settings/api-tokens");
  });

  it("builds the sign-in link with the page to return to", () => {
    expect(signInPath("/settings/api-tokens")).toBe("/signin?callbackUrl=%2Fsettings%2Fapi-tokens");
  });
});

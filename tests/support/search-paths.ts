// Lets a test choose which way lib/api/search-page.ts pages a search: by sorting the matches alone, or by walking the
// list's ordering index. Both must give the same pages. Use:
// vi.mock("@/lib/db/search-page", async () => (await import("../support/search-paths")).searchPageModule());
import { vi } from "vitest";
import type * as SearchPage from "@/lib/db/search-page";

const override: { maxSorted?: number } = {};

export async function searchPageModule() {
  const actual = await vi.importActual<typeof SearchPage>("@/lib/db/search-page");
  return {
    ...actual,
    searchPage: (...[caller, list, page]: Parameters<typeof actual.searchPage>) =>
      actual.searchPage(caller, { ...list, maxSorted: override.maxSorted ?? list.maxSorted }, page),
  };
}

/** The answers to a request made once with the matches sorted alone and once walking the index. */
export async function bothWays<T>(request: () => Promise<T>): Promise<{ sorted: T; walked: T }> {
  try {
    override.maxSorted = Infinity;
    const sorted = await request();
    override.maxSorted = 0;
    return { sorted, walked: await request() };
  } finally {
    override.maxSorted = undefined;
  }
}

// Lets a test choose which way lib/db/search-page.ts finds a search's page: by sorting the matches, or by walking the
// list's ordering index with the match as a filter. Both must give the same pages. Use:
// vi.mock("@/lib/db/search-page", async () => (await import("../support/search-paths")).searchPageModule());
import { vi } from "vitest";
import type * as SearchPage from "@/lib/db/search-page";

const override: { walk?: boolean } = {};

export async function searchPageModule() {
  const actual = await vi.importActual<typeof SearchPage>("@/lib/db/search-page");
  return {
    ...actual,
    searchPage: (...[caller, list, page, walk]: Parameters<typeof actual.searchPage>) =>
      actual.searchPage(caller, list, page, override.walk ?? walk),
  };
}

/** The answers to a request made once with the matches sorted and once walking the index. */
export async function bothWays<T>(request: () => Promise<T>): Promise<{ sorted: T; walked: T }> {
  try {
    override.walk = false;
    const sorted = await request();
    override.walk = true;
    return { sorted, walked: await request() };
  } finally {
    override.walk = undefined;
  }
}

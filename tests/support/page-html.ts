// What a settings page shows, read from the HTML its server component renders to (react-dom/static waits for every
// async part, as the server does before it sends the page): the text a person reads, the items of a named list and
// the controls they can use.
import type { ReactNode } from "react";
import { prerender } from "react-dom/static";

export async function pageHtml(node: ReactNode): Promise<string> {
  const { prelude } = await prerender(node);
  return new Response(prelude).text();
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', "#x27": "'", nbsp: " " };

/** The text of some HTML as a person reads it: tags dropped, entities decoded, white space collapsed. */
export function textOf(html: string): string {
  return html
    .replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/g, " ")
    .replace(/<[^>]+>/g, " ")
    .replace(/&(#x27|amp|lt|gt|quot|nbsp);/g, (_, name: string) => ENTITIES[name])
    .replace(/\s+/g, " ")
    .trim();
}

/** The items of the list (`ul` or `ol`) with this aria-label, each as its HTML (nested lists stay inside). */
export function listItems(html: string, label: string): string[] {
  const start = html.search(new RegExp(`<(ul|ol)[^>]*aria-label="${label}"`));
  if (start < 0) return [];
  const items: string[] = [];
  let depth = 0;
  let itemStart = 0;
  for (const tag of html.slice(start).matchAll(/<(\/?)(li|ul|ol)\b[^>]*>/g)) {
    const [, closing, name] = tag;
    const at = start + tag.index;
    if (name === "li" && !closing && depth === 1) itemStart = at;
    if (name === "li" && closing && depth === 1) items.push(html.slice(itemStart, at + tag[0].length));
    if (name !== "li") depth += closing ? -1 : 1;
    if (depth === 0) break;
  }
  return items;
}

/** The buttons in some HTML, each by its accessible name (aria-label, else its text). */
export function buttons(html: string): string[] {
  return [...html.matchAll(/<button([^>]*)>([\s\S]*?)<\/button>/g)].map(
    ([, attributes, content]) => /aria-label="([^"]*)"/.exec(attributes)?.[1] ?? textOf(content),
  );
}

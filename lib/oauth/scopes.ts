// Scopes are the token resources one to one (decisions.md): `clients:read`, `clients:write` (write includes read),
// …, `audit:read`, plus `offline_access` for refresh tokens. A grant's access has the personal token's shape
// (lib/tokens/access.ts), so every check of personal tokens applies to apps unchanged.
import { FULL_ACCESS, levelsOf, NO_ACCESS, TOKEN_RESOURCES, type TokenAccess } from "@/lib/tokens/access";

export const OFFLINE_ACCESS = "offline_access";

export const SCOPES: readonly string[] = [
  ...TOKEN_RESOURCES.flatMap((r) =>
    levelsOf(r)
      .filter((level) => level !== "none")
      .map((level) => `${r}:${level}`),
  ),
  OFFLINE_ACCESS,
];

export interface RequestedScope {
  access: TokenAccess;
  /** Whether refresh tokens are asked for. */
  offline: boolean;
}

/**
 * The access a `scope` parameter asks for, or null when it names a scope this server does not have. No scope at all
 * asks for everything (each level then lowered to the person's role and the firm's cap on the consent page), with
 * refresh tokens: what most assistants send.
 */
export function parseScope(scope: string | null | undefined): RequestedScope | null {
  const names = (scope ?? "").split(" ").filter(Boolean);
  if (!names.length) return { access: FULL_ACCESS, offline: true };
  const access = { ...NO_ACCESS };
  let offline = false;
  for (const name of names) {
    if (!SCOPES.includes(name)) return null;
    if (name === OFFLINE_ACCESS) offline = true;
    else {
      const [resource, level] = name.split(":") as [keyof TokenAccess, "read" | "write"];
      if (access[resource] !== "write") access[resource] = level;
    }
  }
  return { access, offline };
}

/** The scope string of an access (space-separated, in the resources' order). */
export function scopeOf(access: TokenAccess, offline: boolean): string {
  const names = TOKEN_RESOURCES.filter((r) => access[r] !== "none").map((r) => `${r}:${access[r]}`);
  return [...names, ...(offline ? [OFFLINE_ACCESS] : [])].join(" ");
}

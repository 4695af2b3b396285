/**
 * The address to print for people (sign-in links, example curl lines): APP_URL or NEXTAUTH_URL when set, else this
 * machine on the port `next start` and `next dev` listen on (PORT, default 3000).
 */
export function printedBaseUrl(): string {
  const configured = process.env.APP_URL || process.env.NEXTAUTH_URL;
  return (configured || `http://localhost:${process.env.PORT || "3000"}`).replace(/\/+$/, "");
}

// What a new token may be given, without anything server-only: the page's form imports it in the browser.
/** Days a new token may live; the page offers these and "no expiry", the CLI accepts any whole number. */
export const TOKEN_EXPIRY_DAYS = [7, 30, 90, 365] as const;

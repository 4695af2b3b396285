// What the sign-in form says for each error code next-auth hands back. Kept free of server code: the form
// (a client component) imports it.

/** Thrown by authorize() when a limit is reached; next-auth passes the message on as the error code. */
export const SIGN_IN_RATE_LIMITED = "RateLimited";

/** Thrown when this instance has all the password checks in flight it can take. */
export const SIGN_IN_BUSY = "Busy";

/** Any other failure (the database out …): the visitor sees this code, never the failure's own text. */
export const SIGN_IN_FAILED = "SignInFailed";

/** One message for an unknown email, a wrong password and an archived user: none of them is revealed. */
export const WRONG_CREDENTIALS_MESSAGE = "That email and password do not match an account. Check both and try again.";

/** Wrong credentials for an email whose attempts now wait: the code carries the next wait, in seconds. */
const WRONG_PASSWORD_WAIT = /^CredentialsSignin:wait=(\d{1,3})$/;
export const wrongPasswordWaitCode = (seconds: number) => `CredentialsSignin:wait=${seconds}`;

/** The seconds the next attempt waits, from an error code that says so; 0 when none does. */
export function nextWaitSeconds(code: string): number {
  const match = WRONG_PASSWORD_WAIT.exec(code);
  return match ? Number(match[1]) : 0;
}

/** Why the next try waits, and how long (decisions.md: once the per-email wait applies the page says so). */
export function waitMessage(seconds: number): string {
  return (
    `Several wrong passwords were typed for this email, so each try now waits before it is checked: the next one ` +
    `${seconds} ${seconds === 1 ? "second" : "seconds"}, and each wrong one doubles the wait, up to 30 seconds. ` +
    "Wrong passwords count for 15 minutes."
  );
}

export function signInErrorMessage(code: string): string {
  if (nextWaitSeconds(code)) return `${WRONG_CREDENTIALS_MESSAGE} ${waitMessage(nextWaitSeconds(code))}`;
  if (code === SIGN_IN_RATE_LIMITED) {
    return "Too many failed sign-in attempts from your network. Wait 15 minutes, then try again.";
  }
  if (code === SIGN_IN_BUSY) return "Signing in is busy right now. Wait a minute, then try again.";
  if (code === "CredentialsSignin") return WRONG_CREDENTIALS_MESSAGE;
  return "Signing in did not work. Please try again.";
}

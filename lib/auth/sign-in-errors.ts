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

export function signInErrorMessage(code: string): string {
  if (code === SIGN_IN_RATE_LIMITED) {
    return "Too many failed sign-in attempts from your network. Wait 15 minutes, then try again.";
  }
  if (code === SIGN_IN_BUSY) return "Signing in is busy right now. Wait a minute, then try again.";
  if (code === "CredentialsSignin") return WRONG_CREDENTIALS_MESSAGE;
  return "Signing in did not work. Please try again.";
}

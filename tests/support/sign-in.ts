// A wrong password's verdict in tests, whether or not its email's attempts now wait.
import { nextWaitSeconds } from "@/lib/auth/sign-in-errors";

/**
 * Null, or the code that tells the sign-in page how long the next try waits (lib/auth/sign-in-errors.ts), taken as
 * null: both say the password was wrong. Any other refusal is thrown on.
 */
export const wrong = <T>(attempt: Promise<T>): Promise<T | null> =>
  attempt.then(
    (value) => value,
    (error: Error) => {
      if (nextWaitSeconds(error.message) > 0) return null;
      throw error;
    },
  );

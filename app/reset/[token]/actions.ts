"use server";
// Setting a new password from a reset link. The link (its secret is the path's last segment) is judged anew here,
// not trusted from the page that showed the form: unknown, used and expired links set nothing.
import type { SetPasswordState } from "@/components/team/set-password-form";
import { resetPassword } from "@/lib/team/password-reset";

export async function resetPasswordAction(
  token: string,
  _previous: SetPasswordState,
  form: FormData,
): Promise<SetPasswordState> {
  return resetPassword(token, {
    password: String(form.get("password") ?? ""),
    confirmation: String(form.get("confirmation") ?? ""),
    revokeTokens: form.get("revokeTokens") === "on",
  });
}

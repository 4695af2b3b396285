"use server";
// Setting a first password from an invite link. The link (its secret is the path's last segment) is judged anew
// here, not trusted from the page that showed the form: unknown, used and expired links set nothing.
import type { SetPasswordState } from "@/components/team/set-password-form";
import { acceptInvite } from "@/lib/team/mutations";

export async function setPasswordAction(
  token: string,
  _previous: SetPasswordState,
  form: FormData,
): Promise<SetPasswordState> {
  return acceptInvite(token, {
    password: String(form.get("password") ?? ""),
    confirmation: String(form.get("confirmation") ?? ""),
  });
}

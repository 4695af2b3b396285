"use server";
// Setting a first password from an invite link. The link (its secret is the path's last segment) is judged anew
// here, not trusted from the page that showed the form: unknown, used and expired links set nothing.
import { type AcceptInviteResult, acceptInvite } from "@/lib/team/mutations";

export type SetPasswordState = { status: "idle" } | AcceptInviteResult;

export async function setPasswordAction(token: string, _previous: SetPasswordState, form: FormData) {
  return acceptInvite(token, {
    password: String(form.get("password") ?? ""),
    confirmation: String(form.get("confirmation") ?? ""),
  });
}

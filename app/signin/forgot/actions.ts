"use server";
// "Forgot password?": the request's mail is made after the answer (lib/auth/forgot-password.ts), through Next's after().
import { headers } from "next/headers";
import { after } from "next/server";
import { type ForgotPasswordResult, requestPasswordReset } from "@/lib/auth/forgot-password";

export type ForgotPasswordState = { status: "idle" } | ForgotPasswordResult;

export async function forgotPasswordAction(_previous: ForgotPasswordState, form: FormData) {
  return requestPasswordReset(String(form.get("email") ?? ""), await headers(), after);
}

"use client";

import { signOut } from "next-auth/react";
import { SIGNED_OUT_PATH } from "@/lib/paths";
import { secondaryButton } from "./styles";

export function SignOutButton() {
  async function signOutAndLeave() {
    // No redirect from next-auth: its target would be built from NEXTAUTH_URL, which may name another port.
    await signOut({ redirect: false });
    window.location.assign(SIGNED_OUT_PATH);
  }
  return (
    <button type="button" onClick={signOutAndLeave} className={secondaryButton}>
      Sign out
    </button>
  );
}

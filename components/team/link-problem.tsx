import Link from "next/link";
import { SIGN_IN_PATH } from "@/lib/paths";
import { focusRing } from "../styles";

/** A one-time link's page when the link does not work (unknown, used, expired): what happened, and sign in. */
export function LinkProblem({ title, text, signIn }: { title: string; text: string; signIn: boolean }) {
  return (
    <>
      <h1 className="text-2xl font-semibold">{title}</h1>
      <p className="mt-2 text-sm text-slate-600">{text}</p>
      {signIn && (
        <Link
          href={SIGN_IN_PATH}
          className={`mt-6 self-start rounded text-sm font-medium underline underline-offset-2 ${focusRing}`}
        >
          Go to sign in
        </Link>
      )}
    </>
  );
}

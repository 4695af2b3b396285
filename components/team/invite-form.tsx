"use client";

import { useActionState, useEffect } from "react";
import { type InviteState, inviteAction } from "@/app/settings/team/actions";
import { Field } from "../profile/field";
import { primaryButton } from "../styles";
import { SubmitButton } from "../submit-button";
import { AccessFields, type Choice } from "./access-fields";
import { useAnnounce } from "./announcer";
import { InviteLink } from "./invite-link";

/** Invite a person: name, email, role, client access and groups; answers a one-time link to set a password. */
export function InviteForm({ roles, groups, timezone }: { roles: Choice[]; groups: Choice[]; timezone: string }) {
  const [state, formAction] = useActionState<InviteState, FormData>(inviteAction, { status: "idle" });
  const announce = useAnnounce();
  const errors = state.status === "invalid" ? state.errors : {};
  const values = state.status === "invalid" ? state.values : {};
  const text = (name: string) => (typeof values[name] === "string" ? (values[name] as string) : undefined);

  useEffect(() => {
    if (state.status === "invited") announce(`${state.name} is invited. Copy their link now.`);
    if (state.status === "invalid") announce("The invite was not sent: check the fields marked.");
  }, [state, announce]);

  return (
    <section aria-labelledby="invite-heading" className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
      <h2 id="invite-heading" className="text-lg font-semibold">
        Invite a person
      </h2>
      <p className="mt-1 max-w-prose text-sm text-slate-600">
        They get a link to set their password, which you send them yourself. It works once, for 7 days.
      </p>
      {state.status === "invited" && (
        <InviteLink
          key={state.link}
          name={state.name}
          email={state.email}
          link={state.link}
          expiresAt={state.expiresAt}
          timezone={timezone}
        />
      )}
      {/* key: a new form (its fields emptied) after each invite, the same one (fields kept) after an error. */}
      <form key={state.status === "invited" ? state.link : "form"} action={formAction} className="mt-4 space-y-4">
        {errors.form && (
          <p role="alert" className="text-sm font-medium text-red-700">
            {errors.form}
          </p>
        )}
        <Field
          name="name"
          label="Full name"
          required
          maxLength={200}
          autoComplete="off"
          defaultValue={text("name")}
          error={errors.name}
        />
        <Field
          name="email"
          label="Email"
          type="email"
          required
          maxLength={254}
          autoComplete="off"
          defaultValue={text("email")}
          error={errors.email}
        />
        <AccessFields
          prefix="invite"
          roles={roles}
          groups={groups}
          values={{
            roleId: text("roleId"),
            clientAccess: text("clientAccess"),
            groupIds: Array.isArray(values.groupIds) ? values.groupIds : [],
          }}
          errors={errors}
        />
        <SubmitButton label="Invite" pendingLabel="Inviting…" className={primaryButton} />
      </form>
    </section>
  );
}

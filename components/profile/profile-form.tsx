"use client";

import { useActionState } from "react";
import { type FormState, saveProfile } from "@/app/settings/profile/actions";
import { primaryButton } from "../styles";
import { SubmitButton } from "../submit-button";
import { Field, FormMessage } from "./field";

export function ProfileForm({
  firstname,
  lastname,
  timezone,
  timezones,
}: {
  firstname: string;
  lastname: string;
  timezone: string;
  timezones: string[];
}) {
  const [state, formAction] = useActionState<FormState, FormData>(saveProfile, { status: "idle" });
  const errors = state.status === "invalid" ? state.errors : {};
  const sent = state.status === "invalid" ? state.values : undefined;
  return (
    <section aria-labelledby="profile-heading" className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
      <h2 id="profile-heading" className="text-lg font-semibold">
        Name and time zone
      </h2>
      <form action={formAction} className="mt-4 space-y-4">
        <div className="grid gap-4 sm:grid-cols-2">
          <Field
            name="firstname"
            label="First name"
            defaultValue={sent?.firstname ?? firstname}
            required
            maxLength={100}
            autoComplete="given-name"
            error={errors.firstname}
          />
          <Field
            name="lastname"
            label="Last name"
            defaultValue={sent?.lastname ?? lastname}
            required
            maxLength={100}
            autoComplete="family-name"
            error={errors.lastname}
          />
        </div>
        <Field
          name="timezone"
          label="Time zone"
          defaultValue={sent?.timezone ?? timezone}
          required
          list="timezones"
          autoComplete="off"
          hint="Dates and named ranges such as “this week” use it. Type to search, e.g. Europe/London."
          error={errors.timezone}
        />
        <datalist id="timezones">
          {timezones.map((zone) => (
            <option key={zone} value={zone} />
          ))}
        </datalist>
        <div className="flex items-center gap-4">
          <SubmitButton label="Save profile" pendingLabel="Saving…" className={primaryButton} />
          <FormMessage message={state.status === "saved" ? state.message : undefined} />
        </div>
      </form>
    </section>
  );
}

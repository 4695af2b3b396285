"use client";

import { useActionState, useEffect, useRef, useState } from "react";
import {
  archiveMemberAction,
  type RenewState,
  renewInviteAction,
  resetLinkAction,
  unarchiveMemberAction,
  updateMemberAction,
} from "@/app/settings/team/actions";
import { ConfirmButton } from "../confirm-button";
import { focusRing, primaryButton, secondaryButton } from "../styles";
import { SubmitButton } from "../submit-button";
import { AccessFields, type Choice } from "./access-fields";
import { useAnnounce } from "./announcer";
import { InviteLink } from "./invite-link";

const PEOPLE_HEADING = "people-heading";

export interface EditableMember {
  id: number;
  name: string;
  roleId: number;
  clientAccess: string;
  groupIds: number[];
}

/** "Change role or access": a disclosure with the person's role, client access and groups. */
export function MemberEditor({ member, roles, groups }: { member: EditableMember; roles: Choice[]; groups: Choice[] }) {
  const announce = useAnnounce();
  const details = useRef<HTMLDetailsElement>(null);
  const [errors, setErrors] = useState<Partial<Record<string, string>>>({});
  const prefix = `member-${member.id}`;
  async function save(form: FormData) {
    const result = await updateMemberAction(form);
    setErrors(result.status === "error" ? (result.errors ?? { form: result.message }) : {});
    if (result.status === "done" && details.current) {
      details.current.open = false;
      announce(result.message, `${prefix}-summary`);
    } else announce(result.message);
  }
  return (
    <details ref={details} className="group mt-3 w-full">
      <summary
        id={`${prefix}-summary`}
        className={`inline-flex cursor-pointer list-none items-center gap-1 rounded-md text-sm font-medium text-slate-700 underline underline-offset-2 hover:text-slate-900 ${focusRing}`}
      >
        <span aria-hidden="true" className="inline-block transition-transform group-open:rotate-90">
          ▸
        </span>
        Change role or access<span className="sr-only"> of {member.name}</span>
      </summary>
      <form action={save} className="mt-3 space-y-4 rounded-md border border-slate-200 bg-slate-50 p-4">
        <input type="hidden" name="userId" value={member.id} />
        {errors.form && (
          <p className="text-sm font-medium text-red-700" role="alert">
            {errors.form}
          </p>
        )}
        <AccessFields
          prefix={prefix}
          roles={roles}
          groups={groups}
          values={{
            roleId: String(member.roleId),
            clientAccess: member.clientAccess,
            groupIds: member.groupIds.map(String),
          }}
          errors={errors}
        />
        <SubmitButton label="Save changes" pendingLabel="Saving…" className={primaryButton} />
      </form>
    </details>
  );
}

/** Archive, after a confirmation (ConfirmButton); the outcome is announced at the people heading. */
export function ArchiveButton({ id, name }: { id: number; name: string }) {
  const announce = useAnnounce();
  const outcome = useRef("");
  return (
    <ConfirmButton
      label="Archive"
      accessibleLabel={`Archive ${name}`}
      title={`Archive ${name}?`}
      confirmLabel="Archive"
      pendingLabel="Archiving…"
      fields={{ userId: String(id) }}
      action={async (form) => {
        outcome.current = (await archiveMemberAction(form)).message;
      }}
      onDone={() => announce(outcome.current, PEOPLE_HEADING)}
    >
      They are signed out at once, their API tokens are revoked and they can no longer sign in. Their clients, jobs and
      time logs stay. You can unarchive them later; they would then need new tokens.
    </ConfirmButton>
  );
}

export function UnarchiveButton({ id, name }: { id: number; name: string }) {
  const announce = useAnnounce();
  async function unarchive(form: FormData) {
    const result = await unarchiveMemberAction(form);
    announce(result.message, PEOPLE_HEADING);
  }
  return (
    <form action={unarchive}>
      <input type="hidden" name="userId" value={id} />
      <button type="submit" aria-label={`Unarchive ${name}`} className={secondaryButton}>
        Unarchive
      </button>
    </form>
  );
}

/** The words of a one-time link button: a new invite (no password yet) or a reset link (a forgotten password). */
const LINK_BUTTONS = {
  invite: {
    action: renewInviteAction,
    label: "New invite link",
    accessible: "New invite link for",
    ready: "A new invite link",
  },
  reset: {
    action: resetLinkAction,
    label: "Link to reset password",
    accessible: "Link to reset the password of",
    ready: "A link to set a new password",
  },
} as const;

/**
 * A one-time link to set a password: a new invite for someone who has not set one (the old link expired or was lost),
 * or a reset link for an active person who forgot theirs.
 */
export function OneTimeLinkButton({
  id,
  name,
  timezone,
  kind,
}: {
  id: number;
  name: string;
  timezone: string;
  kind: keyof typeof LINK_BUTTONS;
}) {
  const words = LINK_BUTTONS[kind];
  const [state, formAction] = useActionState<RenewState, FormData>(words.action, { status: "idle" });
  const announce = useAnnounce();
  useEffect(() => {
    if (state.status === "invited") announce(`${words.ready} for ${state.name} is ready. Copy it now.`);
    if (state.status === "error") announce(state.message);
  }, [state, announce, words]);
  return (
    <div className="w-full">
      <form action={formAction}>
        <input type="hidden" name="userId" value={id} />
        <SubmitButton
          label={words.label}
          pendingLabel="Making the link…"
          accessibleLabel={`${words.accessible} ${name}`}
          className={secondaryButton}
        />
      </form>
      {state.status === "error" && (
        <p role="alert" className="mt-2 text-sm font-medium text-red-700">
          {state.message}
        </p>
      )}
      {state.status === "invited" && (
        <InviteLink
          key={state.link}
          name={state.name}
          email={state.email}
          link={state.link}
          expiresAt={state.expiresAt}
          timezone={timezone}
          kind={kind}
        />
      )}
    </div>
  );
}

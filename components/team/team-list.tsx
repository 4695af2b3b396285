import { CLIENT_ACCESS_LABELS } from "@/lib/team/schemas";
import type { TeamMember } from "@/lib/team/serialize";
import { Time } from "../time";
import type { Choice } from "./access-fields";
import { ArchiveButton, MemberEditor, OneTimeLinkButton, UnarchiveButton } from "./member-actions";

const DAY_MS = 24 * 60 * 60 * 1000;

/** Whole days until an invite link expires, or null once it has. */
function daysLeft(expiresAt: Date | null, now = Date.now()) {
  return expiresAt && expiresAt.getTime() > now ? Math.ceil((expiresAt.getTime() - now) / DAY_MS) : null;
}

function InviteStatus({ expiresAt, timezone }: { expiresAt: Date | null; timezone: string }) {
  const days = daysLeft(expiresAt);
  if (!expiresAt || days === null) return "Invite link expired: make a new one";
  return (
    <>
      Invited: link expires in {days} day{days === 1 ? "" : "s"} (<Time value={expiresAt} timezone={timezone} />)
    </>
  );
}

const BADGE = "rounded px-1.5 py-0.5 text-xs font-medium";

/** The firm's people: role, client access, groups and status, each with what may be done to them. */
export function TeamList({
  members,
  roles,
  groups,
  currentUserId,
  timezone,
}: {
  members: TeamMember[];
  roles: Choice[];
  groups: Choice[];
  currentUserId: number;
  timezone: string;
}) {
  const date = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeZone: "UTC" });
  return (
    <ul aria-label="People" className="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white shadow-sm">
      {members.map((member) => {
        const you = member.id === currentUserId;
        return (
          // One place for the buttons on every row, whatever its text: under the details on a phone, in their own
          // column at the top right from 640 px; the invite link and the editor run the full width below.
          <li key={member.id} className="grid items-start gap-x-4 gap-y-2 p-4 sm:grid-cols-[minmax(0,1fr)_auto]">
            <div className="min-w-0">
              <h3 className="font-medium break-words">
                {member.name}
                {you && <span className="text-slate-500"> (you)</span>}
                {member.isOwner && <span className={`${BADGE} ml-2 bg-slate-900 text-white`}>Owner</span>}
                {member.status === "archived" && (
                  <span className={`${BADGE} ml-2 bg-slate-200 text-slate-700`}>Archived</span>
                )}
                {member.status === "invited" && (
                  <span className={`${BADGE} ml-2 bg-amber-100 text-amber-900`}>Invited</span>
                )}
              </h3>
              <dl className="mt-1 grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 text-sm text-slate-600">
                <dt>Email</dt>
                <dd className="break-all">{member.email}</dd>
                <dt>Role</dt>
                <dd>{member.role.name}</dd>
                <dt>Client access</dt>
                <dd>{CLIENT_ACCESS_LABELS[member.clientAccess]}</dd>
                <dt>Groups</dt>
                <dd className="break-words">{member.groups.map((g) => g.name).join(", ") || "none"}</dd>
                <dt>Status</dt>
                <dd>
                  {member.status === "active" && "Active"}
                  {member.status === "invited" && (
                    <InviteStatus expiresAt={member.inviteExpiresAt} timezone={timezone} />
                  )}
                  {member.status === "archived" &&
                    `Archived${member.archivedDate ? ` on ${date.format(member.archivedDate)}` : ""}`}
                </dd>
              </dl>
            </div>
            <div className="flex flex-wrap items-start gap-2">
              {member.isOwner ? (
                <p className="max-w-56 text-sm text-slate-600">
                  The Owner keeps every permission and cannot be archived.
                </p>
              ) : member.status === "archived" ? (
                <UnarchiveButton id={member.id} name={member.name} />
              ) : (
                !you && <ArchiveButton id={member.id} name={member.name} />
              )}
            </div>
            {member.status === "invited" && (
              <div className="sm:col-span-2">
                <OneTimeLinkButton id={member.id} name={member.name} timezone={timezone} kind="invite" />
              </div>
            )}
            {/* The Owner's password is reset by the operator only: an Admin must not take over the Owner's account. */}
            {member.status === "active" && !you && !member.isOwner && (
              <div className="sm:col-span-2">
                <OneTimeLinkButton id={member.id} name={member.name} timezone={timezone} kind="reset" />
              </div>
            )}
            {!member.isOwner && (
              <div className="sm:col-span-2">
                <MemberEditor
                  member={{
                    id: member.id,
                    name: member.name,
                    roleId: member.role.id,
                    clientAccess: member.clientAccess,
                    groupIds: member.groups.map((g) => g.id),
                  }}
                  roles={roles}
                  groups={groups}
                />
              </div>
            )}
          </li>
        );
      })}
    </ul>
  );
}

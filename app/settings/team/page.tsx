import type { Metadata } from "next";
import { AccountSettingsLayout } from "@/components/account-settings-layout";
import { TeamAnnouncer } from "@/components/team/announcer";
import { InviteForm } from "@/components/team/invite-form";
import { TeamList } from "@/components/team/team-list";
import { TEAM_PATH } from "@/lib/paths";
import { requireSettingsPage } from "@/lib/settings-pages";
import { listTeam } from "@/lib/team/queries";

export const metadata: Metadata = { title: "Team · Client, Job and Time Tracking" };

/** For Owners and Admins (`users.manage`); anyone else gets the 404 page (lib/settings-pages.ts). */
export default async function TeamPage() {
  const user = await requireSettingsPage(TEAM_PATH);
  const { members, roles, groups } = await listTeam(user);
  return (
    <AccountSettingsLayout user={user} current={TEAM_PATH}>
      <h1 className="text-2xl font-semibold">Team</h1>
      <p className="mt-2 mb-6 max-w-prose text-sm text-slate-600">
        The people of your firm: invite someone, give someone who forgot their password a one-time link to set a new
        one, change what they may do and see, or archive someone who left (they are signed out at once and their API
        tokens stop working).
      </p>
      <TeamAnnouncer>
        <InviteForm roles={roles} groups={groups} timezone={user.timezone} />
        <section aria-labelledby="people-heading" className="mt-8">
          <h2 id="people-heading" tabIndex={-1} className="mb-3 text-lg font-semibold focus:outline-none">
            People
          </h2>
          <TeamList
            members={members}
            roles={roles}
            groups={groups}
            currentUserId={user.userId}
            timezone={user.timezone}
          />
        </section>
      </TeamAnnouncer>
    </AccountSettingsLayout>
  );
}

import type { Metadata } from "next";
import { AccountSettingsLayout } from "@/components/account-settings-layout";
import { PasswordForm } from "@/components/profile/password-form";
import { ProfileForm } from "@/components/profile/profile-form";
import { loadProfile } from "@/lib/auth/account";
import { requireSignedInUser } from "@/lib/auth/session";
import { PROFILE_PATH } from "@/lib/paths";

export const metadata: Metadata = { title: "Profile · Client, Job and Time Tracking" };

export default async function ProfilePage() {
  const user = await requireSignedInUser(PROFILE_PATH);
  const { firstname, lastname } = await loadProfile(user);
  return (
    <AccountSettingsLayout user={user} current={PROFILE_PATH}>
      <h1 className="text-2xl font-semibold">Profile</h1>
      <p className="mt-2 mb-6 max-w-prose text-sm text-slate-600">
        Your name and time zone, as the API shows them to your firm, and your password.
      </p>
      <div className="space-y-8">
        <ProfileForm
          firstname={firstname}
          lastname={lastname}
          timezone={user.timezone}
          timezones={Intl.supportedValuesOf("timeZone")}
        />
        <PasswordForm />
      </div>
    </AccountSettingsLayout>
  );
}

import { redirect } from "next/navigation";
import { API_TOKENS_PATH } from "@/lib/paths";

// API tokens are the only settings section so far.
export default function SettingsPage() {
  redirect(API_TOKENS_PATH);
}

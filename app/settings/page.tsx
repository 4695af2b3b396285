import { redirect } from "next/navigation";
import { API_TOKENS_PATH } from "@/lib/paths";

// The settings start at the API tokens page, what most people come for; the navigation leads to the others.
export default function SettingsPage() {
  redirect(API_TOKENS_PATH);
}

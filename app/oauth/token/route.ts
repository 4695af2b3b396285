export { tokenPost as POST } from "@/lib/oauth/http";

export { revokePost as POST } from "@/lib/oauth/http";

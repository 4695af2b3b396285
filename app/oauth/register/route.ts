export { registerPost as POST } from "@/lib/oauth/http";

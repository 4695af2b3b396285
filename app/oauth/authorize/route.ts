// The authorization endpoint (GET) and the consent form's answer (POST): lib/oauth/http.ts.
export { authorizeGet as GET, authorizePost as POST } from "@/lib/oauth/http";

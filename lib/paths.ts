// Pages that other code links or redirects to.
export const SIGN_IN_PATH = "/signin";
export const FORGOT_PASSWORD_PATH = "/signin/forgot";
/** Where signing out lands: the sign-in page, saying "You are signed out." */
export const SIGNED_OUT_PATH = `${SIGN_IN_PATH}?signed_out`;
export const API_TOKENS_PATH = "/settings/api-tokens";
export const PROFILE_PATH = "/settings/profile";
export const TEAM_PATH = "/settings/team";
export const INVITE_PATH = "/invite";
export const RESET_PATH = "/reset";
export const WEBHOOKS_PATH = "/settings/webhooks";
export const AUDIT_PATH = "/settings/audit";
export const CONNECTED_APPS_PATH = "/settings/connected-apps";
export const APPS_PATH = "/settings/apps";
export const OAUTH_AUTHORIZE_PATH = "/oauth/authorize";
export const OAUTH_CONSENT_PATH = "/oauth/consent";

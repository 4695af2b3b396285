// Password length rules, shared by the server's check and the form's hints (kept free of server code).
export const PASSWORD_MIN_LENGTH = 10;
// bcrypt reads only the first 72 bytes: a longer password would silently be a shorter one.
export const PASSWORD_MAX_BYTES = 72;

// Any path under /api that no route claims (/api, /api/foo, /api/v2/me, /api/v1x): a JSON 404, never Next's HTML
// page, whose form handling answered a multipart body it could not read with a text 500.
import { unknownApiPath } from "@/lib/http/api-path";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = unknownApiPath;

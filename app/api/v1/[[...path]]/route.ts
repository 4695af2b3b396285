// Any path under /api/v1 that no route file claims: a JSON 404 rather than Next's HTML page.
import { unknownPath } from "@/lib/api/route";

export const { GET, POST, PUT, PATCH, DELETE } = unknownPath;

// The answer for anything a handler throws: an ApiError as it says, a zod error as a 422, anything else a 500 whose
// cause goes to the log (with the request's id) and never to the caller. Here in the HTTP layer rather than with the
// error model in lib/core, which the browser's bundles also load: the log is the server's.
import { z } from "zod";
import { ApiError, validationFailed, zodFieldErrors } from "@/lib/core/errors";
import { logError } from "@/lib/core/log";

/** The response for anything a handler throws. Unexpected errors are logged and never described to the caller. */
export function errorResponse(error: unknown): Response {
  if (error instanceof ApiError) return error.toResponse();
  if (error instanceof z.ZodError) return validationFailed(zodFieldErrors(error)).toResponse();
  logError("Unhandled error in API request", error);
  return Response.json({ message: "Server error" }, { status: 500 });
}

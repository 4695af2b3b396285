// The record a path names, for an endpoint's `load`: the path's uuid, then the resource's visible-record finder.
import type { Caller } from "@/lib/auth/caller";
import { notFound } from "@/lib/core/errors";
import { UUID } from "@/lib/core/references";
import { RECORD_LABELS, type UuidModel } from "@/lib/db/records";
import type { PathParams } from "./route";

/** Anything that is not a uuid cannot name a record, so it is a 404 like an unknown one. */
export function pathUuid(value: string | string[] | undefined, model: UuidModel): string {
  if (typeof value !== "string" || !UUID.test(value)) throw notFound(RECORD_LABELS[model]);
  return value.toLowerCase();
}

/** Loads the record named by the path's `{uuid}` with `find`, which answers 404 or 403 for one the caller cannot have. */
export const byUuid =
  <R>(model: UuidModel, find: (caller: Caller, uuid: string) => Promise<R>) =>
  (caller: Caller, params: PathParams) =>
    find(caller, pathUuid(params.uuid, model));

// References to other records in paths, queries and bodies: uuids (lower-cased) and integer ids.
import { z } from "zod";
import { queryInt } from "./validation";

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const uuidString = () =>
  z
    .string()
    .regex(UUID, "Must be a uuid.")
    .transform((value) => value.toLowerCase())
    .describe("uuid");

/** An integer id (users, tags) in a JSON body; the range of the database's integer keys. */
export const recordId = () => z.number().int().min(1).max(2_147_483_647);

/** An integer id in a query string. */
export const queryId = () => queryInt(recordId());

import { expect } from "vitest";
import { OperatorInputError } from "@/lib/team/errors";

/** The fields an operator's command refused, with their messages; fails the test when it was not refused so. */
export async function refusal(work: Promise<unknown>) {
  const error = await work.then(
    () => null,
    (e) => e,
  );
  expect(error).toBeInstanceOf(OperatorInputError);
  return (error as OperatorInputError).fields;
}

// Wire shape of time logs. Time is stored in whole minutes; hours and HH:MM derive from it.

import type { z } from "zod";
import { fromDbDate, humanDate } from "@/lib/core/dates";
import type { Prisma } from "@/lib/generated/prisma/client";
import { serializeUserName } from "@/lib/users/serialize";
import type { timeLogObject } from "./schemas";

/** A time log's own columns; the client, job and user it names come from lib/time-logs/relations. */
export const timeLogColumns = {
  uuid: true,
  note: true,
  minutes: true,
  date: true,
  createdAt: true,
  updatedAt: true,
  clientId: true,
  jobId: true,
  userId: true,
} satisfies Prisma.TimeLogSelect;

export type TimeLogColumns = Prisma.TimeLogGetPayload<{ select: typeof timeLogColumns }>;

export type TimeLogRow = Omit<TimeLogColumns, "clientId" | "jobId" | "userId"> & {
  client: { uuid: string; name: string } | null;
  job: { uuid: string; name: string } | null;
  user: { id: number; firstname: string; lastname: string };
};

const pad = (n: number) => String(n).padStart(2, "0");

export function serializeTimeLog(log: TimeLogRow): z.output<typeof timeLogObject> {
  return {
    uuid: log.uuid,
    client: log.client,
    task: log.job,
    user: serializeUserName(log.user),
    note: log.note,
    hours: Math.round((log.minutes / 60) * 100) / 100,
    hours_time: `${pad(Math.floor(log.minutes / 60))}:${pad(log.minutes % 60)}`,
    date: fromDbDate(log.date),
    formatted_date: humanDate(log.date),
    created_at: log.createdAt.toISOString(),
    updated_at: log.updatedAt.toISOString(),
  };
}

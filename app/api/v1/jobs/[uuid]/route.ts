import { todayIn } from "@/lib/api/dates";
import { pathUuid } from "@/lib/api/records";
import { apiRoute } from "@/lib/api/route";
import { getJob } from "@/lib/jobs/queries";
import { serializeJob } from "@/lib/jobs/serialize";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute<{ uuid: string }>({
  GET: async ({ params, caller }) =>
    serializeJob(await getJob(caller, pathUuid(params.uuid, "job")), todayIn(caller.tenant.timezone)),
});

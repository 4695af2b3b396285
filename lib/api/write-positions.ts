// Where callers' write positions are kept for read-your-writes on replicas (lib/db/replica-positions.ts): Redis,
// seen by every instance, when configured, with this instance's own writes kept in process beside it; else this
// process only. Redis known away (by the rate limiter or by the positions) is left alone for the limiter's window.
import { InProcessPositions, type PositionStore, RedisPositions, SharedPositions } from "@/lib/db/replica-positions";
import { FAIL_OPEN_MS, upstashFromEnv } from "@/lib/ratelimit/upstash";

const local = new InProcessPositions();

export function writePositions(): PositionStore {
  const upstash = upstashFromEnv();
  if (!upstash) return local;
  return new SharedPositions(new RedisPositions(upstash.redis), local, upstash, FAIL_OPEN_MS);
}

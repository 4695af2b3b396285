// Where callers' write positions are kept for read-your-writes on replicas (lib/db/replica-positions.ts): Redis,
// seen by every instance, when configured; else this process.
import { InProcessPositions, type PositionStore, RedisPositions } from "@/lib/db/replica-positions";
import { upstashFromEnv } from "@/lib/ratelimit/upstash";

let positions: PositionStore | undefined;

export function writePositions(): PositionStore {
  const upstash = upstashFromEnv();
  if (upstash) return new RedisPositions(upstash.redis);
  positions ??= new InProcessPositions();
  return positions;
}

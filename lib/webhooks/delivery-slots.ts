// How many webhook deliveries this instance attempts at once (decisions.md, Capacity): an attempt waits up to 15 s on
// its receiver, outside any API request's place, so without a bound one firm's slow receiver (or a stream of tests
// sent to it) would have thousands of attempts open, each with its statements and its socket, beside every other
// firm's requests. At most WEBHOOKS_MAX_IN_FLIGHT attempts run at once per instance (default 20), and one firm at
// most a quarter of them; what finds no slot stays pending, due, for the next pass (the timer's, or the next write's).
// On globalThis, like the API's places: one count for every bundle of the built server.

interface Slots {
  total: number;
  held: Map<number, number>;
}
const slots: Slots = ((globalThis as { __cjtDeliverySlots?: Slots }).__cjtDeliverySlots ??= {
  total: 0,
  held: new Map<number, number>(),
});

/** WEBHOOKS_MAX_IN_FLIGHT: deliveries attempted at once by this instance. */
export const deliveriesMax = () => Math.max(1, Number(process.env.WEBHOOKS_MAX_IN_FLIGHT || 20));

/** The attempts one firm may have open at once on this instance: a quarter of the instance's, at least one. */
export const deliveriesPerTenant = () => Math.max(1, Math.floor(deliveriesMax() / 4));

/** How many more attempts may start now: for `tenantId`'s deliveries only, or for any firm's. */
function freeSlots(tenantId?: number): number {
  const free = deliveriesMax() - slots.total;
  return tenantId === undefined ? free : Math.min(free, deliveriesPerTenant() - (slots.held.get(tenantId) ?? 0));
}

/** The firms holding slots, and how many each holds (for the claim to leave out what they cannot start). */
export const heldSlots = (): { tenantIds: number[]; held: number[] } => ({
  tenantIds: [...slots.held.keys()],
  held: [...slots.held.values()],
});

function hold(tenantId: number, change: number) {
  const held = (slots.held.get(tenantId) ?? 0) + change;
  if (held <= 0) slots.held.delete(tenantId);
  else slots.held.set(tenantId, held);
}

/**
 * Takes up to `wanted` slots at once, before the claim that fills them: for `tenantId`'s deliveries (within its
 * quarter), or for any firm's. Taken before the claim's statement, so that many passes started together (one per
 * write) cannot each see the same slots free.
 */
export function takeSlots(wanted: number, tenantId?: number) {
  const granted = Math.max(0, Math.min(wanted, freeSlots(tenantId)));
  slots.total += granted;
  if (tenantId !== undefined) hold(tenantId, granted);
  let unused = granted;
  return {
    granted,
    /** Runs one claimed attempt of `owner`'s in one of the slots taken; the slot is given back when it ends. */
    async run<T>(owner: number, attempt: () => Promise<T>): Promise<T> {
      unused--;
      if (tenantId === undefined) hold(owner, 1);
      try {
        return await attempt();
      } finally {
        slots.total--;
        hold(owner, -1);
      }
    },
    /** Gives back the slots no claimed attempt took. */
    release() {
      slots.total -= unused;
      if (tenantId !== undefined) hold(tenantId, -unused);
      unused = 0;
    },
  };
}

// Event queues in isolation: idle expiry, event-type and capability filtering.
import { EventQueues } from "../../src/events/queues";

const base = { realmId: 1, eventTypes: null, capabilities: {}, applyMarkdown: true, idleTimeoutSeconds: 60 };

describe("EventQueues", () => {
  let queues: EventQueues;
  beforeEach(() => {
    queues = new EventQueues(1);
  });
  afterEach(() => queues.close());

  it("drops a queue idle for longer than its timeout, and keeps a fresh one", async () => {
    const idle = queues.register({ ...base, userId: 1, idleTimeoutSeconds: 1 });
    const fresh = queues.register({ ...base, userId: 1, idleTimeoutSeconds: 600 });
    const now = Date.now();
    jest.spyOn(Date, "now").mockReturnValue(now + 5000);
    try {
      queues.expireIdle();
    } finally {
      jest.restoreAllMocks();
    }
    await expect(queues.getEvents(idle.queueId, 1, -1, true, () => false)).rejects.toMatchObject({
      code: "BAD_EVENT_QUEUE_ID",
    });
    await expect(queues.getEvents(fresh.queueId, 1, -1, true, () => false)).resolves.toEqual([]);
  });

  it("delivers only the event types a queue asked for", async () => {
    const q = queues.register({ ...base, userId: 2, eventTypes: ["typing"] });
    queues.deliver({ realmId: 1, userIds: [2], event: { type: "message", message: {} } });
    queues.deliver({ realmId: 1, userIds: [2], event: { type: "typing", op: "start" } });
    expect(await queues.getEvents(q.queueId, 2, -1, true, () => false)).toEqual([
      { type: "typing", op: "start", id: 0 },
    ]);
  });

  it("delivers capability-gated events only to queues that declared the capability", async () => {
    const withCap = queues.register({ ...base, userId: 3, capabilities: { stream_typing_notifications: true } });
    const without = queues.register({ ...base, userId: 3 });
    queues.deliver({ realmId: 1, userIds: [3], event: { type: "typing" }, capability: "stream_typing_notifications" });
    expect(await queues.getEvents(withCap.queueId, 3, -1, true, () => false)).toHaveLength(1);
    expect(await queues.getEvents(without.queueId, 3, -1, true, () => false)).toEqual([]);
  });

  it("ignores events of another realm", async () => {
    const q = queues.register({ ...base, userId: 4 });
    queues.deliver({ realmId: 2, userIds: [4], event: { type: "message", message: {} } });
    expect(await queues.getEvents(q.queueId, 4, -1, true, () => false)).toEqual([]);
  });

  it("drops a queue that reaches its cap of unacknowledged events", async () => {
    const capped = new EventQueues(1, { maxEvents: 2 });
    try {
      const q = capped.register({ ...base, userId: 5 });
      const typing = { realmId: 1, userIds: [5], event: { type: "typing" } };
      capped.deliver(typing);
      capped.deliver(typing);
      expect(await capped.getEvents(q.queueId, 5, -1, true, () => false)).toHaveLength(2);
      capped.deliver(typing);
      await expect(capped.getEvents(q.queueId, 5, -1, true, () => false)).rejects.toMatchObject({
        code: "BAD_EVENT_QUEUE_ID",
      });
    } finally {
      capped.close();
    }
  });
});

// Group commit for message sends (REST POST /messages, webhook deliveries, owner notices).
// A send is validated and rendered first (prepareSend, outside any transaction; its 4xx is thrown
// to its own caller only). The prepared send then joins a queue. One loop per process writes the
// queue in batches: everything waiting when the previous commit finished, up to a bound, in one
// transaction. An idle server therefore commits the first send at once (after the I/O already
// waiting has been read); sends arriving while a commit is in flight share the next one. Each caller is answered once its batch has committed
// and the batch's events have been published, in id order.
//
// One bad send never fails its neighbours: when a batch's transaction fails, each of its sends is
// written again in a transaction of its own, so only the bad one fails. That one is validated again
// first, so a send made invalid meanwhile (its channel deleted…) gets its proper 4xx, not a 500.
import type { Db } from "../../db/knex";
import { withTransaction } from "../../db/transaction";
import { ApiError } from "../../errors";
import type { EventBus, Notification } from "../../events/bus";
import type { Logger } from "pino";
import {
  prepareSend,
  sentNotifications,
  writeSends,
  type PreparedSend,
  type SendInput,
  type WrittenSends,
} from "./send";

/** The bound of one batch: by messages, and by recipient rows (a big channel's rows are the cost). */
export const BATCH_LIMITS = { maxMessages: 64, maxRecipientRows: 20_000 };

/** Sends that commit together or not at all (one request: a webhook delivery's messages). */
interface Job {
  sends: PreparedSend[];
  resolve(ids: number[]): void;
  reject(err: unknown): void;
}

const recipientRows = (job: Job) => job.sends.reduce((n, s) => n + s.userRows.length, 0);

export interface GroupCommitStats {
  batches: number;
  messages: number;
  largestBatch: number;
  /** Batches whose transaction failed, so that their sends were written one by one. */
  fallbacks: number;
}

export class MessageSender {
  private readonly queue: Job[] = [];
  private loop: Promise<void> | undefined;
  private held = false;
  /** The last batch's publication: the next one waits for it, so events stay in id order. */
  private published: Promise<void> = Promise.resolve();
  readonly stats: GroupCommitStats = { batches: 0, messages: 0, largestBatch: 0, fallbacks: 0 };

  constructor(
    private readonly deps: { db: Db; bus: Pick<EventBus, "publish">; logger: Logger },
    private readonly limits = BATCH_LIMITS,
  ) {}

  /** Sends one message; resolves with its id once it is committed and its event published. */
  async send(input: SendInput): Promise<{ id: number }> {
    const [id] = await this.sendAll([input]);
    return { id };
  }

  /** Sends several messages all in one transaction (all or none); their ids, in order. */
  async sendAll(inputs: SendInput[]): Promise<number[]> {
    const sends: PreparedSend[] = [];
    for (const input of inputs) sends.push(await prepareSend(this.deps.db, input));
    if (sends.length === 0) return [];
    return new Promise<number[]>((resolve, reject) => {
      this.queue.push({ sends, resolve, reject });
      this.start();
    });
  }

  /** Sends accepted and not yet in a batch. */
  get pending(): number {
    return this.queue.length;
  }

  /**
   * Holds batches back until the returned function is called (sends keep being accepted). For
   * tests, which need a known set of sends in one batch without depending on timing.
   */
  hold(): () => void {
    this.held = true;
    return () => {
      this.held = false;
      this.start();
    };
  }

  /** Waits until every accepted send is committed (or failed) and published: for shutdown. */
  async close(): Promise<void> {
    this.held = false;
    this.start();
    while (this.loop) await this.loop;
    await this.published;
  }

  private start(): void {
    if (this.loop || this.held || this.queue.length === 0) return;
    this.loop = this.run()
      .catch((err) => this.deps.logger.error({ err }, "message group commit loop failed"))
      .finally(() => {
        this.loop = undefined;
        this.start(); // a send queued while the loop was finishing
      });
  }

  private async run(): Promise<void> {
    while (this.queue.length > 0 && !this.held) {
      // Let the requests that have arrived meanwhile join first. On SQLite a whole transaction runs in
      // promise callbacks only (the driver is synchronous), so without this yield no other request
      // is ever read during one, and every batch held a single send (measured: 380 batches for 380
      // sends at 50 connections). setImmediate runs right after the pending I/O: an idle server
      // still commits at once.
      await new Promise((resolve) => setImmediate(resolve));
      if (this.queue.length === 0 || this.held) break;
      const batch = this.take();
      await this.commit(batch);
    }
  }

  /** Everything waiting, in order, up to the bounds (a job bigger than them goes alone). */
  private take(): Job[] {
    const batch = [this.queue.shift()!];
    let messages = batch[0].sends.length;
    let rows = recipientRows(batch[0]);
    while (this.queue.length > 0) {
      const next = this.queue[0];
      if (messages + next.sends.length > this.limits.maxMessages) break;
      if (rows + recipientRows(next) > this.limits.maxRecipientRows) break;
      batch.push(this.queue.shift()!);
      messages += next.sends.length;
      rows += recipientRows(next);
    }
    this.stats.batches += 1;
    this.stats.messages += messages;
    this.stats.largestBatch = Math.max(this.stats.largestBatch, messages);
    return batch;
  }

  private async commit(batch: Job[]): Promise<void> {
    let written: WrittenSends;
    try {
      written = await this.write(batch);
    } catch (err) {
      return this.fallBack(batch, err);
    }
    this.done(batch, written.ids, written.dateSent);
  }

  /** The batch's transaction failed (rolled back): each job again, alone, in order, a row per INSERT. */
  private async fallBack(batch: Job[], err: unknown): Promise<void> {
    if (batch.length === 1) return this.fail(batch[0], err);
    this.stats.fallbacks += 1;
    this.deps.logger.warn({ err, sends: batch.length }, "group commit failed; writing its sends one by one");
    for (const job of batch) {
      let written: WrittenSends;
      try {
        written = await this.write([job], { rowByRow: true });
      } catch (jobErr) {
        await this.fail(job, jobErr);
        continue;
      }
      this.done([job], written.ids, written.dateSent);
    }
  }

  private write(jobs: Job[], options: { rowByRow?: boolean } = {}): Promise<WrittenSends> {
    const sends = jobs.flatMap((job) => job.sends);
    return withTransaction(this.deps.db, (trx) => writeSends(trx, sends, options));
  }

  /**
   * Committed: builds the events, publishes them after the previous batch's (the loop does not wait
   * for it: the next batch starts at once), then answers the callers.
   */
  private done(jobs: Job[], ids: number[], dateSent: number): void {
    const idsByJob: number[][] = [];
    let i = 0;
    for (const job of jobs) idsByJob.push(job.sends.map(() => ids[i++]));
    const sends = jobs.flatMap((job) => job.sends);
    this.published = this.published
      .then(async () => {
        const notifications: Notification[] = [];
        for (const [k, send] of sends.entries())
          notifications.push(...(await sentNotifications(this.deps.db, send, ids[k], dateSent)));
        await this.deps.bus.publish(notifications);
      })
      // The messages are stored: their senders are answered with the ids even so.
      .catch((err) => this.deps.logger.error({ err }, "could not publish the events of committed messages"))
      .then(() => jobs.forEach((job, j) => job.resolve(idsByJob[j])));
  }

  /**
   * The write failed. A send that no longer validates gets that (4xx) error. One that still does is
   * prepared afresh and written once more: what changed since it was first prepared (an upload
   * deleted meanwhile, a channel renamed…) is then part of it. Only if that fails too does the caller
   * get the database's error.
   */
  private async fail(job: Job, err: unknown): Promise<void> {
    const fresh: PreparedSend[] = [];
    try {
      for (const send of job.sends) fresh.push(await prepareSend(this.deps.db, send.input));
    } catch (invalid) {
      return job.reject(invalid instanceof ApiError ? invalid : err);
    }
    const retried: Job = { ...job, sends: fresh };
    let written: WrittenSends;
    try {
      written = await this.write([retried], { rowByRow: true });
    } catch {
      return job.reject(err);
    }
    this.done([retried], written.ids, written.dateSent);
  }
}

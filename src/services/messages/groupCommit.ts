// Group commit for message sends (REST POST /messages, webhook deliveries, owner notices).
// A send is validated and rendered first (prepareSend, outside any transaction; its 4xx is thrown
// to its own caller only). The prepared send then joins a queue, which is written in batches:
// everything waiting, up to a bound, in one transaction. An idle server commits the first send at
// once (after the I/O already waiting has been read); sends arriving while batches are being written
// share the next one. On MySQL two batches run at once (see BATCH_LIMITS); their message INSERTs
// take turns, so ids increase in the order the batches were taken, and so do their events. Each
// caller is answered once its batch has committed and the batch's events have been published.
//
// One bad send never fails its neighbours: when a batch's transaction fails, each of its sends is
// written again in a transaction of its own, so only the bad one fails. That one is validated again
// first, so a send made invalid meanwhile (its channel deleted…) gets its proper 4xx, not a 500.
//
// A commit can fail without failing: when the connection dies during COMMIT, the server may have
// committed. Writing the sends again would then store them twice, and answering an error would hide
// a stored message whose event is never published. So when the transaction fails after its writes
// were all made, the batch's message ids are looked up first (checkCommitted): found, the batch is
// answered and published as committed; absent, it is written again as above; and when the database
// cannot say, its callers get 503 COMMIT_OUTCOME_UNKNOWN and nothing is written again.
import type { Db } from "../../db/knex";
import { withTransaction } from "../../db/transaction";
import { isMysql } from "../../db/collation";
import { storedMessageKeys } from "../../db/commitCheck";
import { ApiError, Errors } from "../../errors";
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

/**
 * The bound of one batch: by messages, and by recipient rows (a big channel's rows are the cost).
 * How many batches run at once is the database's: two on MySQL, where the next batch is written
 * while the previous one commits (each on its own connection), so that neither Node nor the database
 * waits for the other; one on SQLite, which has a single writer and a synchronous driver.
 */
export const BATCH_LIMITS = { maxMessages: 64, maxRecipientRows: 20_000 };

/**
 * After a COMMIT whose answer was lost: how many times the batch's rows are looked for (on a fresh
 * connection) while the database cannot be reached, and the pause between two looks.
 */
export const COMMIT_CHECK = { attempts: 3, pauseMs: 1_000 };

/** Sends that commit together or not at all (one request: a webhook delivery's messages). */
interface Job {
  sends: PreparedSend[];
  resolve(ids: number[]): void;
  reject(err: unknown): void;
  /**
   * 0: as sent. 1: its batch failed, so it is written alone, a row per INSERT. 2: it failed alone, so
   * it was validated and prepared again, and has one last try (`firstError` is what its caller gets
   * if that fails too).
   */
  attempt: 0 | 1 | 2;
  firstError?: unknown;
}

const recipientRows = (job: Job) => job.sends.reduce((n, s) => n + s.userRows.length, 0);

/** A turn in a sequence: begins when the previous batch's ended, ends when `end` is called. */
interface Turn {
  begun: Promise<void>;
  end(): void;
}

function takeTurn(previous: Promise<void>): { turn: Turn; ended: Promise<void> } {
  let end!: () => void;
  const ended = new Promise<void>((resolve) => (end = resolve));
  return { turn: { begun: previous, end }, ended };
}

interface Batch {
  jobs: Job[];
  /** Message INSERTs run in batch order, so ids increase in the order batches were taken. */
  ids: Turn;
  /** Events are published in batch order, so in id order, whichever transaction commits first. */
  publication: Turn;
}

/** A message as committed and published (what MessageSender.onCommitted's listeners get). */
export interface CommittedSend {
  send: PreparedSend;
  id: number;
  dateSent: number;
}

export interface GroupCommitStats {
  /** Batches of sends as sent (a failed batch's sends written again are not counted). */
  batches: number;
  messages: number;
  largestBatch: number;
  /** Batches whose transaction failed, so that their sends were written one by one. */
  fallbacks: number;
}

export class MessageSender {
  private readonly queue: Job[] = [];
  /** Batches whose transaction is running (or whose failed sends are being prepared again). */
  private readonly inFlight = new Set<Promise<void>>();
  private readonly maxInFlight: number;
  private takeScheduled = false;
  private held = false;
  /** Where the next batch's turns begin: when the last batch taken has inserted / published. */
  private idsTaken: Promise<void> = Promise.resolve();
  private published: Promise<void> = Promise.resolve();
  readonly stats: GroupCommitStats = { batches: 0, messages: 0, largestBatch: 0, fallbacks: 0 };
  private readonly committedListeners: ((sent: CommittedSend[]) => void)[] = [];

  constructor(
    private readonly deps: { db: Db; bus: Pick<EventBus, "publish">; logger: Logger },
    private readonly limits = BATCH_LIMITS,
  ) {
    this.maxInFlight = isMysql(deps.db) ? 2 : 1;
  }

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
      this.queue.push({ sends, resolve, reject, attempt: 0 });
      this.schedule();
    });
  }

  /**
   * Calls `listener` with each batch's messages once they are committed and their events published,
   * in this process only (the one that wrote them): outgoing webhooks are sent from here, so exactly
   * once however many processes run. A listener must not block: it is called synchronously.
   */
  onCommitted(listener: (sent: CommittedSend[]) => void): void {
    this.committedListeners.push(listener);
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
      this.schedule();
    };
  }

  /** Waits until every accepted send is committed (or failed) and published: for shutdown. */
  async close(): Promise<void> {
    this.held = false;
    this.schedule();
    while (this.queue.length > 0 || this.inFlight.size > 0) {
      await (this.inFlight.size > 0 ? Promise.race(this.inFlight) : new Promise((resolve) => setImmediate(resolve)));
    }
    await this.published;
  }

  private canTake(): boolean {
    return !this.held && this.queue.length > 0 && this.inFlight.size < this.maxInFlight;
  }

  /**
   * Takes the next batch soon: after the I/O already waiting has been read, so that the requests
   * which arrived meanwhile join it. On SQLite a whole transaction runs in promise callbacks only
   * (the driver is synchronous): without this yield no other request is read during one, and every
   * batch held a single send (measured: 380 batches for 380 sends at 50 connections). An idle
   * server still commits at once.
   */
  private schedule(): void {
    if (this.takeScheduled || !this.canTake()) return;
    this.takeScheduled = true;
    setImmediate(() => {
      this.takeScheduled = false;
      if (!this.canTake()) return;
      const running = this.commit(this.take())
        .catch((err) => this.deps.logger.error({ err }, "message group commit failed"))
        .finally(() => {
          this.inFlight.delete(running);
          this.schedule();
        });
      this.inFlight.add(running);
      this.schedule();
    });
  }

  /**
   * Everything waiting, in order, up to the bounds (a job bigger than them goes alone, and so does a
   * job written again after a failure).
   */
  private take(): Batch {
    const jobs = [this.queue.shift()!];
    let messages = jobs[0].sends.length;
    let rows = recipientRows(jobs[0]);
    while (jobs[0].attempt === 0 && this.queue.length > 0) {
      const next = this.queue[0];
      if (next.attempt !== 0) break;
      if (messages + next.sends.length > this.limits.maxMessages) break;
      if (rows + recipientRows(next) > this.limits.maxRecipientRows) break;
      jobs.push(this.queue.shift()!);
      messages += next.sends.length;
      rows += recipientRows(next);
    }
    if (jobs[0].attempt === 0) {
      this.stats.batches += 1;
      this.stats.messages += messages;
      this.stats.largestBatch = Math.max(this.stats.largestBatch, messages);
    }
    const ids = takeTurn(this.idsTaken);
    const publication = takeTurn(this.published);
    this.idsTaken = ids.ended;
    this.published = publication.ended;
    return { jobs, ids: ids.turn, publication: publication.turn };
  }

  private async commit(batch: Batch): Promise<void> {
    let written: WrittenSends | undefined;
    try {
      return void this.publish(batch, await this.write(batch, (w) => (written = w)));
    } catch (err) {
      // Every write was made and still the transaction failed: the COMMIT's answer was lost.
      const stored = written ? await this.checkCommitted(batch, written, err) : "absent";
      if (stored === "stored") return void this.publish(batch, written!);
      // Nothing of the batch is stored (or nobody can tell): its turn to publish passes.
      void batch.publication.begun.then(batch.publication.end);
      if (stored === "absent") return this.retry(batch.jobs, err);
      const unknown = Errors.commitOutcomeUnknown(COMMIT_CHECK.attempts);
      for (const job of batch.jobs) job.reject(unknown);
    } finally {
      batch.ids.end(); // also when the transaction failed before its INSERT
    }
  }

  /** `onWritten` sees the batch's rows as written, before the COMMIT. */
  private write(batch: Batch, onWritten: (written: WrittenSends) => void): Promise<WrittenSends> {
    const sends = batch.jobs.flatMap((job) => job.sends);
    const rowByRow = batch.jobs[0].attempt !== 0;
    return withTransaction(this.deps.db, async (trx) => {
      const written = await writeSends(trx, sends, { rowByRow, idOrder: batch.ids });
      onWritten(written);
      return written;
    });
  }

  /**
   * Whether a batch whose COMMIT failed is stored: its message ids, with the sender and date each
   * was written with (so an id handed out again after a rollback is not taken for ours). SQLite's
   * commit runs in this process and cannot lose its answer, so only MySQL asks.
   */
  private async checkCommitted(
    batch: Batch,
    written: WrittenSends,
    err: unknown,
  ): Promise<"stored" | "absent" | "unknown"> {
    if (!isMysql(this.deps.db)) return "absent";
    const sends = batch.jobs.flatMap((job) => job.sends);
    for (let attempt = 1; attempt <= COMMIT_CHECK.attempts; attempt++) {
      try {
        const found = await storedMessageKeys(this.deps.db, written.ids);
        const ours = found.filter((row) => {
          const k = written.ids.indexOf(row.id);
          return row.sender_id === sends[k].row.sender_id && row.date_sent === written.dateSent;
        });
        const outcome = ours.length === written.ids.length ? "stored" : ours.length === 0 ? "absent" : "unknown";
        this.deps.logger.warn(
          { err, messages: written.ids.length, outcome },
          "the connection was lost during a group commit's COMMIT; looked for its messages",
        );
        return outcome;
      } catch (checkErr) {
        if (attempt === COMMIT_CHECK.attempts) {
          this.deps.logger.error(
            { err: checkErr, messageIds: written.ids },
            "could not tell whether a batch committed",
          );
          return "unknown";
        }
        await new Promise((resolve) => setTimeout(resolve, COMMIT_CHECK.pauseMs));
      }
    }
    return "unknown";
  }

  /**
   * The batch's transaction failed (rolled back). Its sends go back to the head of the queue, each
   * to be written alone, so only a bad one fails; they get ids after the batches already running,
   * and so publish after them. A send that failed alone is validated again: one that no longer
   * validates (its channel deleted meanwhile…) gets that 4xx; one that does is prepared afresh (an
   * upload deleted meanwhile is then left out) and tried once more. Only if that fails too does the
   * caller get the database's error.
   */
  private async retry(jobs: Job[], err: unknown): Promise<void> {
    if (jobs.length > 1) {
      this.stats.fallbacks += 1;
      this.deps.logger.warn({ err, sends: jobs.length }, "group commit failed; writing its sends one by one");
      this.queue.unshift(...jobs.map((job): Job => ({ ...job, attempt: 1 })));
      return;
    }
    const [job] = jobs;
    if (job.attempt === 2) return job.reject(job.firstError);
    const fresh: PreparedSend[] = [];
    try {
      for (const send of job.sends) fresh.push(await prepareSend(this.deps.db, send.input));
    } catch (invalid) {
      return job.reject(invalid instanceof ApiError ? invalid : err);
    }
    this.queue.unshift({ ...job, sends: fresh, attempt: 2, firstError: err });
  }

  /**
   * Committed: in the batch's turn (after the batches taken before it), builds and publishes its
   * events, then answers its callers. The next batch does not wait for this.
   */
  private async publish(batch: Batch, { ids, dateSent, returned }: WrittenSends): Promise<void> {
    const { jobs, publication } = batch;
    await publication.begun;
    try {
      const sends = jobs.flatMap((job) => job.sends);
      const notifications: Notification[] = [];
      for (const [k, send] of sends.entries())
        notifications.push(...(await sentNotifications(this.deps.db, send, ids[k], dateSent, returned[k])));
      await this.deps.bus.publish(notifications);
    } catch (err) {
      // The messages are stored: their senders are answered with the ids even so.
      this.deps.logger.error({ err }, "could not publish the events of committed messages");
    } finally {
      publication.end();
    }
    if (this.committedListeners.length > 0) {
      const sent = jobs.flatMap((job) => job.sends).map((send, k) => ({ send, id: ids[k], dateSent }));
      for (const listener of this.committedListeners) {
        try {
          listener(sent);
        } catch (err) {
          this.deps.logger.error({ err }, "a committed-message listener failed");
        }
      }
    }
    let i = 0;
    for (const job of jobs) job.resolve(job.sends.map(() => ids[i++]));
  }
}

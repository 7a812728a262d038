/**
 * One keyword index for a whole cluster (WORKERS=N): the primary process holds it, the workers ask it
 * over the cluster's IPC channel. N workers then neither hold N copies of the index nor rebuild it N
 * times after each write (docs/decisions/013-one-keyword-index-per-cluster.md).
 *
 * Correctness is the single-process rule: a worker's catalogue write sends `drop` before any later
 * search of that worker (one channel, delivered in order), the primary throws the index away and answers
 * "not built" until a fresh build is in, and the worker then asks SQL. A primary that does not answer
 * within a second is treated the same way.
 */
import cluster, { type Worker } from 'node:cluster';
import { LexemeMemo, type IndexAnswer, type KeywordSearch, type SearchIndex } from './search-index.ts';

type Ask = {
  type: 'search-index:ask';
  id: number;
  prefixes: string[];
  categoryIds: string[];
  offset: number;
  limit: number;
};
type Drop = { type: 'search-index:drop' };
type Answer = { type: 'search-index:answer'; id: number; answer: IndexAnswer | null };

const ANSWER_TIMEOUT_MS = 1000;

const isAsk = (m: unknown): m is Ask => (m as Ask | null)?.type === 'search-index:ask';
const isDrop = (m: unknown): m is Drop => (m as Drop | null)?.type === 'search-index:drop';
const isAnswer = (m: unknown): m is Answer => (m as Answer | null)?.type === 'search-index:answer';

/** In the primary: answers every worker's searches from `index` and drops it when a worker says so. */
export function serveSearchIndex(index: SearchIndex): void {
  cluster.on('message', (worker: Worker, message: unknown) => {
    if (isDrop(message)) index.drop();
    else if (isAsk(message)) {
      void index
        .search(message.prefixes, message.categoryIds, message.offset, message.limit)
        .catch(() => undefined)
        .then((answer) => {
          const reply: Answer = { type: 'search-index:answer', id: message.id, answer: answer ?? null };
          if (worker.isConnected()) worker.send(reply, undefined, () => {});
        });
    }
  });
}

/** In a worker: the primary's index, asked over IPC. */
export class ClusterSearchIndex implements KeywordSearch {
  private next = 0;
  private readonly waiting = new Map<number, (answer: IndexAnswer | undefined) => void>();
  private readonly lexemeMemo = new LexemeMemo();

  constructor(private readonly channel: NodeJS.Process = process) {
    channel.on('message', (message: unknown) => {
      if (!isAnswer(message)) return;
      const resolve = this.waiting.get(message.id);
      this.waiting.delete(message.id);
      resolve?.(message.answer ?? undefined);
    });
  }

  private send(message: Ask | Drop): boolean {
    if (!this.channel.send || !this.channel.connected) return false;
    this.channel.send(message, undefined, {}, () => {});
    return true;
  }

  async settled(): Promise<void> {}

  mayAnswer(): boolean {
    return Boolean(this.channel.connected);
  }

  drop(): void {
    this.send({ type: 'search-index:drop' });
  }

  search(
    prefixes: string[],
    categoryIds: readonly string[],
    offset: number,
    limit: number,
  ): Promise<IndexAnswer | undefined> {
    const id = ++this.next;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiting.delete(id);
        resolve(undefined);
      }, ANSWER_TIMEOUT_MS);
      this.waiting.set(id, (answer) => {
        clearTimeout(timer);
        resolve(answer);
      });
      if (!this.send({ type: 'search-index:ask', id, prefixes, categoryIds: [...categoryIds], offset, limit })) {
        clearTimeout(timer);
        this.waiting.delete(id);
        resolve(undefined);
      }
    });
  }

  lexemes(tsquery: string, stem: (q: string) => Promise<string>): Promise<string[] | null> {
    return this.lexemeMemo.lexemes(tsquery, stem);
  }
}

import { EventEmitter } from 'node:events';
import { Redis, type Cluster, type RedisOptions } from 'ioredis';

/** The part of a subscriber connection the pub/sub uses; a plain ioredis client is one. */
export interface Subscriber {
  on(event: 'message', listener: (channel: string, message: string) => void): unknown;
  subscribe(channel: string): Promise<unknown>;
  unsubscribe(channel: string): Promise<unknown>;
  quit(): Promise<unknown>;
}

type NodeAddress = { host: string; port: number };

/**
 * Subscriptions on a Redis Cluster through one plain connection to any one node: a classic
 * PUBLISH reaches every node of a cluster, so one node is enough. When that connection is lost,
 * it moves on to the next known node after a growing pause (100 ms up to 1 s) and subscribes
 * again to every channel. (ioredis's own cluster subscriber retries without any pause, thousands
 * of connection attempts a second with a busy CPU for as long as the cluster is down:
 * redis/ioredis issue #2030.) Messages published while it is moving are missed.
 *
 * @example
 *   const subscriber = new ClusterSubscriber(cluster, [{ host: '10.0.0.1', port: 7000 }], {});
 *   await subscriber.start();
 *   subscriber.on('message', (channel, message) => console.log(channel, message));
 *   await subscriber.subscribe('news');
 */
export class ClusterSubscriber extends EventEmitter implements Subscriber {
  readonly #channels = new Set<string>();
  #connection: Redis | null = null;
  #failures = 0;
  #timer: NodeJS.Timeout | undefined;
  #closed = false;

  constructor(
    private readonly cluster: Cluster,
    private readonly seeds: NodeAddress[],
    private readonly options: Omit<RedisOptions, 'host' | 'port'>,
  ) {
    super();
  }

  /** Connect to the first node that answers; rejects when none does. */
  async start(): Promise<void> {
    for (const node of this.#candidates()) if (await this.#connect(node)) return;
    throw new Error('no cluster node accepted the subscriber connection');
  }

  async subscribe(channel: string): Promise<void> {
    this.#channels.add(channel);
    try {
      if (!this.#connection) throw new Error('the subscriber is reconnecting');
      await this.#connection.subscribe(channel);
    } catch (err) {
      this.#channels.delete(channel);
      throw err;
    }
  }

  async unsubscribe(channel: string): Promise<void> {
    this.#channels.delete(channel);
    await this.#connection?.unsubscribe(channel);
  }

  async quit(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#timer);
    await this.#connection?.quit();
  }

  /** The nodes the cluster client knows now (masters and replicas both deliver), else the seeds. */
  #candidates(): NodeAddress[] {
    const known = this.cluster.nodes('all').map(({ options }) => ({ host: options.host ?? '127.0.0.1', port: options.port ?? 6379 }));
    return known.length ? known : this.seeds;
  }

  async #connect(node: NodeAddress): Promise<boolean> {
    const connection = new Redis({ ...this.options, ...node, lazyConnect: true, retryStrategy: () => null, autoResubscribe: false });
    connection.on('error', () => undefined);
    connection.on('message', (channel: string, message: string) => this.emit('message', channel, message));
    try {
      await connection.connect();
      if (this.#channels.size) await connection.subscribe(...this.#channels);
    } catch {
      connection.disconnect();
      return false;
    }
    if (this.#closed) {
      connection.disconnect();
      return true;
    }
    this.#connection = connection;
    this.#failures = 0;
    connection.once('end', () => {
      if (this.#connection !== connection) return;
      this.#connection = null;
      this.#reconnectLater();
    });
    return true;
  }

  #reconnectLater(): void {
    if (this.#closed) return;
    const failures = ++this.#failures;
    const reconnect = async () => {
      const candidates = this.#candidates();
      if (!(await this.#connect(candidates[failures % candidates.length]))) this.#reconnectLater();
    };
    this.#timer = setTimeout(() => void reconnect(), Math.min(failures * 100, 1000));
  }
}

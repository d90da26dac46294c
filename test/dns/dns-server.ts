import { createSocket, type Socket } from 'node:dgram';
import { createServer, type Server, type Socket as TcpSocket } from 'node:net';
import * as packet from 'dns-packet';

/** One resource record of the test zone, in dns-packet's answer form (name added by the server). */
export interface ZoneRecord {
  type: string;
  ttl?: number;
  data: unknown;
}

/** Names answered with a failure rcode instead of data. */
export type FailingNames = Record<string, 'SERVFAIL' | 'REFUSED'>;

export interface TestDnsServer {
  /** `127.0.0.1:<port>`, for DNS_SERVERS. */
  address: string;
  /** Every question received, with its transport. */
  queries: { transport: 'udp' | 'tcp'; name: string; type: string }[];
  close(): Promise<void>;
}

const RCODES = { NOERROR: 0, SERVFAIL: 2, NXDOMAIN: 3, REFUSED: 5 } as const;

/** Read on every query, so a test may change them while the server runs (`silent` to make it die or come back). */
export interface DnsServerOptions {
  failing?: FailingNames;
  /** Never answer at all. */
  silent?: boolean;
  /** UDP answers for these names go out this many milliseconds late. */
  delayMs?: Record<string, number>;
  /** The first UDP query for each of these names is dropped, as a lost datagram would be. */
  dropFirst?: readonly string[];
}

/**
 * A real authoritative DNS server on 127.0.0.1 (UDP and TCP on the same ephemeral port) serving
 * `zone`. UDP answers larger than the client's limit (512, or its EDNS size) are sent truncated
 * (TC bit, no answers) so the client must retry over TCP. `silent: true` never answers at all.
 *
 * @example
 *   const dns = await startDnsServer({ 'example.test': [{ type: 'A', data: '192.0.2.1' }] });
 *   buildTestApp({ env: { DNS_SERVERS: dns.address } });
 */
export async function startDnsServer(zone: Record<string, ZoneRecord[]>, options: DnsServerOptions = {}): Promise<TestDnsServer> {
  const queries: TestDnsServer['queries'] = [];
  const records = new Map(Object.entries(zone).map(([name, rrs]) => [name.toLowerCase(), rrs]));

  function answer(query: packet.Packet, transport: 'udp' | 'tcp'): Buffer {
    const question = query.questions![0]!;
    const name = question.name.toLowerCase();
    queries.push({ transport, name, type: question.type });
    const failure = options.failing?.[name];
    const own = records.get(name);
    const rcode = failure ? RCODES[failure] : own ? RCODES.NOERROR : RCODES.NXDOMAIN;
    const answers = own && !failure ? selectAnswers(name, question.type) : [];
    const response = (truncated: boolean) =>
      packet.encode({
        type: 'response',
        id: query.id,
        questions: [question],
        flags: packet.AUTHORITATIVE_ANSWER | packet.RECURSION_DESIRED | (truncated ? packet.TRUNCATED_RESPONSE : 0) | rcode,
        answers: truncated ? [] : (answers as packet.Answer[]),
      });
    const full = response(false);
    const opt = query.additionals?.find((a) => a.type === 'OPT') as { udpPayloadSize?: number } | undefined;
    const limit = Math.max(512, opt?.udpPayloadSize ?? 512);
    return transport === 'udp' && full.length > limit ? response(true) : full;
  }

  function selectAnswers(name: string, type: string): object[] {
    const rrs = records.get(name) ?? [];
    const direct = rrs.filter((r) => r.type === type).map((r) => ({ name, ttl: 300, ...r }));
    const cname = rrs.find((r) => r.type === 'CNAME');
    if (direct.length > 0 || !cname || type === 'CNAME') return direct;
    return [{ name, ttl: 300, ...cname }, ...selectAnswers(String(cname.data).toLowerCase(), type)];
  }

  /** A UDP socket answering from the zone. */
  const openUdp = (): Socket => {
    const udp = createSocket('udp4');
    udp.on('message', (msg, peer) => {
      if (options.silent) {
        queries.push({ transport: 'udp', name: packet.decode(msg).questions![0]!.name, type: 'silent' });
        return;
      }
      const query = packet.decode(msg);
      const name = query.questions![0]!.name.toLowerCase();
      if (options.dropFirst?.includes(name) && !dropped.has(name)) {
        dropped.add(name);
        queries.push({ transport: 'udp', name, type: 'dropped' });
        return;
      }
      const reply = answer(query, 'udp');
      const delay = options.delayMs?.[name] ?? 0;
      if (delay === 0) udp.send(reply, peer.port, peer.address);
      else {
        const timer = setTimeout(() => {
          late.delete(timer);
          udp.send(reply, peer.port, peer.address);
        }, delay);
        late.add(timer);
      }
    });
    return udp;
  };
  const dropped = new Set<string>();
  const late = new Set<NodeJS.Timeout>();

  const sockets = new Set<TcpSocket>();
  const tcp: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    let buffered = Buffer.alloc(0);
    socket.on('data', (chunk) => {
      buffered = Buffer.concat([buffered, chunk]);
      while (buffered.length >= 2 && buffered.length >= 2 + buffered.readUInt16BE(0)) {
        const length = buffered.readUInt16BE(0);
        const query = packet.decode(buffered.subarray(2, 2 + length));
        buffered = buffered.subarray(2 + length);
        if (options.silent) continue;
        const reply = answer(query, 'tcp');
        const framed = Buffer.alloc(2 + reply.length);
        framed.writeUInt16BE(reply.length, 0);
        reply.copy(framed, 2);
        socket.write(framed);
      }
    });
    socket.on('error', () => socket.destroy());
  });
  // A free UDP port's TCP twin may be taken (another test's connection): then try another port.
  let udp: Socket;
  let port: number;
  for (let attempt = 1; ; attempt++) {
    udp = openUdp();
    await new Promise<void>((resolve) => udp.bind(0, '127.0.0.1', resolve));
    port = udp.address().port;
    try {
      await new Promise<void>((resolve, reject) => {
        tcp.once('error', reject);
        tcp.listen(port, '127.0.0.1', () => {
          tcp.off('error', reject);
          resolve();
        });
      });
      break;
    } catch (err) {
      await new Promise<void>((resolve) => udp.close(() => resolve()));
      if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE' || attempt === 20) throw err;
    }
  }

  return {
    address: `127.0.0.1:${port}`,
    queries,
    async close() {
      for (const timer of late) clearTimeout(timer);
      await new Promise<void>((resolve) => udp.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => tcp.close(() => resolve()));
    },
  };
}

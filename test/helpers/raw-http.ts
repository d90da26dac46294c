import { connect, createServer, type AddressInfo, type Server } from 'node:net';

/** Bytes from text (one byte per character) and byte lists. */
export const bytes = (...parts: (string | number[])[]) =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : Buffer.from(p))));
export const CRLF = '\r\n';

/** Send raw bytes over a fresh loopback connection and collect everything until the server closes it. */
export function exchange(port: number, request: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect(port, '127.0.0.1', () => socket.write(request));
    socket.on('data', (c) => chunks.push(c));
    socket.on('end', () => resolve(Buffer.concat(chunks)));
    socket.on('error', reject);
  });
}

/** A replay target that keeps the raw bytes of each request and answers with `answer` (raw bytes too). */
export async function startRawTarget(answer: Buffer): Promise<{ port: number; received: Buffer[]; close(): Promise<void> }> {
  const received: Buffer[] = [];
  const server: Server = createServer((socket) => {
    let data = Buffer.alloc(0);
    socket.on('data', (c) => {
      data = Buffer.concat([data, c]);
      const end = data.indexOf('\r\n\r\n');
      if (end === -1) return;
      const length = Number(/\r\ncontent-length: *(\d+)/i.exec(data.subarray(0, end).toString('latin1'))?.[1] ?? 0);
      if (data.length < end + 4 + length) return;
      received.push(data);
      socket.end(answer);
    });
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, received, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** The lines of a raw request head, as bytes read one character per byte. */
export const headLines = (raw: Buffer) => raw.subarray(0, raw.indexOf('\r\n\r\n')).toString('latin1').split(CRLF);

/** The values of every line of header `name` (case-insensitive) in a request head, as sent. */
export const sentLines = (lines: string[], name: string) =>
  lines.filter((l) => l.toLowerCase().startsWith(`${name}:`)).map((l) => l.slice(name.length + 1).trim());

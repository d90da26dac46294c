import http from 'node:http';

/** One response as a client sees it. */
export interface SeenResponse {
  status: number;
  headers: Record<string, unknown>;
  body: string;
}

/**
 * One request over a new loopback connection (the socket path real clients take).
 * A body is sent with its Content-Length: Node's client frames a GET body no other way.
 *
 * @example
 *   const seen = await overSocket(base, '/v1/mock/mock_x', 'GET', { 'x-request-id': 'r-1' });
 */
export function overSocket(
  base: string,
  path: string,
  method: string,
  headers: Record<string, string>,
  body?: string,
): Promise<SeenResponse> {
  return new Promise((resolve, reject) => {
    const framed = body === undefined ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body)) };
    const req = http.request(`${base}${path}`, { method, agent: false, headers: framed }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * What a response says, less what differs from one response to the next (date, connection) and
 * any `request_id` in its body: two entry points answering alike compare equal.
 */
export function comparable({ status, headers, body }: SeenResponse): SeenResponse {
  const { date: _date, connection: _connection, 'keep-alive': _keepAlive, ...rest } = headers;
  return { status, headers: rest, body: body.replace(/"request_id":"req_[A-Za-z0-9_-]+"/, '"request_id":"…"') };
}

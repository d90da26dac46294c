import { ServerResponse } from 'node:http';

/**
 * The server's response class: it can call one function when the answer has been handed to Node
 * (`end()`), for the fast routes' request metrics. A `'finish'` listener would do the same later,
 * but every response already has Node's own listener, and a second one turns it into a list that
 * each emit copies (about 1 µs of a mock hit in `perf`). A response destroyed before `end()` (the
 * client gone during a mock's delay) is not reported, as it would not have finished either.
 */
export class AnsweredResponse<Request extends import('node:http').IncomingMessage = import('node:http').IncomingMessage> extends ServerResponse<Request> {
  /** Called once, right after `end()` hands the answer to Node; cleared before it runs. */
  onAnswered: (() => void) | null = null;

  override end(chunk?: unknown, encoding?: unknown, callback?: unknown): this {
    super.end(chunk as never, encoding as never, callback as never);
    const answered = this.onAnswered;
    if (answered !== null) {
      this.onAnswered = null;
      answered();
    }
    return this;
  }
}

/**
 * Call `answered` once the response's answer is handed to Node: at `end()` on the server's own
 * responses ({@link AnsweredResponse}), at `'finish'` on any other.
 *
 * @example
 *   whenAnswered(res, () => record(req.method, res.statusCode, performance.now() - started));
 */
export function whenAnswered(res: ServerResponse, answered: () => void): void {
  if (res instanceof AnsweredResponse) res.onAnswered = answered;
  else res.on('finish', answered);
}

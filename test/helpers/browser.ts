import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';
import { startServiceProcess, type ServiceProcess } from './processes.js';

export const CHROMIUM = '/usr/bin/chromium';

/** Nothing that would reach the network on its own: no updates, sync, QUIC or GPU process. */
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** Where the web app keeps the signed-in key (web/src/session.ts). */
const KEY_STORAGE_NAME = 'devutil.apiKey';

/**
 * Why browser tests cannot run here (undefined when they can), for `describe(name, { skip })`;
 * with REQUIRE_BROWSER=1 a missing Chromium is an error instead.
 */
export function browserSkipReason(): string | undefined {
  if (existsSync(CHROMIUM)) return undefined;
  if (process.env.REQUIRE_BROWSER === '1') throw new Error(`REQUIRE_BROWSER=1 but ${CHROMIUM} is not installed`);
  return `${CHROMIUM} is not installed (REQUIRE_BROWSER=1 makes this an error)`;
}

/** The newest file under `dir` (recursively), as [path, mtime in ms]. */
function newestFile(dir: string): [string, number] {
  let newest: [string, number] = ['', 0];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    const found: [string, number] = entry.isDirectory() ? newestFile(path) : [path, statSync(path).mtimeMs];
    if (found[1] > newest[1]) newest = found;
  }
  return newest;
}

/** The browser tests drive the build in dist/: fail at once, saying so, when it is missing or older than its sources. */
function assertBuilt(): void {
  const index = join('dist', 'web', 'index.html');
  if (!existsSync(index) || !existsSync(join('dist', 'src', 'cli', 'main.js'))) throw new Error('dist/ has no web app: run npm run build');
  const built = statSync(index).mtimeMs;
  for (const dir of ['src', 'web']) {
    const [path, mtime] = newestFile(dir);
    if (mtime > built) throw new Error(`${path} is newer than the build in dist/: run npm run build`);
  }
}

/** What went wrong in a page that the app should never cause. */
export interface PageProblems {
  /** Console errors and uncaught exceptions, CSP refusals reported by Chromium included. */
  consoleErrors: string[];
  /** `securitypolicyviolation` events: the directive and what it blocked. */
  cspViolations: string[];
  /** Requests to another origin, each aborted before it left the browser. */
  foreignRequests: string[];
}

export interface AppPage {
  page: Page;
  context: BrowserContext;
  problems: PageProblems;
  /**
   * API answers of 4xx/5xx, as `GET /v1/account 401`: expected in some flows (a wrong key), so kept
   * apart from the console errors Chromium logs for them.
   */
  apiErrors: string[];
  /** Fail unless no console error, CSP violation or request to another origin happened so far. */
  assertNoProblems(): void;
  /** Accessibility violations found by axe-core in the page as it is now (id, impact, elements). */
  axeViolations(): Promise<{ id: string; impact: string | null; help: string; targets: string[] }[]>;
  close(): Promise<void>;
}

export interface OpenOptions {
  /** Browser context options (viewport, colorScheme, ...). */
  context?: BrowserContextOptions;
}

export interface WebApp {
  /** The service's origin, e.g. `http://127.0.0.1:40123`. */
  url: string;
  /** The key the service printed on its first start (`API key: ...`). */
  apiKey: string;
  service: ServiceProcess;
  /** A fresh browser profile (empty storage, signed out) at `path`. */
  openPage(path?: string, options?: OpenOptions): Promise<AppPage>;
  /** A fresh profile signed in with `key` (default {@link apiKey}), at `path` once the app shell shows. */
  openSignedIn(path?: string, options?: OpenOptions & { key?: string }): Promise<AppPage>;
  /**
   * Call the service's API with the key (to set up what a view shows); any non-2xx throws.
   *
   * @example
   *   const { bin } = await web.api<{ bin: { bin_id: string } }>('POST', '/v1/bins', { name: 'orders' });
   */
  api<T = unknown>(method: string, path: string, body?: unknown): Promise<T>;
  close(): Promise<void>;
}

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** Watch a fresh context: console errors, CSP violations, and requests to another origin (aborted). */
async function watchContext(context: BrowserContext, origin: string) {
  const problems: PageProblems = { consoleErrors: [], cspViolations: [], foreignRequests: [] };
  const apiErrors: string[] = [];
  context.on('console', (message) => {
    if (message.type() !== 'error') return;
    // Chromium logs every 4xx/5xx fetch; for the API that is an answer the app shows, not a fault.
    const source = message.location().url;
    if (message.text().startsWith('Failed to load resource: the server responded') && source.startsWith(`${origin}/v1/`)) return;
    problems.consoleErrors.push(source === '' ? message.text() : `${message.text()} (${source})`);
  });
  context.on('weberror', (error) => problems.consoleErrors.push(`uncaught: ${error.error().message}`));
  context.on('response', (response) => {
    const url = new URL(response.url());
    if (url.origin === origin && url.pathname.startsWith('/v1/') && response.status() >= 400)
      apiErrors.push(`${response.request().method()} ${url.pathname} ${response.status()}`);
  });
  await context.exposeBinding('__devutilReportCsp', (_source, text: string) => void problems.cspViolations.push(text));
  await context.addInitScript({
    content:
      "document.addEventListener('securitypolicyviolation', (e) => window.__devutilReportCsp(`${e.effectiveDirective} blocked ${e.blockedURI || 'inline'}${e.sourceFile ? ` at ${e.sourceFile}:${e.lineNumber}` : ''}`));",
  });
  await context.route('**/*', async (route) => {
    const url = route.request().url();
    if (new URL(url).origin === origin) return route.continue();
    problems.foreignRequests.push(url);
    return route.abort('blockedbyclient');
  });
  return { problems, apiErrors };
}

/**
 * Start the built service (dist/) on a loopback port with a fresh DATA_DIR, and Chromium beside it.
 * Each page gets a fresh profile; close() stops both.
 *
 * @example
 *   const web = await startWebApp();
 *   const { page, assertNoProblems } = await web.openSignedIn('/bins');
 *   await page.getByRole('button', { name: 'New bin' }).click();
 *   assertNoProblems();
 *   await web.close();
 */
export async function startWebApp(env: Record<string, string> = {}): Promise<WebApp> {
  assertBuilt();
  const service = await startServiceProcess(env, { built: true });
  let browser: Browser | undefined;
  try {
    const apiKey = /^API key: (dk_\w+)$/m.exec(service.output())?.[1];
    if (apiKey === undefined) throw new Error(`the service printed no API key: ${service.output()}`);
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
    const launched = browser;
    const origin = service.url;

    const openPage = async (path = '/', options: OpenOptions & { storage?: Record<string, string> } = {}): Promise<AppPage> => {
      const storage = Object.entries(options.storage ?? {}).map(([name, value]) => ({ name, value }));
      const context = await launched.newContext({
        ...options.context,
        storageState: { cookies: [], origins: storage.length > 0 ? [{ origin, localStorage: storage }] : [] },
      });
      context.setDefaultTimeout(10_000);
      const { problems, apiErrors } = await watchContext(context, origin);
      const page = await context.newPage();
      await page.goto(origin + path);
      return {
        page,
        context,
        problems,
        apiErrors,
        assertNoProblems: () => assert.deepEqual(problems, { consoleErrors: [], cspViolations: [], foreignRequests: [] }),
        async axeViolations() {
          await page.evaluate(AXE_SOURCE);
          return page.evaluate(
            "axe.run(document, { resultTypes: ['violations'] }).then((r) => r.violations.map((v) => ({ id: v.id, impact: v.impact ?? null, help: v.help, targets: v.nodes.map((n) => n.target.join(' ')) })))",
          );
        },
        close: () => context.close(),
      };
    };

    return {
      url: origin,
      apiKey,
      service,
      openPage: (path, options) => openPage(path, options),
      async openSignedIn(path = '/', options = {}) {
        const opened = await openPage(path, { ...options, storage: { [KEY_STORAGE_NAME]: options.key ?? apiKey } });
        await opened.page.getByRole('button', { name: 'Sign out' }).waitFor();
        return opened;
      },
      async api<T>(method: string, path: string, body?: unknown): Promise<T> {
        const res = await fetch(origin + path, {
          method,
          headers: { 'x-api-key': apiKey, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        const text = await res.text();
        if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${text}`);
        return (text === '' ? undefined : JSON.parse(text)) as T;
      },
      async close() {
        await launched.close();
        await service.stop();
      },
    };
  } catch (err) {
    await browser?.close();
    await service.stop();
    throw err;
  }
}

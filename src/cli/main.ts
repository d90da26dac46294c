#!/usr/bin/env node
import { runCli } from './program.js';

const code = await runCli(process.argv.slice(2));
// Exit at once once output is flushed: idle keep-alive sockets would otherwise hold the process for seconds.
if (code !== undefined) process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));

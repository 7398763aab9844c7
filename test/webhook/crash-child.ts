// Child process for the crash test: starts an outbox, publishes one event, prints its id, then idles until killed.
import pino from 'pino';
import { WebhookOutbox } from '../../src/webhook/outbox.js';
import { streamStartedEvent } from './helpers.js';

const [workDir, url] = process.argv.slice(2);
const outbox = new WebhookOutbox({ workDir, getSettings: () => ({ webHookUrlsV2: url }), logger: pino({ level: 'silent' }) });
await outbox.start();
process.stdout.write(`${outbox.publish(streamStartedEvent())}\n`);
setInterval(() => undefined, 60_000);

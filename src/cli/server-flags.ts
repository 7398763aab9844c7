// brec's shared options of `run` and `portable`: HTTP bind, auth, certificates, log levels; parsed into service options.
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import type { ApiServerOptions } from '../api/server.js';
import { initLogger, LOG_FORMATS, type LogFormat } from '../log/logger.js';
import { bindFlag, boolFlag, choiceFlag, intFlag, usage } from './flag-values.js';

export interface ServerFlags {
  bind?: string;
  httpBind?: string;
  httpBasicUser?: string;
  httpBasicPass?: string;
  httpOpenAccess?: boolean;
  httpCorsOrigin?: string[];
  httpMaxConnections?: number;
  httpMaxConnectionsPerClient?: number;
  enableFileBrowser?: boolean;
  loglevel?: string;
  logfilelevel?: string;
  certPemPath?: string;
  certKeyPath?: string;
  certPfxPath?: string;
  certPassword?: string;
  roomsPerWorker?: number;
  logFormat?: LogFormat;
}

/** The most room actors one worker thread may hold (--rooms-per-worker). */
export const MAX_ROOMS_PER_WORKER = 1024;

/** A failed start (not a usage error): one line on stderr, exit 1. */
export function fail(message: string): never {
  process.stderr.write(`liverec: ${message}\n`);
  process.exit(1);
}

export function addServerOptions(cmd: Command): Command {
  return cmd
    .option('-b, --bind <url|port>', 'serve the HTTP API (bare port = localhost; default port 2356); without it the API is off', bindFlag)
    .option('--http-bind <url|port>', 'same as --bind', bindFlag)
    .option('--http-basic-user <user>', 'Basic auth user (or BREC_HTTP_BASIC_USER)')
    .option('--http-basic-pass <pass>', 'Basic auth password (or BREC_HTTP_BASIC_PASS)')
    .option('--http-open-access', 'allow access from outside loopback/LAN without auth (or BREC_HTTP_OPEN_ACCESS)')
    .option('--http-cors-origin <origin>', 'an origin (http://host:port) trusted to call the API from a browser; repeatable or comma-separated; * = any (or LIVEREC_HTTP_CORS_ORIGIN)',
      (v: string, all: string[] = []) => [...all, ...v.split(',')])
    .option('--http-max-connections <n>', 'connections all clients may hold open at once; more are refused (default 2048; or LIVEREC_HTTP_MAX_CONNECTIONS)', intFlag(1, 1_000_000))
    .option('--http-max-connections-per-client <n>', 'connections one client address may hold open at once (default 256; or LIVEREC_HTTP_MAX_CONNECTIONS_PER_CLIENT)', intFlag(1, 1_000_000))
    .option('--enable-file-browser <bool>', 'serve /file and /api/file (default true)', boolFlag)
    .option('-l, --loglevel <level>', 'console log level: Verbose, Debug, Information, Warning, Error, Fatal (default Information)')
    .option('--log <level>', 'same as --loglevel')
    .option('--logfilelevel <level>', 'file log level (<workdir>/logs/bilirec<yyyyMMdd>.txt; default Debug)')
    .option('--flog <level>', 'same as --logfilelevel')
    .option('--log-format <format>', 'console log lines: pretty (default on a terminal) or json (default otherwise)', choiceFlag(LOG_FORMATS))
    .option('--cert-pem-path <file>', 'certificate (PEM) for an https:// bind')
    .option('--pem <file>', 'same as --cert-pem-path')
    .option('--cert-key-path <file>', 'private key (PEM) of --cert-pem-path')
    .option('--key <file>', 'same as --cert-key-path')
    .option('--cert-pfx-path <file>', 'certificate and key (PFX / PKCS#12) for an https:// bind')
    .option('--pfx <file>', 'same as --cert-pfx-path')
    .option('--cert-password <password>', 'password of the PFX or of an encrypted PEM key')
    .option('--rooms-per-worker <n>', 'room actors per worker thread (1 = a thread per room); default: up to 32 rooms on a thread before the next starts, at most one thread per core, then rooms spread evenly (at most 256 a thread)', intFlag(1, MAX_ROOMS_PER_WORKER));
}

/** Aliases declared as separate options (commander has one long name per option) folded into the main names. */
function fold(flags: ServerFlags & Record<string, unknown>): ServerFlags {
  const pick = (a: string, b: string): string | undefined => (flags[a] ?? flags[b]) as string | undefined;
  return {
    ...flags, bind: pick('bind', 'httpBind'), loglevel: pick('loglevel', 'log'), logfilelevel: pick('logfilelevel', 'flog'),
    certPemPath: pick('certPemPath', 'pem'), certKeyPath: pick('certKeyPath', 'key'), certPfxPath: pick('certPfxPath', 'pfx'),
  };
}

/**
 * brec's log file: `<workdir>/logs/bilirec.txt` rolled daily, or BILILIVERECORDER_LOG_FILE_PATH. Its lines wait
 * in memory until the service has started (startFileLog): a start that fails leaves no logs/ folder.
 */
export function initCliLogger(raw: ServerFlags, workDir: string): void {
  const flags = fold(raw as ServerFlags & Record<string, unknown>);
  const path = process.env.BILILIVERECORDER_LOG_FILE_PATH?.trim() || join(workDir, 'logs', 'bilirec.txt');
  try {
    initLogger({ level: flags.loglevel, format: flags.logFormat, file: { path: resolve(path), level: flags.logfilelevel ?? 'Debug', hold: true } });
  } catch (err) {
    usage((err as Error).message);
  }
}

function readOrFail(file: string, what: string): Buffer {
  if (!existsSync(file)) usage(`${what} ${file} not found`);
  return readFileSync(file);
}

/** brec: a PFX wins over PEM (with a warning); PEM needs both files; the password opens either. */
function certificate(flags: ServerFlags): ApiServerOptions['tls'] {
  const passphrase = flags.certPassword;
  if (flags.certPfxPath) {
    if (flags.certPemPath || flags.certKeyPath) process.stderr.write('liverec: both --cert-pfx-path and --cert-pem-path/--cert-key-path given; using the PFX\n');
    return { pfx: readOrFail(flags.certPfxPath, 'certificate file'), passphrase };
  }
  if (!flags.certPemPath && !flags.certKeyPath) return undefined;
  if (!flags.certPemPath) usage('--cert-key-path needs --cert-pem-path (the certificate PEM file)');
  if (!flags.certKeyPath) usage('--cert-pem-path needs --cert-key-path (the private key file)');
  return { cert: readOrFail(flags.certPemPath, 'certificate PEM file'), key: readOrFail(flags.certKeyPath, 'certificate key file'), passphrase };
}

/** The API options of the service, or undefined when no --bind was given (brec then runs without its web API). */
export function apiOptions(raw: ServerFlags): Omit<ApiServerOptions, 'recorder' | 'deliveries'> | undefined {
  const flags = fold(raw as ServerFlags & Record<string, unknown>);
  if (flags.bind === undefined) return undefined;
  return {
    bind: flags.bind, basicUser: flags.httpBasicUser, basicPass: flags.httpBasicPass, openAccess: flags.httpOpenAccess, corsOrigins: flags.httpCorsOrigin,
    maxConnections: flags.httpMaxConnections, maxConnectionsPerClient: flags.httpMaxConnectionsPerClient,
    fileBrowser: flags.enableFileBrowser ?? true,
    tls: certificate(flags),
  };
}

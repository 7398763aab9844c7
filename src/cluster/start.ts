// `liverec run --cluster`: the usual service, with rooms and settings from PostgreSQL and this node's share of the rooms.
import { hostname } from 'node:os';
import { ConfigStore } from '../config/store.js';
import { startService, type Service, type ServiceOptions } from '../service.js';
import { ClusterApi } from './api-routes.js';
import { openDb } from './db.js';
import { migrate } from './migrations.js';
import { ClusterNode, DEFAULT_TIMINGS, type ClusterTimings } from './node.js';
import { ClusterWebhookOutbox } from './webhook-outbox.js';
import type { GetWebhookSettings } from '../webhook/settings.js';
import { logger } from '../log/logger.js';
import { importAccountsFile, PgAccountStore } from './pg-account-store.js';

export interface ClusterOptions {
  url: string;
  nodeId?: string;
  maxRooms?: number;
  /** How other nodes reach this node's API; default: the local bind address. */
  advertise?: string;
  timings?: Partial<ClusterTimings>;
}

export async function startClusterService(options: Omit<ServiceOptions, 'config'> & { cluster: ClusterOptions }): Promise<Service & { node: ClusterNode }> {
  const db = openDb({ url: options.cluster.url });
  const leaseDb = openDb({ url: options.cluster.url, max: 1 });
  const pools = [db, leaseDb];
  try {
    await migrate(db);
    const { rows } = await db.query<{ config: Record<string, unknown> }>('SELECT config FROM liverec_global WHERE id = 1');
    // The node's own store holds the shared global settings and only the rooms this node leases.
    const config = ConfigStore.fromText(JSON.stringify({ version: 3, global: rows[0]?.config ?? {} }), 'cluster database');
    const node = new ClusterNode(db, leaseDb, {
      nodeId: options.cluster.nodeId ?? hostname(),
      advertise: options.cluster.advertise ?? null,
      maxRooms: options.cluster.maxRooms ?? 1000,
    }, { ...DEFAULT_TIMINGS, ...options.cluster.timings });
    const api = options.api ? { ...options.api, cluster: new ClusterApi(node) } : undefined;
    const outboxDb = openDb({ url: options.cluster.url, max: 2 });
    pools.push(outboxDb);
    const outbox = (getSettings: GetWebhookSettings) => new ClusterWebhookOutbox({ db: outboxDb, nodeId: node.identity.nodeId, getSettings });
    // The logins live in PostgreSQL; a node that had its own accounts.json brings it in once.
    const accountStore = new PgAccountStore(db, node.identity.nodeId);
    const imported = await importAccountsFile(accountStore, options.workDir);
    if (imported) logger().info({ added: imported.added }, `accounts.json imported into the cluster (${imported.added} new); the file is kept as ${imported.file}`);
    const service = await startService({ ...options, config, api, outbox, accountStore });
    node.identity.advertise ??= service.api?.url ?? null;
    await node.start(service.recorder);
    let closing: Promise<void> | null = null;
    return {
      ...service,
      node,
      close: () => (closing ??= (async () => {
        await node.stop();
        await service.close();
        await Promise.all(pools.map((p) => p.end()));
      })()),
    };
  } catch (err) {
    await Promise.all(pools.map((p) => p.end().catch(() => undefined)));
    throw err;
  }
}

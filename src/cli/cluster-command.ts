// `liverec cluster import` and the cluster flags of `liverec run` (--cluster, --node-id, --max-rooms, --advertise).
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { intFlag } from './flag-values.js';

export interface ClusterFlags {
  cluster?: string;
  nodeId?: string;
  maxRooms?: number;
  advertise?: string;
}

export function addClusterOptions(cmd: Command): Command {
  return cmd
    .option('--cluster <postgres-url>', 'join a liverec cluster on PostgreSQL (or LIVEREC_CLUSTER_URL); rooms and settings come from the database')
    .option('--node-id <id>', 'this node\'s name in the cluster (default: the host name)')
    .option('--max-rooms <n>', 'most rooms this node records (cluster capacity)', intFlag(1, 1_000_000))
    .option('--advertise <url>', 'URL other nodes use to reach this node\'s API (default: the bound address)');
}

/** The cluster settings of `run`, or null for a single machine with config.json. */
export function clusterSettings(flags: ClusterFlags) {
  const url = flags.cluster ?? process.env.LIVEREC_CLUSTER_URL;
  if (!url) return null;
  return { url, nodeId: flags.nodeId, maxRooms: flags.maxRooms, advertise: flags.advertise };
}

export function registerClusterCommands(program: Command): void {
  const cluster = program.command('cluster').description('manage a liverec cluster on PostgreSQL');
  cluster.command('import')
    .argument('<config.json>', 'a brec or liverec config (version 3)')
    .option('--cluster <postgres-url>', 'the cluster database (or LIVEREC_CLUSTER_URL)')
    .description('load the global settings and rooms of a config file into the cluster (existing rooms are updated)')
    .action(async (file: string, flags: { cluster?: string }) => {
      const url = flags.cluster ?? process.env.LIVEREC_CLUSTER_URL;
      if (!url) throw new Error('--cluster <postgres-url> (or LIVEREC_CLUSTER_URL) is required');
      const [{ openDb }, { migrate }, { importConfigFile }] = await Promise.all([
        import('../cluster/db.js'), import('../cluster/migrations.js'), import('../cluster/shared-config.js'),
      ]);
      const db = openDb({ url });
      try {
        await migrate(db);
        const { rooms } = await importConfigFile(db, resolve(file));
        process.stdout.write(`imported ${rooms} room(s) and the global settings into the cluster\n`);
      } finally {
        await db.end();
      }
    });
}

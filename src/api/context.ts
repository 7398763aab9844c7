// What every resource module gets: the recorder and the optional providers of the server options.
import type { HttpBindings } from '@hono/node-server';
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Recorder } from '../rooms/recorder.js';
import type { Room } from '../rooms/room.js';
import type { WebhookDelivery } from '../webhook/deliveries-schema.js';

/** `untrustedOrigin`: set by the cross-origin policy when it lets an untrusted origin through (auth is on). */
export type ApiEnv = { Bindings: HttpBindings; Variables: { untrustedOrigin?: boolean } };
export type ApiApp = OpenAPIHono<ApiEnv>;

export interface ApiDeps {
  recorder: Recorder;
  /** Recent webhook deliveries (the outbox's list); absent = an empty list. */
  deliveries?: () => WebhookDelivery[];
  /** Sends a recent delivery's bytes once more to its URL (the outbox's replay); null = no such delivery. */
  replayDelivery?: (eventId: string, url: string) => Promise<{ ok: boolean; status?: number; error?: string } | null>;
  /** brec's --enable-file-browser (default true): /api/file and /file/**. */
  fileBrowser?: boolean;
  /** Post-file jobs (GET /api/jobs); absent = an empty list. */
  jobs?: () => import('../post/job.js').PostJob[];
  /** Queues a clip job (POST /api/clips); absent = clips are refused. */
  clips?: { enqueue(roomId: number, source: string, params: Record<string, string | boolean | number>): import('../post/job.js').PostJob };
  /** Retention's dry run (GET /api/retention); absent = retention off, nothing listed. */
  retention?: () => import('../retention/plan.js').RetentionPlan;
  /** Sends a test notification to every NotifyUrls target (POST /api/notify/test); absent = an empty list. */
  notifyTest?: () => Promise<{ target: string; ok: boolean; error: string | null }[]>;
  /** Logins (GET/POST/DELETE /api/accounts…); absent = no accounts (cluster mode). */
  accounts?: Pick<import('../accounts/account-service.js').AccountService, 'list' | 'startQr' | 'qrStatus' | 'remove' | 'refresh'>;
  /** Cluster mode: routes that span every node, registered ahead of the single-node room routes. */
  cluster?: { register(app: ApiApp, deps: ApiDeps): void; rooms?: ClusterRoomOps };
}

/** Cluster mode: room membership lives in the shared database, so GraphQL's addRoom/removeRoom act there, as REST does. */
export interface ClusterRoomOps {
  /** Adds the room's shared row (placement picks its node); a placeholder for the answer, null when it exists already. */
  add(roomId: number, autoRecord: boolean): Promise<Room | null>;
  /** Deletes the room's shared row (its lease goes with it); a placeholder of it, null when there was none. */
  remove(roomId: number): Promise<Room | null>;
}

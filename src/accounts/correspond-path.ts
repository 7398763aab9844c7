// The correspond path of the web client's cookie refresh: `refresh_<ms>` sealed with the service's RSA-OAEP key.
import { constants, publicEncrypt } from 'node:crypto';

/**
 * The public key the web client uses (bilibili-API-collect docs/login/cookie_refresh.md, commit 7ffb221): RSA 1024,
 * OAEP with SHA-256. The simulator cannot decrypt what this key seals, so it checks the path's shape only.
 */
export const CORRESPOND_PUBLIC_KEY = `-----BEGIN PUBLIC KEY-----
MIGfMA0GCSqGSIb3DQEBAQUAA4GNADCBiQKBgQDLgd2OAkcGVtoE3ThUREbio0Eg
Uc/prcajMKXvkCKFCWhJYJcLkcM2DKKcSeFpD/j6Boy538YXnR6VhcuUJOhH2x71
nzPjfdTcqMz7djHum0qSZA0AyCBDABUqCrfNgCiJ00Ra7GmRj+YCK1NJEuewlb40
JNrRuoEUXpabUzGB8QIDAQAB
-----END PUBLIC KEY-----`;

/** 128 bytes of ciphertext as 256 lower-case hex digits. */
export function correspondPath(timestampMs: number, key = CORRESPOND_PUBLIC_KEY): string {
  const sealed = publicEncrypt({ key, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, Buffer.from(`refresh_${timestampMs}`));
  return sealed.toString('hex');
}

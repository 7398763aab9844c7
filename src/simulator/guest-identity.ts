// /x/frontend/finger/spi in the captured shape: a fresh guest buvid3 (b_3) and buvid4 (b_4) per call.
import { randomBytes, randomUUID } from 'node:crypto';

const digits = (n: number): string => [...randomBytes(n)].map((b) => String(b % 10)).join('');

/** `{code:0, data:{b_3, b_4}, message:'ok'}` (bac_x_frontend_finger_spi_b3_b4.json): b_3 = UUID + 5 digits + "infoc", b_4 = UUID + 5 digits + "-YYMMDDHH-" + base64. */
export function fingerSpiBody(now = new Date()): Record<string, unknown> {
  const up = (): string => randomUUID().toUpperCase();
  const stamp = now.toISOString().replace(/[-T:]/g, '').slice(2, 10);
  return {
    code: 0,
    data: { b_3: `${up()}${digits(5)}infoc`, b_4: `${up()}${digits(5)}-${stamp}-${randomBytes(18).toString('base64')}` },
    message: 'ok',
  };
}

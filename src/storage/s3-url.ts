// StorageS3Url: s3://KEY:SECRET@host[:port]/bucket[/prefix]?region=…&pathStyle=true&tls=false → client settings.
import { LiverecError } from '../errors.js';

export interface S3Target {
  endpoint: string;
  region: string;
  forcePathStyle: boolean;
  accessKeyId: string;
  secretAccessKey: string;
  bucket: string;
  /** Key prefix without leading or trailing slash ('' = the bucket's root). */
  prefix: string;
  /** The target without its secret, for logs and the UI. */
  redacted: string;
}

export function parseS3Url(text: string): S3Target {
  let u: URL;
  try {
    u = new URL(text.trim());
  } catch {
    throw new LiverecError('STORAGE_BAD_URL', 'StorageS3Url is not a URL like s3://KEY:SECRET@host:port/bucket/prefix');
  }
  if (u.protocol !== 's3:') throw new LiverecError('STORAGE_BAD_URL', `StorageS3Url must start with s3:// (not ${u.protocol}//)`);
  const [bucket, ...rest] = u.pathname.replace(/^\/+/, '').split('/');
  if (!u.hostname || !bucket) throw new LiverecError('STORAGE_BAD_URL', 'StorageS3Url needs a host and a bucket: s3://KEY:SECRET@host:port/bucket/prefix');
  if (!u.username || !u.password) throw new LiverecError('STORAGE_BAD_URL', 'StorageS3Url needs an access key and a secret: s3://KEY:SECRET@host/bucket');
  const tls = u.searchParams.get('tls') !== 'false';
  const prefix = rest.join('/').replace(/\/+$/, '');
  return {
    endpoint: `${tls ? 'https' : 'http'}://${u.host}`,
    region: u.searchParams.get('region') ?? 'us-east-1',
    forcePathStyle: u.searchParams.get('pathStyle') === 'true',
    accessKeyId: decodeURIComponent(u.username),
    secretAccessKey: decodeURIComponent(u.password),
    bucket, prefix,
    redacted: `s3://${u.host}/${bucket}${prefix ? `/${prefix}` : ''}`,
  };
}

/** The object key of a work-directory-relative path. */
export const objectKey = (t: S3Target, relativePath: string): string => (t.prefix ? `${t.prefix}/${relativePath}` : relativePath);

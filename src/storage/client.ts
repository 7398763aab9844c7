// The S3 client of a StorageS3Url: path-style or virtual-host, checksums only where S3 requires them.
import { S3Client } from '@aws-sdk/client-s3';
import type { S3Target } from './s3-url.js';

export function s3Client(t: S3Target): S3Client {
  return new S3Client({
    endpoint: t.endpoint, region: t.region, forcePathStyle: t.forcePathStyle,
    credentials: { accessKeyId: t.accessKeyId, secretAccessKey: t.secretAccessKey },
    // Trailing CRC checksums (aws-chunked bodies) are newer than many S3-compatible servers; MD5 ETags are checked instead.
    requestChecksumCalculation: 'WHEN_REQUIRED', responseChecksumValidation: 'WHEN_REQUIRED',
    maxAttempts: 3,
  });
}

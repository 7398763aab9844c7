// Child process of the kill -9 test: uploads one big recording to S3 through the post-file queue until killed.
import { fileClosed, startQueue } from '../post/queue-fixture.js';
import { uploadRunner } from './s3.js';

const [workDir, relativePath, url] = process.argv.slice(2);
const fx = startQueue(workDir!, { StorageS3Url: url! }, undefined, { runner: uploadRunner(url!, false) });
fx.bus.emit({ EventType: 'FileClosed', EventTimestamp: '', EventData: fileClosed(relativePath!) });
process.stdout.write('queued\n');

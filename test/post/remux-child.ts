// Child process of the kill -9 test: runs the post-file queue on one big FLV (remux, source deleted after) until killed.
import { startQueue, fileClosed } from './queue-fixture.js';

const [workDir, relativePath] = process.argv.slice(2);
const fx = startQueue(workDir!, { PostRemuxToMp4: 'mp4-delete-source' });
fx.bus.emit({ EventType: 'FileClosed', EventTimestamp: '', EventData: fileClosed(relativePath!) });
process.stdout.write('queued\n');

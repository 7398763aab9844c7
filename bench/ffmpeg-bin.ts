// The ffmpeg binary of the npm devDependency (shared with the simulator's clip generator).
export { ffmpegBin } from '../src/media/ffmpeg-bin.js';

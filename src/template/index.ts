// Public surface of the file-name template engine (used by the API and inside every room worker).
export { generateFileName, FileNameStatus, type FileNameContext, type FileNameOptions, type FileNameResult } from './file-name.js';
export { recordingPath, type RecordingPathOptions } from './recording-path.js';
export { sanitizeValue, sanitizeRenderedPath } from './sanitize.js';
export { formatQn } from './qn.js';
export { formatDotnetDate, ZonedTime } from './dotnet-date.js';

// A trajectory leaves the store as a folder to review in git, and comes back into any store.
declare const rote: import('rote').Rote;
declare const other: import('rote').Rote;
declare const result: import('rote').RunResult;

// #region docs
import { exportRecording, importRecording } from 'rote';

await exportRecording(rote.store, result.taskKey, 'recordings/intake');   // { nodes, crops }
const imported = await importRecording(other.store, 'recordings/intake', { baseURL: 'http://localhost:3000' });
// imported.taskKey is the key a run of imported.template on that origin computes
// #endregion

console.log(imported.taskKey);

import { openVsCode, requireRig, groupAlive } from './vscode/test/support/rig.ts';
const rig = await requireRig();
console.log(rig);
const t0 = Date.now();
const w = await openVsCode(rig!, '/work/wt-vscode/fixtures/ts-app', { extension: '/tmp/vsx/ext' });
console.log('record after', Date.now() - t0, w.record);
await w.close();
console.log('closed after', Date.now() - t0, 'alive?', groupAlive(w.pid));

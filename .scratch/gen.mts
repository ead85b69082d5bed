import { prepareRustWorkspace } from '../ide-adapter/lsp/rust-workspace.js';
const root = process.argv[2]!;
const p = await prepareRustWorkspace(root, { ...process.env, PATH: '/usr/bin:/bin' });
const proj = JSON.stringify((p.settings?.patch as any).linkedProjects[0], null, 1).replaceAll(root, '$ROOT');
console.log(proj);

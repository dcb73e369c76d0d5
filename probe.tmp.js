const engine = require('./test/tools/engine');
const { Container } = require('@n8n/di');
const { OutboundHttp } = require('@n8n/backend-network');
const emulator = require('./test/tools/emulator');
(async () => {
  await engine.initEngine();
  const emu = await emulator.startEmulator({ seed: 1 });
  let error;
  try {
    await Container.get(OutboundHttp).requests().request({ method: 'GET', url: `${emu.baseUrl}/geteventsandalbums`, headers: { Authorization: `Bearer SECRETKEY123456` } , body: { apiKey: 'SECRETKEY123456' }});
  } catch (e) { error = e; }
  const { toPlain } = require('./test/tools/engine/logs');
  console.log(error?.constructor?.name, Object.getOwnPropertyNames(error));
  const plain = JSON.stringify(toPlain(error));
  console.log('old toPlain finds key:', plain.includes('SECRETKEY123456'), plain.length);
  // where is the key?
  const seen = new Set(); const paths = [];
  const walk = (v, path, d) => { if (d > 12 || v === null || typeof v !== 'object' && typeof v !== 'string') return; if (typeof v === 'string') { if (v.includes('SECRETKEY123456')) paths.push(path); return; } if (seen.has(v)) return; seen.add(v);
    if (Buffer.isBuffer(v)) { if (v.toString('latin1').includes('SECRETKEY123456')) paths.push(path+'<buf>'); return; }
    for (const k of [...Object.getOwnPropertyNames(v), ...Object.getOwnPropertySymbols(v)]) { let x; try { x = v[k]; } catch { continue; } walk(x, path + '.' + String(k), d + 1); } };
  walk(error, 'error', 0);
  console.log(paths.slice(0, 20));
  await emu.close(); process.exit(0);
})();

// Loads a page in headless Chromium emulating a phone screen (Emulation.setDeviceMetricsOverride
// through the DevTools protocol, which sets the layout viewport below the 500 px a headless
// window can be), takes a screenshot and prints what the page's measuring script found (the
// text of its <pre id="gpuplan-check">), or why it could not.
// Usage: node phone_check.mjs PAGE_URL WIDTH SCREENSHOT.png PROFILE_DIR
// The protocol runs over --remote-debugging-pipe (file descriptors 3 and 4, messages ended by a
// NUL byte): no port, no WebSocket library, nothing fetched. Exit 0 when the findings were read.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';

const [url, widthText, screenshot, profile] = process.argv.slice(2);
const width = Number(widthText);
if (!url || !Number.isInteger(width) || width <= 0 || !screenshot || !profile) {
  console.error('usage: node phone_check.mjs PAGE_URL WIDTH SCREENSHOT.png PROFILE_DIR');
  process.exit(2);
}
const k_phone_height_px = 844; // a phone's portrait screen, CSS px
const k_phone_scale = 2; // device pixels per CSS px of a phone screen
const k_timeout_ms = 45000;

const browser = spawn('chromium', [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
  `--user-data-dir=${profile}`, '--remote-debugging-pipe', 'about:blank',
], { stdio: ['ignore', 'ignore', 'ignore', 'pipe', 'pipe'] });
const toBrowser = browser.stdio[3];
const fromBrowser = browser.stdio[4];

let nextId = 1;
const waiting = new Map(); // id -> {resolve, reject}
const listeners = []; // {method, sessionId, resolve}
let buffered = Buffer.alloc(0);

fromBrowser.on('data', (chunk) => {
  buffered = Buffer.concat([buffered, chunk]);
  for (let end = buffered.indexOf(0); end >= 0; end = buffered.indexOf(0)) {
    const message = JSON.parse(buffered.subarray(0, end).toString('utf8'));
    buffered = buffered.subarray(end + 1);
    if (message.id !== undefined && waiting.has(message.id)) {
      const { resolve, reject } = waiting.get(message.id);
      waiting.delete(message.id);
      if (message.error) {
        reject(new Error(message.error.message));
      } else {
        resolve(message.result);
      }
    } else if (message.method) {
      for (let i = listeners.length - 1; i >= 0; --i) {
        const l = listeners[i];
        if (l.method === message.method && l.sessionId === message.sessionId) {
          listeners.splice(i, 1);
          l.resolve(message.params);
        }
      }
    }
  }
});

function send(method, params = {}, sessionId = undefined) {
  const id = nextId++;
  const message = { id, method, params };
  if (sessionId) {
    message.sessionId = sessionId;
  }
  toBrowser.write(JSON.stringify(message) + '\0');
  return new Promise((resolve, reject) => waiting.set(id, { resolve, reject }));
}

function event(method, sessionId) {
  return new Promise((resolve) => listeners.push({ method, sessionId, resolve }));
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function run() {
  const { targetId } = await send('Target.createTarget', { url: 'about:blank' });
  const { sessionId } = await send('Target.attachToTarget', { targetId, flatten: true });
  await send('Emulation.setDeviceMetricsOverride', {
    width, height: k_phone_height_px, deviceScaleFactor: k_phone_scale, mobile: true,
  }, sessionId);
  await send('Page.enable', {}, sessionId);
  const loaded = event('Page.loadEventFired', sessionId);
  await send('Page.navigate', { url }, sessionId);
  await loaded;
  // The measuring script runs on the page's load event; read its findings once it has written
  // them.
  let findings = null;
  for (let attempt = 0; attempt < 50 && findings === null; ++attempt) {
    const { result } = await send('Runtime.evaluate', {
      expression: 'JSON.stringify({w: document.documentElement.scrollWidth, ' +
        'c: (document.getElementById("gpuplan-check") || {}).textContent || null})',
      returnByValue: true,
    }, sessionId);
    const value = JSON.parse(result.value);
    if (value.c !== null) {
      findings = value;
    } else {
      await sleep(100);
    }
  }
  const { data } = await send('Page.captureScreenshot', { format: 'png' }, sessionId);
  writeFileSync(screenshot, Buffer.from(data, 'base64'));
  if (findings === null) {
    throw new Error('the measuring script did not run');
  }
  // A phone widens its layout viewport to fit a page wider than the screen (and shrinks it to
  // fit), so the page's own check passes a wide page: measure it against the screen too.
  const problems = findings.c === 'ok' ? [] : [findings.c];
  if (findings.w > width) {
    problems.unshift(`page ${findings.w} px wide on a ${width} px phone screen`);
  }
  return problems.length ? problems.join('\n') : 'ok';
}

const timer = setTimeout(() => {
  console.log('timed out');
  browser.kill();
  process.exit(1);
}, k_timeout_ms);
let status = 0;
try {
  console.log(await run());
} catch (error) {
  console.log(error.message);
  status = 1;
}
clearTimeout(timer);
try {
  await Promise.race([send('Browser.close'), sleep(2000)]);
} catch {
  // The browser may close before it answers.
}
browser.kill();
process.exit(status);

/*
 * The sidebar (Sidebar.html) in a real browser, without Google: a page that holds the stand-ins of
 * fakes.js, Code.js itself, and a stand-in for google.script.run that calls Code.js's functions the way
 * Apps Script does (asynchronously, plain data only, private functions refused). Headless Chromium opens it
 * to check what the sidebar shows, and to take the README's screenshots:
 *
 *     node templates/apps-script/test/harness.js --screenshots docs/img
 */
'use strict';

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const {execFileSync} = require('node:child_process');

const HERE = path.join(__dirname, '..');

/** Chromium (or Chrome) on this machine, or null. */
function findChromium() {
  for (const name of ['chromium', 'chromium-browser', 'google-chrome']) {
    for (const dir of (process.env.PATH || '').split(path.delimiter)) {
      const file = path.join(dir, name);
      if (dir && fs.existsSync(file)) {
        return file;
      }
    }
  }
  return null;
}

const STAND_IN_RUN = `
window.google = {script: {run: (function () {
  function runner(success, failure) {
    var target = {
      withSuccessHandler: function (fn) { return runner(fn, failure); },
      withFailureHandler: function (fn) { return runner(success, fn); }
    };
    return new Proxy(target, {get: function (t, name) {
      if (name in t) { return t[name]; }
      return function () {
        var args = JSON.parse(JSON.stringify(Array.prototype.slice.call(arguments)));
        setTimeout(function () {
          try {
            if (/_$/.test(name) || typeof window[name] !== 'function') {
              throw new Error('Script function not found: ' + name);
            }
            var result = window[name].apply(null, args);
            if (success) { success(result === undefined ? undefined : JSON.parse(JSON.stringify(result))); }
          } catch (e) {
            if (failure) { failure(e); }
          }
        }, 40);
      };
    }});
  }
  return runner(null, null);
})()}};
`;

/**
 * The sidebar's page with the stand-ins: `control` (Control tab values by label), `format` ('swiss',
 * 'heats'), `timeZone`, `email`, and `scenario`: JavaScript run once the sidebar has started (it may use
 * `world`, the stand-ins' record, and `setControl(label, value)`, a write as sheetswiss watch makes one).
 */
function page(options) {
  const sidebar = fs.readFileSync(path.join(HERE, 'Sidebar.html'), 'utf8');
  const fakes = fs.readFileSync(path.join(__dirname, 'fakes.js'), 'utf8');
  const code = fs.readFileSync(path.join(HERE, 'Code.js'), 'utf8');
  // JSON inside a <script>: '<' escaped, so a cell holding </script> cannot end it
  const json = (value) => JSON.stringify(value).replace(/</g, '\\u003c');
  const setup = `
var world = SheetswissFakes.makeWorld({
  tabs: {Control: SheetswissFakes.controlTab(${json(options.control || {})},
                                             ${json(options.format === undefined ? 'swiss' : options.format)})},
  timeZone: ${json(options.timeZone || 'Europe/Paris')},
  email: ${json(options.email === undefined ? 'gm@example.org' : options.email)}
});
Object.keys(world.globals).forEach(function (name) { window[name] = world.globals[name]; });
function setControl(label, value) {
  world.sheet('Control').grid.forEach(function (row) { if (row[0] === label) { row[1] = value; } });
}
`;
  const head = ['<script>', fakes, '</script>', '<script>', setup, '</script>', '<script>', code, '</script>',
    '<script>', STAND_IN_RUN, '</script>'].join('\n');
  const tail = ['<pre id="sheet-state" hidden></pre>', '<script>', options.scenario || '',
    'setInterval(function () { document.getElementById("sheet-state").textContent = ' +
    'JSON.stringify(world.control()); }, 250);', '</script>'].join('\n');
  if (!sidebar.includes('<head>') || !sidebar.includes('</body>')) {
    throw new Error('Sidebar.html has no <head> or </body> to put the stand-ins in');
  }
  return sidebar.replace('<head>', '<head>\n' + head).replace('</body>', tail + '\n</body>');
}

const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run',
  '--hide-scrollbars'];

/** Opens `options`'s page in headless Chromium for `seconds` of (virtual) time: the DOM as it then stands. */
function render(chromium, options, seconds, extra) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sheetswiss-sidebar-'));
  try {
    const file = path.join(dir, 'sidebar.html');
    fs.writeFileSync(file, page(options));
    const args = FLAGS.concat([`--user-data-dir=${path.join(dir, 'profile')}`,
      `--virtual-time-budget=${Math.round(seconds * 1000)}`], extra || ['--dump-dom'], ['file://' + file]);
    return execFileSync(chromium, args, {cwd: dir, encoding: 'utf8', timeout: 60000, maxBuffer: 1 << 24,
      stdio: ['ignore', 'pipe', 'pipe']});
  } finally {
    fs.rmSync(dir, {recursive: true, force: true});
  }
}

/** The README's screenshots of the sidebar: a round paired, a refusal, a request waiting. */
const SHOTS = {
  'apps-script-sidebar-done.png': {
    control: {Command: 'pair', Status: 'done', 'Requested by': 'gm@example.org',
      'Requested at': '2026-11-24 10:02:11', Started: '2026-11-24 10:02:14', Finished: '2026-11-24 10:02:15',
      Output: 'Round 1: 6 tables; no rematches\n' +
        'Best possible pairing, checked: no other pairing of these players follows the pairing rules better\n' +
        '    1  Ana Lima  v  Gus Joshi\n    2  Bo Berg  v  Hana Lima\n    3  Caro Chen  v  Ivo Chen\n' +
        '    4  Dev Diaz  v  Jo Diaz\n    5  Eli Haas  v  Kai Chen\n    6  Fay Berg  v  Lea Diaz\n' +
        'Written: Results rows 2-7 (round 1), Pairings, Log'},
    height: 640
  },
  'apps-script-sidebar-refused.png': {
    control: {Command: 'pair', Status: 'refused', 'Requested by': 'gm@example.org',
      'Requested at': '2026-11-24 11:31:40', Started: '2026-11-24 11:31:42', Finished: '2026-11-24 11:31:42',
      Output: "Results!E4: cannot read 'W' as a result; accepted: 1-0, 0-1, 1/2 (or =, D, draw), game scores " +
        'such as 2-1 or 2-0-1, forfeits +/- -/+ --, bye, half bye (H), zero bye (Z)'},
    height: 520
  },
  'apps-script-sidebar-waiting.png': {
    control: {Command: 'seat', Heat: 2, Run: true, Status: 'done', 'Requested by': 'gm@example.org',
      'Requested at': '2026-11-24 14:00:03', Started: '2026-11-24 13:12:09', Finished: '2026-11-24 13:12:10',
      Output: ''},
    format: 'heats',
    height: 480
  }
};

function screenshots(outDir) {
  const chromium = findChromium();
  if (chromium === null) {
    throw new Error('Chromium is not installed here');
  }
  fs.mkdirSync(outDir, {recursive: true});
  for (const [name, options] of Object.entries(SHOTS)) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sheetswiss-shot-'));
    const shot = path.join(dir, 'shot.png');
    render(chromium, options, 2, [`--screenshot=${shot}`, `--window-size=300,${options.height}`,
      '--force-device-scale-factor=1']);
    fs.copyFileSync(shot, path.join(outDir, name));
    fs.rmSync(dir, {recursive: true, force: true});
    console.log(`${path.join(outDir, name)} written`);
  }
}

module.exports = {findChromium, page, render, SHOTS};

if (require.main === module && process.argv[2] === '--screenshots') {
  screenshots(process.argv[3] || 'docs/img');
}

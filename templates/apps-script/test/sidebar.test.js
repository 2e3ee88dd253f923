// The sidebar (Sidebar.html) in headless Chromium, talking to Code.js through a stand-in google.script.run:
// what it shows of the Control tab, and the request it writes.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const {findChromium, render} = require('./harness.js');

const CHROMIUM = findChromium();
const skip = CHROMIUM === null ? 'chromium is not installed here' : false;

function decode(text) {
  return text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'")
    .replace(/&nbsp;/g, '\u00a0').replace(/&amp;/g, '&');
}

/** The element with this id in a dumped DOM: {text, hidden, disabled, className}. */
function element(dom, id) {
  const match = new RegExp(`<(\\w+)([^>]*\\bid="${id}"[^>]*)>([\\s\\S]*?)</\\1>`).exec(dom);
  assert.ok(match, `the page has #${id}`);
  const attributes = match[2];
  const className = /\bclass="([^"]*)"/.exec(attributes);
  return {
    text: decode(match[3].replace(/<[^>]+>/g, '')),
    hidden: /\shidden(=""|\s|$)/.test(attributes),
    disabled: /\sdisabled(=""|\s|$)/.test(attributes),
    className: className ? className[1] : ''
  };
}

test('a finished request: Done, the command, who asked, and the output', {skip}, () => {
  const dom = render(CHROMIUM, {control: {
    Command: 'pair', Status: 'done', 'Requested by': 'gm@example.org', 'Requested at': '2026-11-24 10:02:11',
    Started: '2026-11-24 10:02:14', Finished: '2026-11-24 10:02:15',
    Output: 'Round 1: 6 tables; no rematches\n    1  Ana Lima  v  Gus Joshi\nWritten: Results rows 2-7 (round 1), Pairings, Log'
  }}, 2);
  assert.equal(element(dom, 'status').text, 'Done');
  assert.equal(element(dom, 'state').className, 'done');
  assert.equal(element(dom, 'what').text, 'sheetswiss pair');
  assert.equal(element(dom, 'asked').text, 'Asked by gm@example.org at 2026-11-24 10:02:11');
  assert.equal(element(dom, 'times').text, 'Started 2026-11-24 10:02:14, finished 2026-11-24 10:02:15');
  assert.equal(element(dom, 'output').text,
    'Round 1: 6 tables; no rematches\n    1  Ana Lima  v  Gus Joshi\nWritten: Results rows 2-7 (round 1), Pairings, Log');
  assert.equal(element(dom, 'problem').hidden, true);
  assert.equal(element(dom, 'ask').disabled, false);
  const options = element(dom, 'command').text;
  assert.match(options, /^pair: Pair the next round/);
  assert.ok(!options.includes('seat'), 'a Swiss event is not offered seat');
});

test('output and names are shown as text, never as markup', {skip}, () => {
  const dom = render(CHROMIUM, {control: {Command: 'standings', Player: '<img src=x onerror=alert(1)>',
    Status: 'done', 'Requested by': '<b>Ana</b>', Output: 'Ana <script>alert(1)</script> & Bo'}}, 2);
  const output = /<pre id="output"[^>]*>([\s\S]*?)<\/pre>/.exec(dom)[1];
  assert.equal(output, 'Ana &lt;script&gt;alert(1)&lt;/script&gt; &amp; Bo');
  assert.equal(element(dom, 'asked').text, 'Asked by <b>Ana</b>');
  assert.equal(element(dom, 'what').text, 'sheetswiss standings --explain "<img src=x onerror=alert(1)>"');
  assert.ok(!/<img src="?x/.test(dom), 'no element made from a cell');
});

test('a refusal shows the cell to fix', {skip}, () => {
  const refusal = "Results!E4: cannot read 'W' as a result; accepted: 1-0, 0-1, 1/2 (or =, D, draw)";
  const dom = render(CHROMIUM, {control: {Command: 'pair', Status: 'refused', Output: refusal}}, 2);
  assert.equal(element(dom, 'status').text, 'Refused');
  assert.equal(element(dom, 'state').className, 'refused');
  assert.equal(element(dom, 'output').text, refusal);
});

test('while a request runs, the sidebar says so and asks for nothing', {skip}, () => {
  const dom = render(CHROMIUM, {control: {Command: 'seat', Heat: 2, Status: 'running',
    Started: '2026-11-24 13:12:09', Output: 'sheetswiss seat --heat 2: running since 13:12:09'}, format: 'heats'}, 2);
  assert.equal(element(dom, 'status').text, 'Running');
  assert.equal(element(dom, 'what').text, 'sheetswiss seat --heat 2');
  assert.equal(element(dom, 'ask').disabled, true);
  assert.match(element(dom, 'why').text, /^sheetswiss is running seat \(started 2026-11-24 13:12:09\); ask again when Control!B12 says done/);
  assert.match(element(dom, 'checked').text, /read again every 3 s/);
});

test('no Control tab: the sidebar says what is missing', {skip}, () => {
  const dom = render(CHROMIUM, {control: {}, format: 'swiss', scenario: "world.sheet('Control').getName = " +
    "function () { return 'Old control'; };"}, 2);
  const problem = element(dom, 'problem');
  assert.equal(problem.hidden, false);
  assert.match(problem.text, /^This spreadsheet has no Control tab/);
  assert.equal(element(dom, 'state').hidden, true);
  assert.equal(element(dom, 'ask').disabled, true);
});

test('asking from the sidebar writes the request; the answer shows when watch has run it', {skip}, () => {
  const scenario = `
    setTimeout(function () {
      document.getElementById('command').value = 'seat';
      showOptions();
      document.getElementById('heat').value = '3';
      document.getElementById('dryRun').checked = true;
      document.getElementById('ask').click();
    }, 600);
    // sheetswiss watch, as it answers: takes the request, runs it, writes the status
    setTimeout(function () {
      setControl('Run', false); setControl('Status', 'running'); setControl('Started', '2026-11-24 14:00:05');
    }, 3000);
    setTimeout(function () {
      setControl('Status', 'done'); setControl('Finished', '2026-11-24 14:00:06');
      setControl('Output', 'Heat 3: 4 tables (dry run, nothing written)');
    }, 5000);
  `;
  const waiting = render(CHROMIUM, {control: {}, format: 'heats', scenario}, 2);
  assert.equal(element(waiting, 'status').text, 'Waiting for sheetswiss watch');
  assert.equal(element(waiting, 'what').text, 'sheetswiss seat --heat 3 --dry-run');
  assert.match(element(waiting, 'said').text, /^Asked sheetswiss for seat --heat 3 --dry-run \(Control!B9 ticked\)/);
  assert.equal(element(waiting, 'ask').disabled, true);
  const sheet = JSON.parse(element(waiting, 'sheet-state').text);
  assert.equal(sheet.Command, 'seat');
  assert.equal(sheet.Heat, 3);
  assert.equal(sheet['Dry run'], true);
  assert.equal(sheet.Run, true);
  assert.equal(sheet['Requested by'], 'gm@example.org');

  const done = render(CHROMIUM, {control: {}, format: 'heats', scenario}, 10);
  assert.equal(element(done, 'status').text, 'Done');
  assert.equal(element(done, 'output').text, 'Heat 3: 4 tables (dry run, nothing written)');
  assert.equal(element(done, 'ask').disabled, false);
  assert.match(element(done, 'checked').text, /read again every 15 s/);
});

test('pair offers Check beside Redo; asking with it writes Check into the Control tab', {skip}, () => {
  const form = render(CHROMIUM, {control: {}, format: 'swiss'}, 2);
  assert.equal(element(form, 'check-row').hidden, false, 'pair (the first command) shows Check');
  assert.equal(element(form, 'redo-row').hidden, false);
  const scenario = `
    setTimeout(function () {
      document.getElementById('command').value = 'pair';
      showOptions();
      document.getElementById('check').checked = true;
      document.getElementById('ask').click();
    }, 600);
  `;
  const waiting = render(CHROMIUM, {control: {}, format: 'swiss', scenario}, 2);
  assert.equal(element(waiting, 'what').text, 'sheetswiss pair --check');
  assert.match(element(waiting, 'said').text, /^Asked sheetswiss for pair --check \(Control!B9 ticked\)/);
  const sheet = JSON.parse(element(waiting, 'sheet-state').text);
  assert.deepEqual([sheet.Command, sheet.Redo, sheet.Check, sheet.Run], ['pair', false, true, true]);
  const standings = render(CHROMIUM, {control: {}, format: 'swiss', scenario: `
    setTimeout(function () { document.getElementById('command').value = 'standings'; showOptions(); }, 600);`}, 2);
  assert.equal(element(standings, 'check-row').hidden, true, 'standings does not take Check');
});

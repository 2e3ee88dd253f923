// The sheetswiss menu (Code.js) against stand-ins for Google's services: what it writes into the Control
// tab, and what it shows (menus, prompts, alerts, toasts, the sidebar's data).
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const vm = require('node:vm');
const {makeWorld, controlTab, FORMATS} = require('./fakes.js');

const HERE = path.join(__dirname, '..');
const CODE = fs.readFileSync(path.join(HERE, 'Code.js'), 'utf8');

/** Code.js loaded into a fresh context holding the world's stand-ins: its functions, by name. */
function load(world) {
  const context = vm.createContext(Object.assign({}, world.globals));
  vm.runInContext(CODE, context, {filename: 'Code.js'});
  return context;
}

/** A world holding a Control tab (values by label, the event's format) and a Players tab. */
function world(values, format, options) {
  return makeWorld(Object.assign({
    tabs: {Players: {rows: [['Name', 'Rating'], ['Ana Lima', 1800]]}, Control: controlTab(values, format)}
  }, options || {}));
}

/** Plain data (the script's objects come from another realm). */
const plain = (value) => JSON.parse(JSON.stringify(value));

const UNTOUCHED = ['Status', 'Started', 'Finished', 'Output'];

function assertNothingWritten(w) {
  assert.deepEqual(w.log.writes, [], 'nothing is written');
  assert.deepEqual(w.log.toasts, []);
}

test('the menu lists the commands the Control tab offers for a Swiss event, then the sidebar', () => {
  const w = world({}, 'swiss');
  load(w).onOpen();
  assert.equal(w.log.menus.length, 1);
  const menu = w.log.menus[0];
  assert.equal(menu.caption, 'sheetswiss');
  assert.deepEqual(menu.items.map((i) => i.caption), [
    'Pair the next round', 'Pair the last round again (redo)', 'Check the round as edited in Results', 'Standings',
    "Explain a player's tiebreaks...", 'Playoffs: draw or advance', 'Result slips...', 'Take in reported results',
    'Registrations into Players', 'Plan the rounds', "Publish the players' pages", undefined,
    'Status and output (sidebar)']);
  assert.equal(menu.items[11].separator, true);
});

test('a heat event gets the heat commands only', () => {
  const w = world({}, 'heats');
  const script = load(w);
  script.onOpen();
  const items = w.log.menus[0].items.filter((i) => !i.separator);
  assert.deepEqual(items.map((i) => i.caption), [
    'Seat a heat...', 'Qualify', 'Advance: next elimination round...', "Publish the players' pages",
    'Status and output (sidebar)']);
  for (const item of items) {
    assert.equal(typeof script[item.fn], 'function', `${item.fn} exists`);
  }
});

test('without a Control tab the menu still shows every item, and choosing one says plainly what is missing', () => {
  const w = makeWorld({tabs: {Players: {rows: [['Name']]}}});
  const script = load(w);
  script.onOpen();
  assert.equal(w.log.menus[0].items.filter((i) => i.fn && i.fn !== 'sheetswissSidebar').length, 14);
  script.sheetswissPair();
  assert.equal(w.log.alerts.length, 1);
  assert.match(w.log.alerts[0].text, /^This spreadsheet has no Control tab/);
  assert.match(w.log.alerts[0].text, /sheetswiss control EVENT/);
  assertNothingWritten(w);
  assert.deepEqual(plain(script.sheetswissStatus()), {ok: false, problem: w.log.alerts[0].text});
});

test('Pair the next round writes the request, ticks Run last, and says so', () => {
  const w = world({Heat: 3, Round: 2, Player: 'Ana Lima', Redo: true, Check: true, Status: 'done',
    Output: 'Round 1 paired'});
  const before = w.control();
  const script = load(w);
  script.sheetswissPair();
  const after = w.control();
  assert.equal(after.Command, 'pair');
  assert.equal(after.Heat, '', 'an option pair does not take is cleared');
  assert.equal(after.Round, '');
  assert.equal(after.Player, '');
  assert.equal(after.Redo, false);
  assert.equal(after.Check, false);
  assert.equal(after['Dry run'], false);
  assert.equal(after['Requested by'], 'gm@example.org');
  assert.match(after['Requested at'], /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
  assert.equal(after.Run, true);
  for (const label of UNTOUCHED) {
    assert.equal(after[label], before[label], `${label} is the tool's cell and is left alone`);
  }
  assert.ok(w.log.writes.every((write) => write.tab === 'Control' && write.column === 2));
  const last = w.log.writes[w.log.writes.length - 1];
  assert.equal(last.row, 9, 'Run (row 9) is written last');
  assert.ok(w.log.writes.slice(0, -1).every((write) => write.flushes < last.flushes),
    'the options are flushed before Run is ticked');
  assert.deepEqual(w.log.alerts, []);
  assert.equal(w.log.toasts.length, 1);
  assert.equal(w.log.toasts[0].message, 'Asked sheetswiss for pair (Control!B9 ticked). The answer shows in the ' +
    'sidebar when sheetswiss watch takes it.');
  assert.equal(w.log.sidebars.length, 1);
  assert.equal(w.log.sidebars[0].file, 'Sidebar');
  assert.equal(w.log.sidebars[0].title, 'sheetswiss');
});

test('the time of the request is written in the spreadsheet\'s time zone', () => {
  const w = world({}, 'swiss', {timeZone: 'Asia/Tokyo'});
  load(w).sheetswissPair();
  const shown = w.control()['Requested at'];
  const expected = new Intl.DateTimeFormat('sv-SE', {timeZone: 'Asia/Tokyo', dateStyle: 'short'}).format(new Date());
  assert.equal(shown.slice(0, 10), expected);
});

test('Pair the last round again ticks Redo', () => {
  const w = world();
  load(w).sheetswissRepair();
  assert.equal(w.control().Redo, true);
  assert.equal(w.control().Command, 'pair');
  assert.match(w.log.toasts[0].message, /^Asked sheetswiss for pair --redo /);
});

test('Check the round as edited in Results ticks Check, and clears Redo', () => {
  const w = world({Redo: true});
  load(w).sheetswissCheck();
  const after = w.control();
  assert.deepEqual([after.Command, after.Redo, after.Check, after['Dry run'], after.Run],
    ['pair', false, true, false, true]);
  assert.deepEqual(w.log.prompts, [], 'nothing to ask but the request');
  assert.equal(w.log.toasts[0].message, 'Asked sheetswiss for pair --check (Control!B9 ticked). The answer shows ' +
    'in the sidebar when sheetswiss watch takes it.');
});

test('Check and Redo together are refused, and nothing is written', () => {
  const w = world({}, 'swiss');
  const answer = plain(load(w).sheetswissAsk({command: 'pair', redo: true, check: true}));
  assert.deepEqual(answer, {ok: false, message: 'Check (check the round as edited in Results) and Redo (pair the ' +
    'round again) do not go together: tick one of them. Nothing was written.'});
  assertNothingWritten(w);
  const dry = world({}, 'swiss');
  const checked = plain(load(dry).sheetswissAsk({command: 'pair', check: true, dryRun: true}));
  assert.match(checked.message, /^Asked sheetswiss for pair --check --dry-run \(Control!B9 ticked\)/);
  assert.deepEqual([dry.control().Check, dry.control()['Dry run']], [true, true]);
});

test('a Control tab made before Check existed takes every other request; asking to check says which row to add', () => {
  const tab = controlTab({}, 'swiss');
  tab.rows.splice(6, 1);  // no Check row (the rows below move up, as in a tab made before it existed)
  const old = () => makeWorld({tabs: {Control: {rows: tab.rows.map((r) => r.slice()), rules: {}}}});
  const w = old();
  const script = load(w);
  script.sheetswissPair();
  assert.deepEqual(w.log.alerts, []);
  assert.equal(w.control().Run, true);
  assert.ok(!('Check' in w.control()));
  assert.equal(w.log.toasts[0].message, 'Asked sheetswiss for pair (Control!B8 ticked). The answer shows in the ' +
    'sidebar when sheetswiss watch takes it.');
  assert.equal(plain(script.sheetswissStatus()).check, false);

  const asked = old();
  load(asked).sheetswissCheck();
  assertNothingWritten(asked);
  assert.equal(asked.log.alerts[0].text, "Control tab: no row labelled 'Check' in column A (the tab was made " +
    'before it existed). Insert a row, type Check in column A and add a checkbox in column B, then ask again.');
});

test('Result slips asks for the round, found by its label below a row the GM inserted; empty means the last paired round', () => {
  const tab = controlTab({}, 'swiss');
  tab.rows.splice(3, 0, ['Note to self', 'check the clock', '']);
  const w = makeWorld({tabs: {Control: tab}, answers: [{text: ' 4 '}]});
  load(w).sheetswissSlips();
  assert.equal(w.log.prompts[0].title, 'Result slips');
  const control = w.control();
  assert.equal(control.Round, 4);
  assert.equal(control.Command, 'slips');
  assert.equal(w.sheet('Control').grid[3][1], 'check the clock', "the GM's own row is untouched");
  assert.equal(w.sheet('Control').grid[4][0], 'Round');
  assert.ok(w.log.writes.some((write) => write.row === 5 && write.value === 4), 'Round is row 5 now');

  const again = world({}, 'swiss', {answers: [{text: ''}]});
  load(again).sheetswissSlips();
  assert.equal(again.control().Round, '');
  assert.equal(again.control().Run, true);
});

test('Seat a heat asks which heat; Cancel writes nothing', () => {
  const w = world({}, 'heats', {answers: [{text: '2'}]});
  load(w).sheetswissSeat();
  assert.equal(w.log.prompts[0].text, 'Which heat? (a number)');
  assert.equal(w.control().Heat, 2);
  assert.equal(w.control().Command, 'seat');
  assert.match(w.log.toasts[0].message, /^Asked sheetswiss for seat --heat 2 /);

  const cancelled = world({}, 'heats', {answers: [{button: 'CANCEL', text: '2'}]});
  load(cancelled).sheetswissSeat();
  assertNothingWritten(cancelled);
  assert.deepEqual(cancelled.log.alerts, []);
});

test('Seat with no answer uses the Heat cell, and refuses when that is empty too', () => {
  const w = world({Heat: 3}, 'heats', {answers: [{text: ''}]});
  load(w).sheetswissSeat();
  assert.equal(w.control().Heat, 3);

  const empty = world({}, 'heats', {answers: [{text: ''}]});
  load(empty).sheetswissSeat();
  assertNothingWritten(empty);
  assert.equal(empty.log.alerts[0].text,
    'Seat a heat: no heat given, and Control!B3 is empty; choose the menu item again and type the number.');
});

test('a heat that is not a number is refused, naming the cell', () => {
  const w = world({}, 'heats', {answers: [{text: 'two'}]});
  load(w).sheetswissSeat();
  assertNothingWritten(w);
  assert.equal(w.log.alerts[0].text, "'two' is not a heat number (1, 2, 3 ...); nothing was written to Control!B3.");
  for (const bad of ['0', '-1', '2.5', '=1+1', '12345']) {
    const again = world({}, 'heats', {answers: [{text: bad}]});
    load(again).sheetswissSeat();
    assertNothingWritten(again);
    assert.match(again.log.alerts[0].text, /is not a heat number/);
  }
});

test("Explain a player's tiebreaks writes the name into Player; a formula is refused", () => {
  const w = world({}, 'swiss', {answers: [{text: 'Ana Lima'}]});
  load(w).sheetswissExplain();
  assert.equal(w.control().Player, 'Ana Lima');
  assert.equal(w.control().Command, 'standings');
  assert.match(w.log.toasts[0].message, /^Asked sheetswiss for standings --explain "Ana Lima" /);

  const formula = world({}, 'swiss', {answers: [{text: '=IMPORTXML("http://x", "//a")'}]});
  load(formula).sheetswissExplain();
  assertNothingWritten(formula);
  assert.match(formula.log.alerts[0].text, /^A name cannot start with '='/);

  const nobody = world({}, 'swiss', {answers: [{text: '  '}]});
  load(nobody).sheetswissExplain();
  assertNothingWritten(nobody);
  assert.equal(nobody.log.alerts[0].text, "Explain a player's tiebreaks: no name given, so nothing was asked.");
});

test('Advance asks who is absent; none is fine', () => {
  const w = world({Player: 'stale name'}, 'heats', {answers: [{text: 'Bo Berg, Caro Chen'}]});
  load(w).sheetswissAdvance();
  assert.equal(w.control().Player, 'Bo Berg, Caro Chen');
  const none = world({Player: 'stale name'}, 'heats', {answers: [{text: ''}]});
  load(none).sheetswissAdvance();
  assert.equal(none.control().Player, '');
  assert.equal(none.control().Command, 'advance');
});

test('no request is written while sheetswiss is running one', () => {
  const w = world({Command: 'pair', Status: 'Running', Started: '2026-11-24 16:31:02', Output: 'pairing...'});
  const before = plain(w.sheet('Control').grid);
  load(w).sheetswissStandings();
  assertNothingWritten(w);
  assert.deepEqual(plain(w.sheet('Control').grid), before);
  assert.equal(w.log.alerts.length, 1);
  assert.equal(w.log.alerts[0].title, 'sheetswiss');
  assert.equal(w.log.alerts[0].text, 'sheetswiss is running pair (started 2026-11-24 16:31:02); ask again when ' +
    "Control!B12 says done or refused. If sheetswiss watch has stopped on the GM's computer, start it again, " +
    'or clear Control!B12.');
  assert.deepEqual(w.log.prompts, [], 'refused before asking anything');
});

test('no request is written while another waits to be taken (Run still ticked)', () => {
  const w = world({Command: 'standings', Run: true, Status: 'done'});
  load(w).sheetswissPair();
  assertNothingWritten(w);
  assert.match(w.log.alerts[0].text, /^A request for standings is waiting for sheetswiss watch to take it \(Control!B9 is ticked\)/);
  assert.match(w.log.alerts[0].text, /untick Control!B9\.$/);
});

test('two people asking at once: the second finds the first request and writes nothing', () => {
  const w = world();
  const first = load(w);
  const second = load(w);
  first.sheetswissPair();
  second.sheetswissStandings();
  assert.equal(w.control().Command, 'pair');
  assert.equal(w.log.toasts.length, 1);
  assert.match(w.log.alerts[0].text, /^A request for pair is waiting/);
});

test('while someone else writes a request (the document lock is held), nothing is written', () => {
  const w = world({}, 'swiss', {lockBusy: true});
  load(w).sheetswissPair();
  assertNothingWritten(w);
  assert.match(w.log.alerts[0].text, /^Someone else is writing a request/);
});

test('a player who may not edit the protected Control tab is told so, and nothing is written', () => {
  const w = world({}, 'swiss', {protectedTabs: ['Control']});
  load(w).sheetswissPair();
  assertNothingWritten(w);
  assert.equal(w.log.alerts[0].text, 'The Control tab is protected and you are not among its editors, so you ' +
    'cannot ask for a command; ask the GM (Data > Protect sheets and ranges lists who may).');
});

test('a renamed Control tab is named in the message', () => {
  const w = makeWorld({tabs: {'control ': controlTab()}});
  load(w).sheetswissPair();
  assertNothingWritten(w);
  assert.equal(w.log.alerts[0].text, "The tab 'control ' should be named exactly 'Control': sheetswiss takes " +
    'requests only from a tab of that name. Rename it Control.');
});

test('a label moved out of column A (a column inserted) is refused, naming its cell', () => {
  const tab = controlTab();
  tab.rows = tab.rows.map((row, i) => (i === 0 ? row : [''].concat(row)));
  const w = makeWorld({tabs: {Control: tab}});
  load(w).sheetswissPair();
  assertNothingWritten(w);
  assert.match(w.log.alerts[0].text, /^Control!B2: the label 'Command' should be in column A/);

  const moved = controlTab();
  moved.rows[8] = ['', 'Run', false];
  const w2 = makeWorld({tabs: {Control: moved}});
  load(w2).sheetswissPair();
  assertNothingWritten(w2);
  assert.equal(w2.log.alerts[0].text, "Control!B9: the label 'Run' should be in column A, with its value in column " +
    'B (a column inserted?). The sheetswiss menu writes nothing until it is back.');
});

test('a header moved down (a row inserted above it) is refused', () => {
  const tab = controlTab();
  tab.rows.unshift(['My notes']);
  const w = makeWorld({tabs: {Control: tab}});
  load(w).sheetswissPair();
  assertNothingWritten(w);
  assert.equal(w.log.alerts[0].text, "Control!A1: row 1 should read 'Control | Value' (it reads 'My notes | '). " +
    "sheetswiss finds the Control tab's cells by their labels in column A under that header; put the header " +
    'back in A1:B1 (a row inserted above it?).');
});

test('a missing or doubled label is refused', () => {
  const tab = controlTab();
  tab.rows.splice(2, 1);  // no Heat row
  const w = makeWorld({tabs: {Control: tab}});
  load(w).sheetswissPair();
  assertNothingWritten(w);
  assert.match(w.log.alerts[0].text, /^Control tab: no row labelled 'Heat' in column A\./);

  const doubled = controlTab();
  doubled.rows.push(['Run', true, '']);
  const w2 = makeWorld({tabs: {Control: doubled}});
  load(w2).sheetswissPair();
  assertNothingWritten(w2);
  assert.equal(w2.log.alerts[0].text, "Control!A16: a second row labelled 'Run' (the first is row 9); keep one.");
});

test('the sidebar asks only for listed commands the event offers', () => {
  const w = world({}, 'swiss');
  const script = load(w);
  for (const [command, message] of [
    ['seat', "seat is not offered by this event: Control!B2's list offers " + FORMATS.swiss.join(', ') + '.'],
    ['copy', "'copy' is not a command the sheetswiss menu asks for; it asks for: pair, standings, playoffs, " +
      'slips, reports, register, plan, seat, qualify, advance, publish.'],
    ['pair; rm -rf /', /^'pair; rm -rf \/' is not a command/],
    ['', /^'' is not a command/]]) {
    const answer = plain(script.sheetswissAsk({command}));
    assert.equal(answer.ok, false);
    if (typeof message === 'string') {
      assert.equal(answer.message, message);
    } else {
      assert.match(answer.message, message);
    }
  }
  assertNothingWritten(w);
});

test('a Command cell without a drop-down: any listed command may be asked for', () => {
  const w = world({}, null);
  const answer = plain(load(w).sheetswissAsk({command: 'seat', heat: '1'}));
  assert.equal(answer.ok, true);
  assert.equal(w.control().Command, 'seat');
});

test("the sidebar's request: options the command takes are written, the others cleared", () => {
  const w = world({}, 'swiss');
  const answer = plain(load(w).sheetswissAsk({command: 'pair', redo: true, dryRun: true, heat: '4', round: '2',
    player: 'Ana Lima'}));
  assert.deepEqual(answer, {ok: true, message: 'Asked sheetswiss for pair --redo --dry-run (Control!B9 ticked). ' +
    'The answer shows in the sidebar when sheetswiss watch takes it.'});
  const control = w.control();
  assert.deepEqual([control.Command, control.Heat, control.Round, control.Player, control.Redo, control.Check,
    control['Dry run'], control.Run], ['pair', '', '', '', true, false, true, true]);
  assert.deepEqual(w.log.toasts, [], 'the sidebar shows the answer itself');

  const publish = world({'Dry run': true}, 'swiss');
  load(publish).sheetswissAsk({command: 'publish', dryRun: true});
  assert.equal(publish.control()['Dry run'], false, 'publish has no dry run');

  const strings = world({}, 'swiss');
  load(strings).sheetswissAsk({command: 'pair', redo: 'true', dryRun: 'yes'});
  assert.equal(strings.control().Redo, false, 'only a real tick counts');
  assert.equal(strings.control()['Dry run'], false);

  const standings = world({Check: true}, 'swiss');
  load(standings).sheetswissAsk({command: 'standings', check: true});
  assert.equal(standings.control().Check, false, 'only pair takes Check');
});

test('the sidebar refuses while a request runs, and says why', () => {
  const w = world({Command: 'seat', Status: 'running'}, 'heats');
  const answer = plain(load(w).sheetswissAsk({command: 'qualify'}));
  assert.equal(answer.ok, false);
  assert.match(answer.message, /^sheetswiss is running seat; ask again when Control!B12 says done or refused/);
  assertNothingWritten(w);
});

test('without an e-mail address the menu asks the name once and remembers it', () => {
  const w = world({}, 'swiss', {email: null, answers: [{text: 'Dana (head judge)'}]});
  const script = load(w);
  script.sheetswissPair();
  assert.equal(w.log.prompts.length, 1);
  assert.equal(w.log.prompts[0].title, 'Your name');
  assert.equal(w.control()['Requested by'], 'Dana (head judge)');
  assert.equal(w.properties['sheetswiss.requestedBy'], 'Dana (head judge)');

  const later = world({}, 'swiss', {email: '', properties: w.properties});
  load(later).sheetswissStandings();
  assert.deepEqual(later.log.prompts, [], 'asked once');
  assert.equal(later.control()['Requested by'], 'Dana (head judge)');

  const cancelled = world({}, 'swiss', {email: '', answers: [{button: 'CANCEL'}]});
  load(cancelled).sheetswissPair();
  assertNothingWritten(cancelled);

  const formula = world({}, 'swiss', {email: '', answers: [{text: '=HYPERLINK("x")'}]});
  load(formula).sheetswissPair();
  assert.equal(formula.control()['Requested by'], 'HYPERLINK("x")', 'a name is never written as a formula');
});

test('the sidebar gets the status and output as text, dates in the spreadsheet\'s time zone', () => {
  const started = new Date(Date.UTC(2026, 10, 24, 15, 31, 2));
  const w = world({Command: 'pair', Round: '', Status: 'done', Started: started, Finished: '2026-11-24 16:31:09',
    Output: 'Round 3 paired: 12 tables\nResults: rows 26-37', 'Requested by': 'gm@example.org',
    'Requested at': '2026-11-24 16:31:00'}, 'swiss', {timeZone: 'Europe/Paris'});
  const status = plain(load(w).sheetswissStatus());
  assert.deepEqual(status, {
    ok: true, command: 'pair', heat: '', round: '', player: '', redo: false, check: false, dryRun: false,
    run: false,
    requestedBy: 'gm@example.org', requestedAt: '2026-11-24 16:31:00', status: 'done',
    started: '2026-11-24 16:31:02', finished: '2026-11-24 16:31:09',
    output: 'Round 3 paired: 12 tables\nResults: rows 26-37', busy: '',
    commands: [
      {name: 'pair', title: 'Pair the next round', options: ['redo', 'check', 'dryRun']},
      {name: 'standings', title: 'Standings', options: ['player', 'dryRun']},
      {name: 'playoffs', title: 'Playoffs: draw or advance', options: ['dryRun']},
      {name: 'slips', title: 'Result slips', options: ['round', 'dryRun']},
      {name: 'reports', title: 'Take in reported results', options: ['dryRun']},
      {name: 'register', title: 'Registrations into Players', options: ['dryRun']},
      {name: 'plan', title: 'Plan the rounds', options: ['dryRun']},
      {name: 'publish', title: "Publish the players' pages", options: []}],
    needsName: false});
  assertNothingWritten(w);
});

test('the sidebar sees a waiting request as busy, and a refusal as it was written', () => {
  const waiting = plain(load(world({Command: 'pair', Run: 'TRUE'})).sheetswissStatus());
  assert.equal(waiting.run, true);
  assert.match(waiting.busy, /^A request for pair is waiting/);
  const refused = plain(load(world({Command: 'pair', Status: 'refused',
    Output: "Results!E14: cannot read 'W' as a result"})).sheetswissStatus());
  assert.equal(refused.busy, '');
  assert.equal(refused.output, "Results!E14: cannot read 'W' as a result");
});

test('the script uses no service beyond this spreadsheet, its UI and its own storage', () => {
  const used = new Set(CODE.match(/\b[A-Z][A-Za-z]+(App|Service)\b/g));
  assert.deepEqual([...used].sort(), ['HtmlService', 'LockService', 'PropertiesService', 'SpreadsheetApp']);
  for (const word of ['UrlFetchApp', 'DriveApp', 'ScriptApp', 'eval(', 'new Function', 'openById', 'openByUrl',
    'getSheets()[', 'include(']) {
    assert.ok(!CODE.includes(word), `Code.js does not use ${word}`);
  }
  const manifest = JSON.parse(fs.readFileSync(path.join(HERE, 'appsscript.json'), 'utf8'));
  assert.deepEqual(manifest.oauthScopes, ['https://www.googleapis.com/auth/spreadsheets.currentonly',
    'https://www.googleapis.com/auth/script.container.ui']);
  assert.equal(manifest.runtimeVersion, 'V8');
});

test('the sidebar loads nothing from elsewhere', () => {
  const sidebar = fs.readFileSync(path.join(HERE, 'Sidebar.html'), 'utf8');
  assert.doesNotMatch(sidebar, /\b(src|href)\s*=/i);
  assert.doesNotMatch(sidebar, /https?:\/\//);
  assert.doesNotMatch(sidebar, /innerHTML|outerHTML|insertAdjacentHTML|document\.write/);
});

test('every menu item calls a function the script defines, and only listed commands', () => {
  const script = load(world());
  const listed = new Set(script.COMMANDS.map((c) => c.name));
  for (const item of script.MENU) {
    assert.equal(typeof script[item.fn], 'function', item.fn);
    assert.ok(listed.has(item.command), item.command);
  }
  assert.equal(typeof script.sheetswissSidebar, 'function');
});

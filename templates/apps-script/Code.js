/**
 * The sheetswiss menu: ask `sheetswiss watch` (running on the GM's computer) for a command from inside
 * Google Sheets, and see its answer in a sidebar.
 *
 * The menu only writes a request into the Control tab: the Command, its options, who asked and when, and
 * Run ticked. `sheetswiss watch` takes the request, unticks Run, runs the command and writes Status
 * (running, then done or refused), Started, Finished and Output, which the sidebar shows.
 *
 * What this script may do is deliberately small:
 * - it reads and writes the Control tab only, and finds each cell by its label in column A (the value is
 *   in column B), never by a row number;
 * - it writes only the request cells, never Status, Started, Finished or Output;
 * - a request is one of the commands listed in COMMANDS, and only when the Control tab's Command drop-down
 *   offers it (the drop-down holds the commands of the event's format); a request never carries code or a
 *   file path, only a command's plain name, a heat or round number, player names and three ticks;
 * - no request is written while sheetswiss is running one, or while one waits to be taken.
 *
 * Its manifest (appsscript.json) asks for this spreadsheet only (spreadsheets.currentonly) and for the
 * menu and sidebar (script.container.ui).
 */

var CONTROL_TAB = 'Control';

/** Row 1 of the Control tab, columns A and B. */
var CONTROL_HEADER = ['Control', 'Value'];

/** The Control tab's labels (column A), by the name this script uses for them. */
var LABELS = {
  command: 'Command',
  heat: 'Heat',
  round: 'Round',
  player: 'Player',
  redo: 'Redo',
  check: 'Check',
  dryRun: 'Dry run',
  run: 'Run',
  requestedBy: 'Requested by',
  requestedAt: 'Requested at',
  status: 'Status',
  started: 'Started',
  finished: 'Finished',
  output: 'Output'
};

/**
 * The labels a Control tab may lack: one made before the label existed. A missing one reads as empty; a
 * request that needs it is refused, saying which row to insert.
 */
var OPTIONAL = ['check'];

/**
 * The commands the menu can ask for, each with the options it takes (the others are cleared when it is
 * asked for, so a heat number typed for seat is not read by another command):
 * heat (seat), round (slips), player (standings: whose tiebreaks to explain; advance: who is absent),
 * redo and check (pair: re-pair the last round; check the last round as edited in Results). Every command but
 * publish takes Dry run.
 */
var COMMANDS = [
  {name: 'pair', title: 'Pair the next round', options: ['redo', 'check', 'dryRun']},
  {name: 'standings', title: 'Standings', options: ['player', 'dryRun']},
  {name: 'playoffs', title: 'Playoffs: draw or advance', options: ['dryRun']},
  {name: 'slips', title: 'Result slips', options: ['round', 'dryRun']},
  {name: 'reports', title: 'Take in reported results', options: ['dryRun']},
  {name: 'register', title: 'Registrations into Players', options: ['dryRun']},
  {name: 'plan', title: 'Plan the rounds', options: ['dryRun']},
  {name: 'seat', title: 'Seat a heat', options: ['heat', 'dryRun']},
  {name: 'qualify', title: 'Qualify', options: ['dryRun']},
  {name: 'advance', title: 'Advance: next elimination round', options: ['player', 'dryRun']},
  {name: 'publish', title: "Publish the players' pages", options: []}
];

/**
 * The menu's items, in order: the function each calls, the command, and the request it makes (a field set
 * to PROMPT is asked for when the item is chosen).
 */
var PROMPT = 'prompt';
var MENU = [
  {fn: 'sheetswissPair', command: 'pair', caption: 'Pair the next round'},
  {fn: 'sheetswissRepair', command: 'pair', caption: 'Pair the last round again (redo)', request: {redo: true}},
  {fn: 'sheetswissCheck', command: 'pair', caption: 'Check the round as edited in Results', request: {check: true}},
  {fn: 'sheetswissStandings', command: 'standings', caption: 'Standings'},
  {fn: 'sheetswissExplain', command: 'standings', caption: "Explain a player's tiebreaks...",
    request: {player: PROMPT}},
  {fn: 'sheetswissPlayoffs', command: 'playoffs', caption: 'Playoffs: draw or advance'},
  {fn: 'sheetswissSlips', command: 'slips', caption: 'Result slips...', request: {round: PROMPT}},
  {fn: 'sheetswissReports', command: 'reports', caption: 'Take in reported results'},
  {fn: 'sheetswissRegister', command: 'register', caption: 'Registrations into Players'},
  {fn: 'sheetswissPlan', command: 'plan', caption: 'Plan the rounds'},
  {fn: 'sheetswissSeat', command: 'seat', caption: 'Seat a heat...', request: {heat: PROMPT}},
  {fn: 'sheetswissQualify', command: 'qualify', caption: 'Qualify'},
  {fn: 'sheetswissAdvance', command: 'advance', caption: 'Advance: next elimination round...',
    request: {player: PROMPT}},
  {fn: 'sheetswissPublish', command: 'publish', caption: "Publish the players' pages"}
];

/** What each prompted field asks, and what an empty answer means. */
var QUESTIONS = {
  heat: {title: 'Seat a heat', text: 'Which heat? (a number)', empty: 'cell'},
  round: {title: 'Result slips', text: 'Slips for which round? (a number; leave empty for the last paired round)',
    empty: 'none'},
  player: {
    standings: {title: "Explain a player's tiebreaks", text: 'Whose tiebreaks? (a name as in Players)',
      empty: 'refuse'},
    advance: {title: 'Advance', text: 'Who is absent? (names as in Players, comma-separated; leave empty if ' +
      'everyone is here or the Players tab marks who showed up)', empty: 'none'}
  }
};

/** The Status words that mean the Control tab is busy: no new request is written then. */
var BUSY = ['running'];

var NAME_PROPERTY = 'sheetswiss.requestedBy';

/** A problem the GM can fix, said in one plain message (an alert from the menu, a line in the sidebar). */
function ControlProblem(message) {
  this.name = 'ControlProblem';
  this.message = message;
}
ControlProblem.prototype = Object.create(Error.prototype);
ControlProblem.prototype.constructor = ControlProblem;

/** Adds the sheetswiss menu when the spreadsheet opens: the items of the commands the Control tab offers. */
function onOpen() {
  var offered = null;
  try {
    offered = readControl_().offered;
  } catch (e) {
    // No Control tab (or a damaged one): every item is shown, and choosing one says what is wrong.
    offered = null;
  }
  var menu = SpreadsheetApp.getUi().createMenu('sheetswiss');
  MENU.forEach(function (item) {
    if (offered === null || offered.indexOf(item.command) >= 0) {
      menu.addItem(item.caption, item.fn);
    }
  });
  menu.addSeparator();
  menu.addItem('Status and output (sidebar)', 'sheetswissSidebar');
  menu.addToUi();
}

function sheetswissPair() { menuRequest_('sheetswissPair'); }
function sheetswissRepair() { menuRequest_('sheetswissRepair'); }
function sheetswissCheck() { menuRequest_('sheetswissCheck'); }
function sheetswissStandings() { menuRequest_('sheetswissStandings'); }
function sheetswissExplain() { menuRequest_('sheetswissExplain'); }
function sheetswissPlayoffs() { menuRequest_('sheetswissPlayoffs'); }
function sheetswissSlips() { menuRequest_('sheetswissSlips'); }
function sheetswissReports() { menuRequest_('sheetswissReports'); }
function sheetswissRegister() { menuRequest_('sheetswissRegister'); }
function sheetswissPlan() { menuRequest_('sheetswissPlan'); }
function sheetswissSeat() { menuRequest_('sheetswissSeat'); }
function sheetswissQualify() { menuRequest_('sheetswissQualify'); }
function sheetswissAdvance() { menuRequest_('sheetswissAdvance'); }
function sheetswissPublish() { menuRequest_('sheetswissPublish'); }

/** Opens the sidebar: the Control tab's status and output, refreshed every few seconds, and a request form. */
function sheetswissSidebar() {
  var page = HtmlService.createHtmlOutputFromFile('Sidebar').setTitle('sheetswiss');
  SpreadsheetApp.getUi().showSidebar(page);
}

/** What the sidebar shows: the Control tab's request and status cells, as text. Called every few seconds. */
function sheetswissStatus() {
  var control;
  try {
    control = readControl_();
  } catch (e) {
    if (e instanceof ControlProblem) {
      return {ok: false, problem: e.message};
    }
    throw e;
  }
  var tz = control.spreadsheet.getSpreadsheetTimeZone();
  var shown = {};
  Object.keys(LABELS).forEach(function (key) {
    shown[key] = asText_(control.value(key), tz);
  });
  return {
    ok: true,
    command: shown.command,
    heat: shown.heat,
    round: shown.round,
    player: shown.player,
    redo: isTicked_(control.value('redo')),
    check: isTicked_(control.value('check')),
    dryRun: isTicked_(control.value('dryRun')),
    run: isTicked_(control.value('run')),
    requestedBy: shown.requestedBy,
    requestedAt: shown.requestedAt,
    status: shown.status,
    started: shown.started,
    finished: shown.finished,
    output: shown.output,
    busy: busyReason_(control),
    commands: COMMANDS.filter(function (c) {
      return control.offered === null || control.offered.indexOf(c.name) >= 0;
    }).map(function (c) {
      return {name: c.name, title: c.title, options: c.options.slice()};
    }),
    needsName: requester_('') === ''
  };
}

/**
 * The sidebar's request: {command, heat, round, player, redo, check, dryRun, name}. Returns {ok, message}: what was
 * asked, or why nothing was written.
 */
function sheetswissAsk(form) {
  form = form || {};
  try {
    var command = String(form.command || '');
    var request = {
      heat: form.heat,
      round: form.round,
      player: form.player,
      redo: form.redo === true,
      check: form.check === true,
      dryRun: form.dryRun === true,
      by: requester_(cleanName_(form.name))
    };
    return {ok: true, message: ask_(command, request)};
  } catch (e) {
    if (e instanceof ControlProblem) {
      return {ok: false, message: e.message};
    }
    throw e;
  }
}

/** A menu item chosen: prompts for what it needs, writes the request, says so, and opens the sidebar. */
function menuRequest_(fn) {
  var ui = SpreadsheetApp.getUi();
  var item = MENU.filter(function (m) { return m.fn === fn; })[0];
  try {
    var control = readControl_();
    refuseIfBusy_(control);
    var request = {redo: false, check: false, dryRun: false, by: ''};
    var fixed = item.request || {};
    Object.keys(fixed).forEach(function (key) {
      if (fixed[key] !== PROMPT) {
        request[key] = fixed[key];
      }
    });
    var asked = Object.keys(fixed).filter(function (key) { return fixed[key] === PROMPT; });
    for (var i = 0; i < asked.length; i++) {
      var key = asked[i];
      var question = key === 'player' ? QUESTIONS.player[item.command] : QUESTIONS[key];
      var answer = ui.prompt(question.title, question.text, ui.ButtonSet.OK_CANCEL);
      if (answer.getSelectedButton() !== ui.Button.OK) {
        return;
      }
      var text = String(answer.getResponseText()).trim();
      if (text === '' && question.empty === 'cell') {
        text = asText_(control.value(key), control.spreadsheet.getSpreadsheetTimeZone()).trim();
        if (text === '') {
          throw new ControlProblem(question.title + ': no ' + key + ' given, and ' + control.cell(key) +
            ' is empty; choose the menu item again and type the number.');
        }
      }
      if (text === '' && question.empty === 'refuse') {
        throw new ControlProblem(question.title + ': no name given, so nothing was asked.');
      }
      request[key] = text;
    }
    var by = requester_('');
    if (by === '') {
      var who = ui.prompt('Your name', "sheetswiss records who asks in the Control tab's 'Requested by' cell. " +
        'Your name (asked once):', ui.ButtonSet.OK_CANCEL);
      if (who.getSelectedButton() !== ui.Button.OK) {
        return;
      }
      by = requester_(cleanName_(who.getResponseText()));
    }
    request.by = by;
    var message = ask_(item.command, request);
    control.spreadsheet.toast(message, 'sheetswiss', 8);
    sheetswissSidebar();
  } catch (e) {
    if (e instanceof ControlProblem) {
      ui.alert('sheetswiss', e.message, ui.ButtonSet.OK);
      return;
    }
    throw e;
  }
}

/**
 * Writes a request into the Control tab: the command, its options (the ones it does not take cleared),
 * who asked and when, then Run ticked. Returns what was asked, in a GM's words; a ControlProblem when
 * nothing was written.
 */
function ask_(name, request) {
  var lock = LockService.getDocumentLock();
  if (!lock.tryLock(10000)) {
    throw new ControlProblem('Someone else is writing a request into the Control tab right now; ask again in a ' +
      'moment.');
  }
  try {
    var control = readControl_();
    var command = COMMANDS.filter(function (c) { return c.name === name; })[0];
    if (!command) {
      throw new ControlProblem("'" + name + "' is not a command the sheetswiss menu asks for; it asks for: " +
        COMMANDS.map(function (c) { return c.name; }).join(', ') + '.');
    }
    if (control.offered !== null && control.offered.indexOf(name) < 0) {
      throw new ControlProblem(name + ' is not offered by this event: ' + control.cell('command') +
        "'s list offers " + control.offered.join(', ') + '.');
    }
    refuseIfBusy_(control);
    var takes = function (option) { return command.options.indexOf(option) >= 0; };
    var heat = takes('heat') ? number_(request.heat, 'heat', control) : '';
    var round = takes('round') ? number_(request.round, 'round', control) : '';
    var player = takes('player') ? names_(request.player, control) : '';
    if (name === 'seat' && heat === '') {
      throw new ControlProblem('seat needs the heat to seat: give its number.');
    }
    var redo = takes('redo') && request.redo === true;
    var check = takes('check') && request.check === true;
    if (redo && check) {
      throw new ControlProblem('Check (check the round as edited in Results) and Redo (pair the round again) do ' +
        'not go together: tick one of them. Nothing was written.');
    }
    if (check && !control.has('check')) {
      throw new ControlProblem(CONTROL_TAB + " tab: no row labelled 'Check' in column A (the tab was made before " +
        "it existed). Insert a row, type Check in column A and add a checkbox in column B, then ask again.");
    }
    var dryRun = takes('dryRun') && request.dryRun === true;
    var tz = control.spreadsheet.getSpreadsheetTimeZone();
    var at = Utilities.formatDate(new Date(), tz, 'yyyy-MM-dd HH:mm:ss');
    try {
      control.write('command', name);
      control.write('heat', heat);
      control.write('round', round);
      control.write('player', player);
      control.write('redo', redo);
      if (control.has('check')) {
        control.write('check', check);
      }
      control.write('dryRun', dryRun);
      control.write('requestedBy', request.by || '');
      control.write('requestedAt', at);
      SpreadsheetApp.flush();
      control.write('run', true);
      SpreadsheetApp.flush();
    } catch (e) {
      if (/protected/i.test(String(e && e.message))) {
        throw new ControlProblem('The Control tab is protected and you are not among its editors, so you cannot ' +
          'ask for a command; ask the GM (Data > Protect sheets and ranges lists who may).');
      }
      throw e;
    }
    return 'Asked sheetswiss for ' + words_(name, heat, round, player, redo, check, dryRun) + ' (' +
      control.cell('run') + ' ticked). The answer shows in the sidebar when sheetswiss watch takes it.';
  } finally {
    lock.releaseLock();
  }
}

/** The request as the command line would read it (without the event): "seat --heat 2 --dry-run". */
function words_(name, heat, round, player, redo, check, dryRun) {
  var parts = [name];
  if (heat !== '') { parts.push('--heat ' + heat); }
  if (round !== '') { parts.push('--round ' + round); }
  if (player !== '') { parts.push((name === 'advance' ? '--absent' : '--explain') + ' "' + player + '"'); }
  if (redo) { parts.push('--redo'); }
  if (check) { parts.push('--check'); }
  if (dryRun) { parts.push('--dry-run'); }
  return parts.join(' ');
}

/** Refuses (a ControlProblem) while sheetswiss runs a request, or while a request waits to be taken. */
function refuseIfBusy_(control) {
  var reason = busyReason_(control);
  if (reason !== '') {
    throw new ControlProblem(reason);
  }
}

/** Why no request can be written now, or '' when one can. */
function busyReason_(control) {
  var tz = control.spreadsheet.getSpreadsheetTimeZone();
  var status = asText_(control.value('status'), tz).trim();
  var command = asText_(control.value('command'), tz).trim() || 'a command';
  if (BUSY.indexOf(status.toLowerCase()) >= 0) {
    var started = asText_(control.value('started'), tz).trim();
    return 'sheetswiss is running ' + command + (started ? ' (started ' + started + ')' : '') +
      '; ask again when ' + control.cell('status') + ' says done or refused. If sheetswiss watch has ' +
      'stopped on the GM\'s computer, start it again, or clear ' + control.cell('status') + '.';
  }
  if (isTicked_(control.value('run'))) {
    return 'A request for ' + command + ' is waiting for sheetswiss watch to take it (' + control.cell('run') +
      ' is ticked). Is sheetswiss watch running on the GM\'s computer? To withdraw the request, untick ' +
      control.cell('run') + '.';
  }
  return '';
}

/**
 * The Control tab's cells, found by their labels in column A: {spreadsheet, sheet, rows, offered,
 * has(key), value(key), write(key, value), cell(key)}. A ControlProblem names what is missing or moved (a
 * label of OPTIONAL may be missing: its value reads as '').
 */
function readControl_() {
  var spreadsheet = SpreadsheetApp.getActiveSpreadsheet();
  var sheet = spreadsheet.getSheetByName(CONTROL_TAB);
  if (sheet === null) {
    var near = spreadsheet.getSheets().map(function (s) { return s.getName(); }).filter(function (n) {
      return n.trim().toLowerCase() === CONTROL_TAB.toLowerCase();
    });
    if (near.length > 0) {
      throw new ControlProblem("The tab '" + near[0] + "' should be named exactly '" + CONTROL_TAB +
        "': sheetswiss takes requests only from a tab of that name. Rename it " + CONTROL_TAB + '.');
    }
    throw new ControlProblem('This spreadsheet has no Control tab, so the sheetswiss menu has nowhere to ' +
      'write a request. The GM adds it with: sheetswiss control EVENT (or a renamed one is named ' +
      CONTROL_TAB + ' again).');
  }
  var values = sheet.getDataRange().getValues();
  var top = (values[0] || []).slice(0, 2).map(function (v) { return String(v).trim(); });
  if (top[0] !== CONTROL_HEADER[0] || top[1] !== CONTROL_HEADER[1]) {
    throw new ControlProblem(CONTROL_TAB + "!A1: row 1 should read '" + CONTROL_HEADER.join(' | ') +
      "' (it reads '" + top.join(' | ') + "'). sheetswiss finds the Control tab's cells by their labels in " +
      'column A under that header; put the header back in A1:B1 (a row inserted above it?).');
  }
  var wanted = {};
  Object.keys(LABELS).forEach(function (key) { wanted[LABELS[key].toLowerCase()] = key; });
  var first = {};  // each label's first cell, row by row: it must be in column A
  var rows = {};
  for (var r = 0; r < values.length; r++) {
    for (var c = 0; c < values[r].length; c++) {
      var key = wanted[String(values[r][c]).trim().toLowerCase()];
      if (key === undefined) {
        continue;
      }
      var where = CONTROL_TAB + '!' + String.fromCharCode(65 + Math.min(c, 25)) + (r + 1);
      if (first[key] === undefined && c !== 0) {
        throw new ControlProblem(where + ": the label '" + LABELS[key] + "' should be in column A, with its " +
          'value in column B (a column inserted?). The sheetswiss menu writes nothing until it is back.');
      }
      first[key] = first[key] || where;
      if (c !== 0) {
        continue;
      }
      if (rows[key] !== undefined) {
        throw new ControlProblem(where + ": a second row labelled '" + LABELS[key] + "' (the first is row " +
          rows[key] + '); keep one.');
      }
      rows[key] = r + 1;
    }
  }
  var missing = Object.keys(LABELS).filter(function (key) {
    return rows[key] === undefined && OPTIONAL.indexOf(key) < 0;
  });
  if (missing.length > 0) {
    throw new ControlProblem(CONTROL_TAB + " tab: no row labelled '" + missing.map(function (k) {
      return LABELS[k];
    }).join("', '") + "' in column A. The sheetswiss menu finds each cell by its label; the Control tab " +
      'needs a row for each of: ' + Object.keys(LABELS).map(function (k) { return LABELS[k]; }).join(', ') + '.');
  }
  var cell = function (key) { return CONTROL_TAB + '!B' + rows[key]; };
  return {
    spreadsheet: spreadsheet,
    sheet: sheet,
    rows: rows,
    offered: offeredCommands_(sheet.getRange(rows.command, 2)),
    cell: cell,
    has: function (key) { return rows[key] !== undefined; },
    value: function (key) {
      if (rows[key] === undefined) {
        return '';
      }
      var row = values[rows[key] - 1];
      return row.length > 1 ? row[1] : '';
    },
    write: function (key, value) {
      sheet.getRange(rows[key], 2).setValue(value);
    }
  };
}

/** The commands the Command cell's drop-down offers (the event's format), or null when it has no list. */
function offeredCommands_(range) {
  var rule = range.getDataValidation();
  if (rule === null || rule.getCriteriaType() !== SpreadsheetApp.DataValidationCriteria.VALUE_IN_LIST) {
    return null;
  }
  return rule.getCriteriaValues()[0].map(function (v) { return String(v).trim().toLowerCase(); });
}

/** A heat or round number as the request carries it: '' when empty, else a whole number from 1. */
function number_(value, what, control) {
  var text = value === undefined || value === null ? '' : String(value).trim();
  if (text === '') {
    return '';
  }
  if (!/^[0-9]{1,4}$/.test(text) || Number(text) < 1) {
    throw new ControlProblem("'" + text.slice(0, 40) + "' is not a " + what + ' number (1, 2, 3 ...); nothing ' +
      'was written to ' + control.cell(what) + '.');
  }
  return Number(text);
}

/** Player names as the request carries them: text only (never a formula), one line, at most 500 characters. */
function names_(value, control) {
  var text = value === undefined || value === null ? '' : String(value).trim();
  if (/[\u0000-\u001f]/.test(text) || text.length > 500) {
    throw new ControlProblem('Names for ' + control.cell('player') + ' are one line of at most 500 characters.');
  }
  if (/^[=+\-@]/.test(text)) {
    throw new ControlProblem("A name cannot start with '" + text.charAt(0) + "' (the sheet would read it as a " +
      'formula); nothing was written to ' + control.cell('player') + '.');
  }
  return text;
}

/** Who asks: the Google account's address where the spreadsheet tells it, else the name given once here. */
function requester_(given) {
  var email = '';
  try {
    email = Session.getActiveUser().getEmail() || '';
  } catch (e) {
    email = '';  // the address is not available to a script limited to this spreadsheet
  }
  if (email !== '') {
    return email;
  }
  var properties = PropertiesService.getUserProperties();
  if (given) {
    properties.setProperty(NAME_PROPERTY, given);
    return given;
  }
  return properties.getProperty(NAME_PROPERTY) || '';
}

/** A requester's name: one line of text, at most 100 characters, never read as a formula. */
function cleanName_(text) {
  var name = String(text || '').replace(/[\u0000-\u001f]/g, ' ').trim().slice(0, 100);
  return name.replace(/^[=+\-@]+/, '').trim();
}

/** Whether a checkbox cell is ticked: TRUE, or a GM's yes / x / 1 (as sheetswiss reads it). */
function isTicked_(value) {
  if (value === true || value === false) {
    return value;
  }
  if (typeof value === 'number') {
    return value === 1;
  }
  return ['true', 'yes', 'y', 'x', '1', '\u2713', '\u2714', '\u2611'].indexOf(String(value).trim().toLowerCase()) >= 0;
}

/** A cell's value as the sheet shows it: a date as yyyy-MM-dd HH:mm:ss in the spreadsheet's time zone. */
function asText_(value, tz) {
  if (value === null || value === undefined) {
    return '';
  }
  if (Object.prototype.toString.call(value) === '[object Date]') {
    return Utilities.formatDate(value, tz, 'yyyy-MM-dd HH:mm:ss');
  }
  return String(value);
}

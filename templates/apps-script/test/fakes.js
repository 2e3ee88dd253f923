/*
 * Stand-ins for the Apps Script services Code.js uses: SpreadsheetApp (a spreadsheet of tabs, each a 2-D
 * array of values, with drop-down and checkbox rules), the UI (menus, alerts, prompts, sidebars),
 * PropertiesService, Session, HtmlService, LockService and Utilities.formatDate. Everything the script does
 * is recorded in `world.log` for the tests to check.
 *
 * Loaded by Node (require) and by the sidebar's page in a browser (a <script>: window.SheetswissFakes).
 */
(function (root) {
  'use strict';

  var VALUE_IN_LIST = 'VALUE_IN_LIST';
  var CHECKBOX = 'CHECKBOX';

  /** The Control tab's labels and help, in the order sheetswiss lays them out (rows 2 on). */
  var LABELS = ['Command', 'Heat', 'Round', 'Player', 'Redo', 'Check', 'Dry run', 'Run', 'Requested by',
    'Requested at', 'Status', 'Started', 'Finished', 'Output'];
  var CHECKBOXES = ['Redo', 'Check', 'Dry run', 'Run'];
  var FORMATS = {
    swiss: ['pair', 'standings', 'playoffs', 'slips', 'reports', 'register', 'plan', 'publish'],
    heats: ['seat', 'qualify', 'advance', 'publish']
  };

  /**
   * A Control tab as sheetswiss makes it: {rows, rules} for fakeSheet. `values` overrides column B by label;
   * `format` picks the Command drop-down's list (null: no drop-down).
   */
  function controlTab(values, format) {
    values = values || {};
    var rows = [['Control', 'Value', 'Help']];
    var rules = {};
    LABELS.forEach(function (label, i) {
      var row = i + 2;
      var blank = CHECKBOXES.indexOf(label) >= 0 ? false : '';
      rows.push([label, label in values ? values[label] : blank, 'what ' + label + ' is for']);
      if (label === 'Command' && format !== null) {
        rules[row + ',2'] = {type: VALUE_IN_LIST, values: [FORMATS[format || 'swiss'].slice(), true]};
      }
      if (CHECKBOXES.indexOf(label) >= 0) {
        rules[row + ',2'] = {type: CHECKBOX, values: []};
      }
    });
    return {rows: rows, rules: rules};
  }

  function isDate(v) {
    return Object.prototype.toString.call(v) === '[object Date]';
  }

  /** Utilities.formatDate for the one pattern the script uses. */
  function formatDate(date, tz, pattern) {
    if (pattern !== 'yyyy-MM-dd HH:mm:ss') {
      throw new Error('the stand-in formats only yyyy-MM-dd HH:mm:ss, not ' + pattern);
    }
    var parts = {};
    new Intl.DateTimeFormat('en-GB', {timeZone: tz, year: 'numeric', month: '2-digit', day: '2-digit',
      hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23'}).formatToParts(date)
      .forEach(function (p) { parts[p.type] = p.value; });
    return parts.year + '-' + parts.month + '-' + parts.day + ' ' + parts.hour + ':' + parts.minute + ':' +
      parts.second;
  }

  /**
   * A world of stand-ins. options: tabs ({name: {rows, rules}}), timeZone, email (what Session tells; null:
   * the call throws as it does without the userinfo scope), answers (prompt answers, in order: {button,
   * text}), properties (the user's stored properties), lockBusy, htmlFiles (names HtmlService may serve),
   * protectedTabs (tabs this user may not edit).
   */
  function makeWorld(options) {
    options = options || {};
    var log = {toasts: [], alerts: [], prompts: [], sidebars: [], menus: [], writes: [], flushes: 0};
    var answers = (options.answers || []).slice();
    var properties = Object.assign({}, options.properties || {});
    var timeZone = options.timeZone || 'Europe/Paris';

    function fakeSheet(name, tab) {
      var grid = tab.rows.map(function (r) { return r.slice(); });
      var rules = Object.assign({}, tab.rules || {});
      var sheet = {
        grid: grid,
        getName: function () { return name; },
        getDataRange: function () {
          var width = grid.reduce(function (w, r) { return Math.max(w, r.length); }, 0);
          return {
            getValues: function () {
              return grid.map(function (r) {
                var row = r.slice();
                while (row.length < width) { row.push(''); }
                return row;
              });
            }
          };
        },
        getRange: function (row, column) {
          if (typeof row !== 'number' || typeof column !== 'number' || row < 1 || column < 1 ||
              arguments.length !== 2) {
            throw new Error('the stand-in takes getRange(row, column) with 1-based numbers');
          }
          return {
            getValue: function () {
              var r = grid[row - 1] || [];
              return r[column - 1] === undefined ? '' : r[column - 1];
            },
            setValue: function (value) {
              if ((options.protectedTabs || []).indexOf(name) >= 0) {
                throw new Error('You are trying to edit a protected cell or object. Please contact the ' +
                  'spreadsheet owner to remove protection if you need to edit.');
              }
              if (value === undefined || value === null || (typeof value === 'object' && !isDate(value))) {
                throw new Error('setValue of ' + String(value));
              }
              while (grid.length < row) { grid.push([]); }
              var r = grid[row - 1];
              while (r.length < column) { r.push(''); }
              r[column - 1] = value;
              log.writes.push({tab: name, row: row, column: column, value: value, flushes: log.flushes});
              return this;
            },
            getDataValidation: function () {
              var rule = rules[row + ',' + column];
              if (!rule) { return null; }
              return {
                getCriteriaType: function () { return rule.type; },
                getCriteriaValues: function () { return rule.values; }
              };
            }
          };
        }
      };
      return sheet;
    }

    var sheets = Object.keys(options.tabs || {}).map(function (name) { return fakeSheet(name, options.tabs[name]); });
    var spreadsheet = {
      getSheetByName: function (name) {
        return sheets.filter(function (s) { return s.getName() === name; })[0] || null;
      },
      getSheets: function () { return sheets.slice(); },
      getSpreadsheetTimeZone: function () { return timeZone; },
      toast: function (message, title, seconds) { log.toasts.push({message: message, title: title, seconds: seconds}); }
    };

    var Button = {OK: 'OK', CANCEL: 'CANCEL', CLOSE: 'CLOSE'};
    var ButtonSet = {OK: 'OK', OK_CANCEL: 'OK_CANCEL'};
    var ui = {
      Button: Button,
      ButtonSet: ButtonSet,
      createMenu: function (caption) {
        var menu = {caption: caption, items: []};
        return {
          addItem: function (text, fn) { menu.items.push({caption: text, fn: fn}); return this; },
          addSeparator: function () { menu.items.push({separator: true}); return this; },
          addToUi: function () { log.menus.push(menu); }
        };
      },
      alert: function (title, prompt, buttons) {
        log.alerts.push({title: title, text: prompt, buttons: buttons});
        return Button.OK;
      },
      prompt: function (title, prompt, buttons) {
        log.prompts.push({title: title, text: prompt, buttons: buttons});
        if (answers.length === 0) {
          throw new Error('the script asked a question the test did not expect: ' + title + ': ' + prompt);
        }
        var answer = answers.shift();
        return {
          getSelectedButton: function () { return answer.button || Button.OK; },
          getResponseText: function () { return answer.text || ''; }
        };
      },
      showSidebar: function (page) { log.sidebars.push(page); }
    };

    var globals = {
      SpreadsheetApp: {
        getActiveSpreadsheet: function () { return spreadsheet; },
        getUi: function () { return ui; },
        flush: function () { log.flushes += 1; },
        DataValidationCriteria: {VALUE_IN_LIST: VALUE_IN_LIST, CHECKBOX: CHECKBOX}
      },
      PropertiesService: {
        getUserProperties: function () {
          return {
            getProperty: function (key) { return key in properties ? properties[key] : null; },
            setProperty: function (key, value) { properties[key] = String(value); return this; }
          };
        }
      },
      Session: {
        getActiveUser: function () {
          return {
            getEmail: function () {
              if (options.email === null) {
                throw new Error('You do not have permission to call Session.getActiveUser');
              }
              return options.email === undefined ? 'gm@example.org' : options.email;
            }
          };
        }
      },
      HtmlService: {
        createHtmlOutputFromFile: function (name) {
          var files = options.htmlFiles || ['Sidebar'];
          if (files.indexOf(name) < 0) {
            throw new Error('No HTML file named ' + name + ' was found.');
          }
          return {file: name, title: '', setTitle: function (t) { this.title = t; return this; }};
        }
      },
      LockService: {
        getDocumentLock: function () {
          return {
            tryLock: function () { return !options.lockBusy; },
            releaseLock: function () {}
          };
        }
      },
      Utilities: {formatDate: formatDate}
    };

    return {
      globals: globals,
      log: log,
      properties: properties,
      sheet: function (name) { return spreadsheet.getSheetByName(name); },
      /** Column B of the Control tab, by label (what the script wrote, or the cell as it was). */
      control: function (name) {
        var sheet = spreadsheet.getSheetByName(name || 'Control');
        var out = {};
        sheet.grid.forEach(function (row) {
          if (LABELS.indexOf(row[0]) >= 0) { out[row[0]] = row[1]; }
        });
        return out;
      },
      addSheet: function (name, tab) { sheets.push(fakeSheet(name, tab)); }
    };
  }

  var api = {makeWorld: makeWorld, controlTab: controlTab, formatDate: formatDate, LABELS: LABELS, FORMATS: FORMATS};
  if (typeof module !== 'undefined' && module.exports) {
    module.exports = api;
  } else {
    root.SheetswissFakes = api;
  }
})(this);

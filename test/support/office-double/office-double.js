/* global window, document, localStorage */
// A test double of the parts of office.js that FDQ for Excel's page uses, for browser tests outside
// Office (served in place of office.js). It models a workbook of worksheets and cells, evaluates FDQ
// formulas through the functions the page registers with CustomFunctions.associate (as Excel would),
// and enforces Excel's load/sync rule: a property is readable only after load() and sync().
// Tests seed and inspect it through window.__officeDouble, and describe the workbook as opened (cells with
// their saved values, document settings) in window.__officeDoubleWorkbook before the page loads.
(function () {
  "use strict";

  const STORAGE_PREFIX = "office-double:";
  const LIGHT_THEME = {
    bodyBackgroundColor: "#FFFFFF",
    bodyForegroundColor: "#000000",
    controlBackgroundColor: "#FFFFFF",
    controlForegroundColor: "#000000",
  };
  const DARK_THEME = {
    bodyBackgroundColor: "#262626",
    bodyForegroundColor: "#FFFFFF",
    controlBackgroundColor: "#404040",
    controlForegroundColor: "#FFFFFF",
  };

  // ---- A1 addresses -------------------------------------------------------------------------
  function columnName(col) {
    let name = "";
    for (let n = col + 1; n > 0; n = Math.floor((n - 1) / 26)) {
      name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
    }
    return name;
  }
  function columnIndex(letters) {
    let n = 0;
    for (const ch of letters.toUpperCase()) n = n * 26 + (ch.charCodeAt(0) - 64);
    return n - 1;
  }
  function cellName(row, col) {
    return columnName(col) + String(row + 1);
  }
  function parseCell(text) {
    const m = /^\$?([A-Za-z]{1,3})\$?(\d+)$/.exec(text);
    if (!m) throw new Error("InvalidArgument: bad cell address " + text);
    return { row: Number(m[2]) - 1, col: columnIndex(m[1]) };
  }
  function quoteSheet(name) {
    return /^[A-Za-z0-9_]+$/.test(name) ? name : "'" + name.replace(/'/g, "''") + "'";
  }
  /** "Sheet1!A1:B2" or "A1" -> { sheet?, top, left, bottom, right } */
  function parseAddress(text) {
    let sheet;
    let ref = text;
    const bang = text.lastIndexOf("!");
    if (bang >= 0) {
      sheet = text
        .slice(0, bang)
        .replace(/^'(.*)'$/, "$1")
        .replace(/''/g, "'");
      ref = text.slice(bang + 1);
    }
    const [a, b] = ref.split(":");
    const start = parseCell(a);
    const end = b ? parseCell(b) : start;
    return {
      sheet,
      top: Math.min(start.row, end.row),
      left: Math.min(start.col, end.col),
      bottom: Math.max(start.row, end.row),
      right: Math.max(start.col, end.col),
    };
  }
  function rangeText(sheet, box) {
    const first = cellName(box.top, box.left);
    const last = cellName(box.bottom, box.right);
    return quoteSheet(sheet) + "!" + (first === last ? first : first + ":" + last);
  }

  // ---- the workbook model -----------------------------------------------------------------
  const state = {
    sheets: [],
    activeSheet: "Sheet1",
    selection: { sheet: "Sheet1", top: 0, left: 0, bottom: 0, right: 0 },
    theme: LIGHT_THEME,
    calculations: [],
    functions: new Map(),
    pending: new Set(),
    handlers: { selection: [], theme: [] },
    documentSettings: new Map(),
    log: [],
  };

  function sheetNamed(name) {
    const sheet = state.sheets.find((s) => s.name === name);
    if (!sheet) throw new Error("ItemNotFound: no worksheet named " + name);
    return sheet;
  }
  function addSheet(name) {
    if (!state.sheets.some((s) => s.name === name)) state.sheets.push({ name, cells: new Map() });
    return sheetNamed(name);
  }
  addSheet("Sheet1");

  function getCell(sheet, row, col) {
    return sheet.cells.get(cellName(row, col));
  }

  /** Writes what a user types: a formula (starting with "=") or a constant. */
  function writeCell(sheet, row, col, input) {
    const key = cellName(row, col);
    if (input === "" || input === null || input === undefined) {
      sheet.cells.delete(key);
      return;
    }
    if (typeof input === "string" && input.startsWith("=")) {
      const cell = { formula: input, value: 0, error: null };
      sheet.cells.set(key, cell);
      evaluate(sheet, key, cell);
      return;
    }
    sheet.cells.set(key, { formula: null, value: input, error: null });
  }

  // ---- formula evaluation through the registered custom functions ---------------------------
  // Enough of Excel's grammar for the tests: text, number and TRUE/FALSE literals, omitted arguments,
  // single-cell references (A1, $A$1, Sheet2!A1, 'My Sheet'!A1), FDQ calls, IFERROR(x, y) and x/n, x*n.
  // Anything else parses to nothing and shows #NAME?.
  const ERROR_VALUES = {
    invalidValue: "#VALUE!",
    notAvailable: "#N/A",
    invalidNumber: "#NUM!",
    divisionByZero: "#DIV/0!",
  };
  const ERROR_CODES = Object.fromEntries(Object.entries(ERROR_VALUES).map(([code, value]) => [value, code]));
  const OTHER_ERRORS = ["#NAME?", "#REF!", "#NULL!", "#SPILL!", "#CALC!", "#BUSY!"];
  const isErrorText = (v) => Object.values(ERROR_VALUES).includes(v) || OTHER_ERRORS.includes(v);

  /** An error value on its way through a formula, as Excel passes it on. */
  function excelError(value, message) {
    return { excelError: value, code: ERROR_CODES[value] || value, message: message || "" };
  }

  function parseExpression(text) {
    let i = 0;
    const space = () => {
      while (i < text.length && /\s/.test(text[i])) i++;
    };
    const fail = () => {
      throw new Error("unsupported formula");
    };
    function quoted(quote) {
      let value = "";
      i++;
      for (;;) {
        const j = text.indexOf(quote, i);
        if (j < 0) fail();
        value += text.slice(i, j);
        if (text[j + 1] === quote) {
          value += quote;
          i = j + 2;
        } else {
          i = j + 1;
          return value;
        }
      }
    }
    function list() {
      const items = [];
      space();
      if (text[i] === ")") {
        i++;
        return items;
      }
      for (;;) {
        items.push(expression());
        space();
        if (text[i] === ")") {
          i++;
          return items;
        }
        if (text[i] !== ",") fail();
        i++;
      }
    }
    function primary() {
      space();
      const ch = text[i];
      if (ch === "," || ch === ")") return { type: "literal", value: null };
      if (ch === '"') return { type: "literal", value: quoted('"') };
      const number = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?/.exec(text.slice(i));
      if (number) {
        i += number[0].length;
        return { type: "literal", value: Number(number[0]) };
      }
      if (ch === "'") {
        const sheet = quoted("'");
        if (text[i] !== "!") fail();
        i++;
        const cell = /^\$?[A-Za-z]{1,3}\$?\d+/.exec(text.slice(i));
        if (!cell) fail();
        i += cell[0].length;
        return { type: "ref", sheet, cell: cell[0] };
      }
      const word = /^[A-Za-z_$][A-Za-z0-9_.$!]*/.exec(text.slice(i));
      if (!word) fail();
      i += word[0].length;
      space();
      const upper = word[0].toUpperCase();
      if (text[i] === "(") {
        i++;
        const args = list();
        if (upper === "IFERROR" && args.length === 2)
          return { type: "iferror", value: args[0], fallback: args[1] };
        if (upper.startsWith("FDQ.")) return { type: "call", name: upper.slice(4), args };
        fail();
      }
      if (upper === "TRUE" || upper === "FALSE") return { type: "literal", value: upper === "TRUE" };
      const bang = word[0].lastIndexOf("!");
      const cell = word[0].slice(bang + 1);
      if (!/^\$?[A-Za-z]{1,3}\$?\d+$/.test(cell)) fail();
      return { type: "ref", sheet: bang < 0 ? undefined : word[0].slice(0, bang), cell };
    }
    function expression() {
      let left = primary();
      space();
      while (text[i] === "/" || text[i] === "*") {
        const op = text[i++];
        left = { type: "op", op, left, right: primary() };
        space();
      }
      return left;
    }
    try {
      if (text[0] !== "=") return undefined;
      i = 1;
      const tree = expression();
      space();
      return i === text.length ? tree : undefined;
    } catch {
      return undefined;
    }
  }

  /** A node's value; rejects with an excelError for an error value. */
  function evaluateNode(node, sheet) {
    if (node.type === "literal") return Promise.resolve(node.value);
    if (node.type === "ref") {
      const box = parseAddress(node.cell);
      const target = state.sheets.find((s) => s.name === (node.sheet || sheet.name));
      if (!target) return Promise.reject(excelError("#REF!"));
      const c = getCell(target, box.top, box.left);
      const value = c ? c.value : null;
      return isErrorText(value)
        ? Promise.reject(excelError(value, c && c.error ? c.error.message : ""))
        : Promise.resolve(value === "" ? null : value);
    }
    if (node.type === "iferror")
      return evaluateNode(node.value, sheet).catch(() => evaluateNode(node.fallback, sheet));
    if (node.type === "op") {
      return Promise.all([evaluateNode(node.left, sheet), evaluateNode(node.right, sheet)]).then(([a, b]) => {
        if (typeof a !== "number" || typeof b !== "number") throw excelError("#VALUE!");
        if (node.op === "/" && b === 0) throw excelError("#DIV/0!");
        return node.op === "/" ? a / b : a * b;
      });
    }
    const fn = state.functions.get(node.name);
    if (!fn) return Promise.reject(excelError("#NAME?"));
    // The functions declare no invocation parameter (no @requiresAddress): only the typed arguments.
    return Promise.all(node.args.map((a) => evaluateNode(a, sheet))).then((args) =>
      Promise.resolve()
        .then(() => fn.apply(null, args))
        .then(
          (result) => (Array.isArray(result) ? result[0][0] : result),
          (err) => {
            const code = err && err.code ? err.code : "invalidValue";
            throw excelError(ERROR_VALUES[code] || "#VALUE!", err && err.message ? err.message : "");
          },
        ),
    );
  }

  function evaluate(sheet, key, cell) {
    const tree = parseExpression(cell.formula);
    if (!tree) {
      cell.value = "#NAME?";
      return Promise.resolve();
    }
    cell.value = "#BUSY!";
    const run = evaluateNode(tree, sheet)
      .then(
        (value) => {
          cell.value = value === null ? 0 : value;
          cell.error = null;
        },
        (err) => {
          cell.value = err.excelError;
          cell.error = { code: err.code, message: err.message };
        },
      )
      .finally(() => state.pending.delete(run));
    state.pending.add(run);
    return run;
  }

  function recalculateAll(type) {
    state.calculations.push(type);
    for (const sheet of state.sheets) {
      for (const [key, cell] of sheet.cells) if (cell.formula) evaluate(sheet, key, cell);
    }
  }

  // ---- Excel JavaScript API proxies ----------------------------------------------------------
  class PropertyNotLoadedError extends Error {
    constructor(prop) {
      super("PropertyNotLoaded: The property '" + prop + "' is not available. Call load() and sync() first.");
      this.code = "PropertyNotLoaded";
    }
  }

  /** An object whose listed properties must be loaded (and synced) before they are read. */
  function loadable(context, props) {
    const obj = { __requested: new Set(), __loaded: new Set() };
    obj.load = function (names) {
      const list = Array.isArray(names) ? names : String(names || props.join(",")).split(",");
      for (const n of list) obj.__requested.add(n.trim().split("/")[0]);
      context.__tracked.add(obj);
      return obj;
    };
    for (const prop of props) {
      Object.defineProperty(obj, prop.name || prop, {
        enumerable: true,
        get() {
          const name = prop.name || prop;
          if (!obj.__loaded.has(name)) throw new PropertyNotLoadedError(name);
          return obj["__get_" + name]();
        },
        set(v) {
          const name = prop.name || prop;
          const setter = obj["__set_" + name];
          if (!setter) throw new Error("InvalidOperation: " + name + " is read-only");
          context.__queue.push(() => setter(v));
        },
      });
    }
    return obj;
  }

  function makeRange(context, sheetName, box, isNull) {
    const r = loadable(context, [
      "address",
      "formulas",
      "values",
      "rowCount",
      "columnCount",
      "isNullObject",
      "rowIndex",
      "columnIndex",
    ]);
    const cells = () => {
      const sheet = sheetNamed(sheetName);
      const rows = [];
      for (let row = box.top; row <= box.bottom; row++) {
        const line = [];
        for (let col = box.left; col <= box.right; col++) line.push(getCell(sheet, row, col));
        rows.push(line);
      }
      return rows;
    };
    r.__get_isNullObject = () => Boolean(isNull);
    const guard = (fn) => () => {
      if (isNull) throw new Error("InvalidOperation: the range is a null object");
      return fn();
    };
    r.__get_address = guard(() => rangeText(sheetName, box));
    r.__get_rowIndex = guard(() => box.top);
    r.__get_columnIndex = guard(() => box.left);
    r.__get_rowCount = guard(() => box.bottom - box.top + 1);
    r.__get_columnCount = guard(() => box.right - box.left + 1);
    r.__get_formulas = guard(() =>
      cells().map((line) => line.map((c) => (c ? (c.formula !== null ? c.formula : c.value) : ""))),
    );
    r.__get_values = guard(() => cells().map((line) => line.map((c) => (c ? c.value : ""))));
    const write = (matrix) => {
      const sheet = sheetNamed(sheetName);
      matrix.forEach((line, i) => line.forEach((v, j) => writeCell(sheet, box.top + i, box.left + j, v)));
      state.log.push({ op: "write", address: rangeText(sheetName, box), matrix });
    };
    r.__set_formulas = write;
    r.__set_values = write;
    r.select = () => {
      context.__queue.push(() => {
        state.activeSheet = sheetName;
        setSelection(sheetName, box);
      });
    };
    r.getCell = (row, col) =>
      makeRange(context, sheetName, {
        top: box.top + row,
        left: box.left + col,
        bottom: box.top + row,
        right: box.left + col,
      });
    r.getSpillingToRangeOrNullObject = () => makeRange(context, sheetName, box, true);
    return r;
  }

  function usedBox(sheet) {
    let box = null;
    for (const key of sheet.cells.keys()) {
      const { row, col } = parseCell(key);
      if (!box) box = { top: row, left: col, bottom: row, right: col };
      else {
        box.top = Math.min(box.top, row);
        box.left = Math.min(box.left, col);
        box.bottom = Math.max(box.bottom, row);
        box.right = Math.max(box.right, col);
      }
    }
    return box;
  }

  function makeWorksheet(context, name) {
    const ws = loadable(context, ["name"]);
    ws.__get_name = () => name;
    ws.getRange = (address) => {
      const box = parseAddress(address);
      return makeRange(context, box.sheet || name, box);
    };
    ws.getUsedRangeOrNullObject = () => {
      const box = usedBox(sheetNamed(name));
      return box
        ? makeRange(context, name, box)
        : makeRange(context, name, { top: 0, left: 0, bottom: 0, right: 0 }, true);
    };
    ws.activate = () => context.__queue.push(() => (state.activeSheet = name));
    return ws;
  }

  function makeContext() {
    const context = { __tracked: new Set(), __queue: [] };
    const worksheets = loadable(context, ["items"]);
    worksheets.__get_items = () => state.sheets.map((s) => makeLoadedWorksheet(context, s.name));
    worksheets.getItem = (name) => {
      sheetNamed(name);
      return makeWorksheet(context, name);
    };
    worksheets.getActiveWorksheet = () => makeWorksheet(context, state.activeSheet);
    context.workbook = {
      worksheets,
      getSelectedRange: () => {
        const s = state.selection;
        return makeRange(context, s.sheet, s);
      },
      application: {
        calculate: (type) => context.__queue.push(() => recalculateAll(type)),
      },
    };
    context.sync = () =>
      Promise.resolve().then(() => {
        for (const op of context.__queue.splice(0)) op();
        for (const obj of context.__tracked) {
          for (const name of obj.__requested) obj.__loaded.add(name);
        }
      });
    return context;
  }

  /** Items of a loaded collection come with their scalar properties loaded, as in Excel. */
  function makeLoadedWorksheet(context, name) {
    const ws = makeWorksheet(context, name);
    ws.__loaded.add("name");
    return ws;
  }

  function setSelection(sheet, box) {
    state.selection = { sheet, top: box.top, left: box.left, bottom: box.bottom, right: box.right };
    for (const handler of state.handlers.selection) handler({ type: "documentSelectionChanged" });
  }

  // ---- OfficeRuntime.storage (persists in localStorage, like the real one across reloads) ----
  const storage = {
    getItem: (key) => Promise.resolve(localStorage.getItem(STORAGE_PREFIX + key)),
    setItem: (key, value) => {
      localStorage.setItem(STORAGE_PREFIX + key, String(value));
      return Promise.resolve();
    },
    removeItem: (key) => {
      localStorage.removeItem(STORAGE_PREFIX + key);
      return Promise.resolve();
    },
    getItems: (keys) =>
      Promise.resolve(Object.fromEntries(keys.map((k) => [k, localStorage.getItem(STORAGE_PREFIX + k)]))),
    setItems: (items) => {
      for (const [k, v] of Object.entries(items)) localStorage.setItem(STORAGE_PREFIX + k, String(v));
      return Promise.resolve();
    },
    removeItems: (keys) => {
      for (const k of keys) localStorage.removeItem(STORAGE_PREFIX + k);
      return Promise.resolve();
    },
  };

  // ---- CustomFunctions --------------------------------------------------------------------
  class CustomFunctionsError extends Error {
    constructor(code, message) {
      super(message || "");
      this.code = code;
    }
  }

  window.CustomFunctions = {
    associate(id, fn) {
      if (typeof id === "object") {
        for (const [k, v] of Object.entries(id)) state.functions.set(k.toUpperCase(), v);
      } else {
        state.functions.set(String(id).toUpperCase(), fn);
      }
    },
    Error: CustomFunctionsError,
    ErrorCode: {
      invalidValue: "invalidValue",
      notAvailable: "notAvailable",
      divisionByZero: "divisionByZero",
      invalidNumber: "invalidNumber",
      nullReference: "nullReference",
      invalidName: "invalidName",
      invalidReference: "invalidReference",
    },
  };

  window.OfficeRuntime = { storage };

  const readyInfo = { host: "Excel", platform: "OfficeOnline" };
  // Office initialises after all the page's scripts have run (task pane, commands, functions: deferred
  // scripts run before DOMContentLoaded), so every entry has registered itself before onReady callbacks.
  const officeReady = new Promise((resolve) => {
    if (document.readyState === "loading") {
      document.addEventListener("DOMContentLoaded", () => resolve(readyInfo), { once: true });
    } else resolve(readyInfo);
  });
  window.Office = {
    HostType: { Excel: "Excel" },
    PlatformType: { OfficeOnline: "OfficeOnline" },
    EventType: {
      DocumentSelectionChanged: "documentSelectionChanged",
      OfficeThemeChanged: "officeThemeChanged",
    },
    AsyncResultStatus: { Succeeded: "succeeded", Failed: "failed" },
    StartupBehavior: { load: "Load", none: "None" },
    context: {
      get officeTheme() {
        return state.theme;
      },
      requirements: { isSetSupported: () => true },
      document: {
        // Document settings live in the workbook file; here, in memory for the page's life.
        settings: {
          get: (name) => (state.documentSettings.has(name) ? state.documentSettings.get(name) : null),
          set: (name, value) => state.documentSettings.set(name, value),
          remove: (name) => state.documentSettings.delete(name),
          saveAsync: (callback) => callback && callback({ status: "succeeded" }),
        },
        addHandlerAsync(type, handler, callback) {
          if (type === "documentSelectionChanged") state.handlers.selection.push(handler);
          if (type === "officeThemeChanged") state.handlers.theme.push(handler);
          if (callback) callback({ status: "succeeded" });
        },
      },
    },
    addin: {
      setStartupBehavior: () => Promise.resolve(),
      showAsTaskpane: () => Promise.resolve(),
    },
    actions: { associate: () => undefined },
    onReady(callback) {
      const ready = officeReady;
      if (callback) ready.then(callback);
      return ready;
    },
  };

  window.Excel = {
    CalculationType: { recalculate: "Recalculate", full: "Full", fullRebuild: "FullRebuild" },
    run(batch) {
      return Promise.resolve().then(() => batch(makeContext()));
    },
  };

  // ---- the test's handle --------------------------------------------------------------------
  window.__officeDouble = {
    /** Sets cells: { "Sheet1!A1": "=FDQ.DATAPOINT(...)", "Sheet2!B3": 42 }. Creates sheets. */
    seed(cells) {
      for (const [address, input] of Object.entries(cells)) {
        const box = parseAddress(address);
        writeCell(addSheet(box.sheet || state.activeSheet), box.top, box.left, input);
      }
    },
    addSheet,
    select(address) {
      const box = parseAddress(address);
      state.activeSheet = box.sheet || state.activeSheet;
      setSelection(state.activeSheet, box);
    },
    selection() {
      return rangeText(state.selection.sheet, state.selection);
    },
    cell(address) {
      const box = parseAddress(address);
      const c = getCell(sheetNamed(box.sheet || state.activeSheet), box.top, box.left);
      return c ? { formula: c.formula, value: c.value, error: c.error } : null;
    },
    /** Resolves when every custom function call started so far has settled. */
    settled() {
      return Promise.all([...state.pending]).then(() =>
        state.pending.size > 0 ? this.settled() : undefined,
      );
    },
    calculations: () => state.calculations.slice(),
    functions: () => [...state.functions.keys()],
    setTheme(kind) {
      state.theme = kind === "dark" ? DARK_THEME : LIGHT_THEME;
      for (const handler of state.handlers.theme)
        handler({ type: "officeThemeChanged", officeTheme: state.theme });
    },
    storageSnapshot() {
      const out = {};
      for (let i = 0; i < localStorage.length; i++) {
        const k = localStorage.key(i);
        if (k && k.startsWith(STORAGE_PREFIX)) out[k.slice(STORAGE_PREFIX.length)] = localStorage.getItem(k);
      }
      return out;
    },
    log: () => state.log.slice(),
    documentSettings: () => Object.fromEntries(state.documentSettings),
  };
  if (window.__officeDoubleTheme === "dark") state.theme = DARK_THEME;

  // ---- the workbook as opened: set by the test before the page loads ---------------------------
  // Cells come with the values saved in the file and are NOT calculated, as Excel does not re-run custom
  // functions at open; document settings are those saved in the file.
  const opened = window.__officeDoubleWorkbook || {};
  for (const [address, saved] of Object.entries(opened.cells || {})) {
    const box = parseAddress(address);
    const sheet = addSheet(box.sheet || state.activeSheet);
    sheet.cells.set(cellName(box.top, box.left), { formula: saved.formula, value: saved.value, error: null });
  }
  for (const [name, value] of Object.entries(opened.documentSettings || {})) {
    state.documentSettings.set(name, value);
  }
})();

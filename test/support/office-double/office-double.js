/* global window, document, localStorage, fetch, URL, TextEncoder, atob */
// A test double of the parts of office.js that FDQ for Excel's page uses, for browser tests outside Office.
// test/browser/harness.ts serves six files as one script in place of office.js, in this order:
//   a1.js (addresses), formulas.js (the grammar), grid.js (calculation: lifting, empty cells, spills,
//   recalculation), custom-xml.js (the workbook's custom XML parts), excel-api.js (load/sync, the 5 MB payload
//   cap), and this file (Office, OfficeRuntime, CustomFunctions, the document's file and the tests' handle).
// It is as strict as Excel where the add-in depends on it:
// - Matrix results spill into the grid; a spill onto a non-empty cell shows #SPILL!, and clearing it spills.
// - Empty referenced cells reach a function as 0 in "desktop" mode and as null in "web" mode
//   (office-js#4702); a range given to a scalar parameter is array-lifted; a matrix parameter (functions.json
//   "dimensionality": "matrix", read from the page's own functions.json as Excel does) gets the range.
// - A change recalculates its dependents; calculate("Recalculate") re-runs volatile formulas only, "Full" and
//   "FullRebuild" every formula (office-js#1462). Cells of the opened workbook are not recalculated at open.
// - Properties are readable only after load() and sync(), with their value at that sync; in "web" mode a sync
//   whose request or response exceeds 5 MB fails with RichApi.Error RequestPayloadSizeLimitExceeded /
//   ResponsePayloadSizeLimitExceeded (Excel on the web's limit); every sync's size is recorded.
//
// Set before the page loads (the harness does it):
//   window.__officeDoubleWorkbook = { platform: "web" | "desktop" (default "web"),
//     cells: { "Sheet1!A1": { formula, value } } (saved values, not recalculated at open),
//     documentSettings: { name: value }, partitionKey: "..." (Office.context.partitionKey, web only),
//     customXmlParts: ["<xml .../>"] (saved in the file), url: "https://.../Book.xlsx" (document.url),
//     requirementSets: { CustomFunctionsRuntime: "1.3" } (the highest version of each set named; others all),
//     unsupportedSets: ["CustomFunctionsRuntime 1.4"] (requirement sets isSetSupported denies; default none) }
//   window.__officeDoubleTheme = "light" | "dark"
// The tests' handle, window.__officeDouble:
//   seed({ "Sheet1!A1": "=FDQ...", "Sheet2!B3": 42 }) types cells (creates sheets); addSheet(name);
//   formatCells({ "Sheet1!B2": "#,##0.0" }); protect(sheetName);
//   select(address); selection(); cell(address) -> { formula, value, error, spill?, valueAsJson? } | null
//   (valueAsJson: the data type a function returned, see grid.js);
//   settled() waits for every function call; calculations() lists calculate() types; functions();
//   platform(); runs(address) calculations of a formula cell; syncs() -> [{ request, response, failed }]
//   bytes per sync; setTheme(kind);
//   storageSnapshot(); log(); documentSettings(); customXmlParts() -> [{ id, namespaceUri, xml }];
//   createdWorkbooks() -> base64 texts given to Excel.createWorkbook; openFiles() -> files not closed.
// The document's file (getFileAsync, compressed) is the grid as a real .xlsx package when the test gives the page
// a builder (window.__officeDoubleXlsx, see test/support/office-double/double-package.ts: built in Node from the
// grid's cells as they are now), else a stand-in: the UTF-8 JSON of the grid's formulas and values and the
// custom XML parts. Either is given in slices. At most two files may be open at once, as in Office.
// Two workbooks, one storage: OfficeRuntime.storage is the page origin's localStorage under the prefix
// "office-double:", as the real one is the webview's localStorage under a prefix; every page of one
// browser context shares it, so two pages opened on one context (harness openWorkbook) are two workbooks,
// each with its own runtime, on one storage. A write past the quota is dropped without an error, as the
// real storage gives no signal when it is full (office-js#2901).
(function () {
  "use strict";
  const D = window.__officeDoubleParts;
  const { parseAddress, rangeText, cellName } = D.a1;
  const { state, addSheet, sheetNamed, getCell, writeCell, placeCell } = D.grid;

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
  const opened = window.__officeDoubleWorkbook || {};
  state.platform = opened.platform === "desktop" ? "desktop" : "web";
  state.theme = window.__officeDoubleTheme === "dark" ? DARK_THEME : LIGHT_THEME;
  state.handlers = { selection: [], theme: [] };
  state.documentSettings = new Map();
  state.openFiles = [];
  state.createdWorkbooks = [];
  addSheet("Sheet1");

  /** The stand-in for the document's package: every cell's formula and value, and the custom XML parts. */
  function packageOf() {
    const cells = {};
    for (const sheet of state.sheets) {
      for (const [key, c] of sheet.cells) {
        if (c.spillParent) continue;
        cells[D.a1.quoteSheet(sheet.name) + "!" + key] = { formula: c.formula || "", value: c.value };
      }
    }
    return {
      sheets: state.sheets.map((s) => s.name),
      cells,
      customXmlParts: state.customXmlParts.map((p) => p.xml),
    };
  }

  /** The open document file (Office.File) of `bytes`, in slices, in the open-files slot `slot`. */
  function openFile(slot, bytes, sliceSize) {
    const file = Object.assign(slot, {
      size: bytes.length,
      sliceCount: Math.max(1, Math.ceil(bytes.length / sliceSize)),
      closed: false,
      getSliceAsync(index, cb) {
        if (file.closed) return cb({ status: "failed", error: { message: "The file is closed." } });
        const data = Array.from(bytes.subarray(index * sliceSize, (index + 1) * sliceSize));
        cb({ status: "succeeded", value: { data, index, size: data.length } });
      },
      closeAsync(cb) {
        file.closed = true;
        state.openFiles = state.openFiles.filter((f) => f !== file);
        if (cb) cb({ status: "succeeded" });
      },
    });
    return file;
  }

  function setSelection(sheet, box) {
    state.selection = { sheet, top: box.top, left: box.left, bottom: box.bottom, right: box.right };
    for (const handler of state.handlers.selection) handler({ type: "documentSelectionChanged" });
  }
  D.setSelection = setSelection;

  // ---- OfficeRuntime.storage ------------------------------------------------------------------------
  /** Stores, or drops the write silently when the origin's storage is full (office-js#2901). */
  function put(key, value) {
    try {
      localStorage.setItem(STORAGE_PREFIX + key, String(value));
    } catch (err) {
      state.log.push({ op: "storage-full", key, error: String(err) });
    }
  }
  const storage = {
    getItem: (key) => Promise.resolve(localStorage.getItem(STORAGE_PREFIX + key)),
    setItem: (key, value) => {
      put(key, value);
      return Promise.resolve();
    },
    removeItem: (key) => {
      localStorage.removeItem(STORAGE_PREFIX + key);
      return Promise.resolve();
    },
    getItems: (keys) =>
      Promise.resolve(Object.fromEntries(keys.map((k) => [k, localStorage.getItem(STORAGE_PREFIX + k)]))),
    setItems: (items) => {
      for (const [k, v] of Object.entries(items)) put(k, v);
      return Promise.resolve();
    },
    removeItems: (keys) => {
      for (const k of keys) localStorage.removeItem(STORAGE_PREFIX + k);
      return Promise.resolve();
    },
  };

  // ---- functions.json: how Excel shapes each function's arguments -------------------------------------
  const metadataLoaded = fetch(new URL("functions.json", document.baseURI).href)
    .then((res) => (res.ok ? res.json() : { functions: [] }))
    .then((json) => {
      state.allowCustomData = json.allowCustomDataForDataTypeAny === true;
      for (const f of json.functions || []) {
        state.metadata.set(String(f.id).toUpperCase(), {
          params: (f.parameters || []).map((p) => ({
            matrix: p.dimensionality === "matrix",
            type: p.type || "any",
          })),
          volatile: Boolean(f.options && f.options.volatile),
        });
      }
    })
    .catch((err) => state.log.push({ op: "no-functions-json", error: String(err) }));

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

  const platformType = state.platform === "desktop" ? "PC" : "OfficeOnline";
  const readyInfo = { host: "Excel", platform: platformType };
  // Office initialises after all the page's scripts have run (task pane, commands, functions: deferred
  // scripts run before DOMContentLoaded), so every entry has registered itself before onReady callbacks;
  // Excel knows functions.json before it runs any function.
  const domReady = new Promise((resolve) => {
    if (document.readyState === "loading") {
      document.addEventListener("DOMContentLoaded", () => resolve(), { once: true });
    } else resolve();
  });
  const officeReady = Promise.all([domReady, metadataLoaded]).then(() => readyInfo);
  window.Office = {
    HostType: { Excel: "Excel" },
    PlatformType: { OfficeOnline: "OfficeOnline", PC: "PC" },
    EventType: {
      DocumentSelectionChanged: "documentSelectionChanged",
      OfficeThemeChanged: "officeThemeChanged",
    },
    AsyncResultStatus: { Succeeded: "succeeded", Failed: "failed" },
    FileType: { Compressed: "compressed", Pdf: "pdf", Text: "text" },
    StartupBehavior: { load: "Load", none: "None" },
    context: {
      get officeTheme() {
        return state.theme;
      },
      platform: platformType,
      // Excel on the web partitions add-in storage; elsewhere the key is undefined (docs: persisting state).
      partitionKey: state.platform === "web" ? opened.partitionKey : undefined,
      // Every set, unless the opened workbook names the highest version of some (requirementSets: { name:
      // "1.3" }, or null for none of it), as an older Excel answers.
      requirements: {
        isSetSupported: (name, version) => {
          if ((opened.unsupportedSets || []).includes(String(name) + " " + String(version || "")))
            return false;
          const sets = opened.requirementSets || {};
          if (!Object.prototype.hasOwnProperty.call(sets, name)) return true;
          if (sets[name] === null) return false;
          const asked = String(version || "1.1")
            .split(".")
            .map(Number);
          const highest = String(sets[name]).split(".").map(Number);
          for (let i = 0; i < Math.max(asked.length, highest.length); i++) {
            if ((asked[i] || 0) !== (highest[i] || 0)) return (asked[i] || 0) < (highest[i] || 0);
          }
          return true;
        },
      },
      document: {
        // Document settings live in the workbook file; here, in memory for the page's life.
        settings: {
          get: (name) => (state.documentSettings.has(name) ? state.documentSettings.get(name) : null),
          set: (name, value) => state.documentSettings.set(name, value),
          remove: (name) => state.documentSettings.delete(name),
          saveAsync: (callback) => callback && callback({ status: "succeeded" }),
        },
        url: opened.url,
        getFileAsync(fileType, options, callback) {
          const done = typeof options === "function" ? options : callback;
          const fail = (message) =>
            done({ status: "failed", error: { code: 5001, name: "Internal Error", message: message } });
          if (fileType !== "compressed") return fail("Excel gives its file as compressed only.");
          if (state.openFiles.length >= 2) return fail("Too many files are open: close one first.");
          const sliceSize = (options && options.sliceSize) || 4 * 1024 * 1024;
          if (sliceSize > 4 * 1024 * 1024) return fail("sliceSize is over 4 MB.");
          const contents = packageOf();
          // The slot is taken at once, as Office counts a file open from the call on.
          const slot = {};
          state.openFiles.push(slot);
          const built =
            typeof window.__officeDoubleXlsx === "function"
              ? Promise.resolve(window.__officeDoubleXlsx(contents)).then((base64) =>
                  Uint8Array.from(atob(base64), (ch) => ch.charCodeAt(0)),
                )
              : Promise.resolve(new TextEncoder().encode(JSON.stringify(contents)));
          built.then(
            (bytes) => done({ status: "succeeded", value: openFile(slot, bytes, sliceSize) }),
            (err) => {
              state.openFiles = state.openFiles.filter((f) => f !== slot);
              fail("the package could not be built: " + String(err));
            },
          );
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
    ClearApplyTo: { all: "All", formats: "Formats", contents: "Contents", hyperlinks: "Hyperlinks" },
    /** Opens a workbook from an .xlsx package's base64 (ExcelApi 1.8); the double records it. */
    createWorkbook(base64) {
      if (typeof base64 !== "string" || !/^[A-Za-z0-9+/]*={0,2}$/.test(base64) || base64.length % 4 !== 0) {
        return Promise.reject(new Error("InvalidArgument: the workbook is not base64 text."));
      }
      state.createdWorkbooks.push(base64);
      return Promise.resolve();
    },
    run(batch) {
      return Promise.resolve().then(() => batch(D.excel.makeContext()));
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
    /** Sets number formats as Range.numberFormat does: { "Sheet1!B2": "#,##0.0" }. */
    formatCells(formats) {
      for (const [address, format] of Object.entries(formats)) {
        const box = parseAddress(address);
        state.numberFormats.set(
          (box.sheet || state.activeSheet) + "!" + D.a1.cellName(box.top, box.left),
          format,
        );
      }
    },
    /** Protects a sheet (Worksheet.protection.protected is then true). */
    protect(name) {
      state.protectedSheets.add(name);
    },
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
      if (!c) return null;
      const out = { formula: c.formula, value: c.value, error: c.error };
      if (c.spill) out.spill = rangeText(box.sheet || state.activeSheet, c.spill);
      if (c.valueAsJson) out.valueAsJson = c.valueAsJson;
      return out;
    },
    /**
     * What Excel's formula value preview shows for `formula` (e.g. '=FDQ.DATAPOINT("AAPL","roic","ROIC",2023)')
     * on the active sheet or `sheet`: the functions run with isInValuePreview true; no cell changes.
     */
    preview(formula, sheet) {
      return D.grid.preview(sheet || state.activeSheet, formula);
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
    /** The number format Range.numberFormat set on "Sheet!A1" (General when none was). */
    numberFormat: (address) => state.numberFormats.get(address) || "General",
    sheets: () => state.sheets.map((s) => s.name),
    documentSettings: () => Object.fromEntries(state.documentSettings),
    platform: () => state.platform,
    /** How many times a formula cell has been calculated since it was typed (or opened). */
    runs(address) {
      const box = parseAddress(address);
      const c = getCell(sheetNamed(box.sheet || state.activeSheet), box.top, box.left);
      return c && c.runs ? c.runs : 0;
    },
    syncs: () => state.syncs.map((s) => Object.assign({}, s)),
    customXmlParts: () => state.customXmlParts.map((p) => Object.assign({}, p)),
    createdWorkbooks: () => state.createdWorkbooks.slice(),
    openFiles: () => state.openFiles.length,
  };

  // ---- the workbook as opened: set by the test before the page loads ---------------------------
  // Cells come with the values saved in the file and are NOT calculated, as Excel does not re-run custom
  // functions at open (ECF #368); document settings are those saved in the file.
  for (const [address, saved] of Object.entries(opened.cells || {})) {
    const box = parseAddress(address);
    const sheet = addSheet(box.sheet || state.activeSheet);
    const formula = typeof saved.formula === "string" && saved.formula.startsWith("=") ? saved.formula : null;
    placeCell(sheet, cellName(box.top, box.left), { formula, value: saved.value, error: null });
  }
  for (const xml of opened.customXmlParts || []) D.customXml.addPart(xml);
  for (const [name, value] of Object.entries(opened.documentSettings || {})) {
    state.documentSettings.set(name, value);
  }
})();

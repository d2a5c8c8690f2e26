/* global window, TextEncoder */
// Office test double, part 4 of 5: the Excel JavaScript API over the grid. It enforces Excel's load/sync
// rule (a property is readable only after load() and sync(), with the value it had at that sync) and counts
// each sync's payload: Excel on the web caps one request and one response at 5 MB and fails the batch
// beyond (docs: "Resource limits and performance optimization of Office Add-ins"), so the double fails a
// sync over it in "web" mode and records every sync's size in both modes.
(function () {
  "use strict";
  const D = window.__officeDoubleParts;
  const { parseAddress, rangeText, cellBox } = D.a1;
  const { state, sheetNamed, getCell, writeCell, recalculate } = D.grid;

  /** 5 MB counted in decimal megabytes: the stricter reading of Microsoft's "5 MB". */
  const PAYLOAD_LIMIT_BYTES = 5 * 1000 * 1000;
  /** What one queued operation or load costs on the wire besides its data (ids, method names). */
  const OPERATION_BYTES = 64;
  const encoder = new TextEncoder();
  const bytesOf = (value) => encoder.encode(JSON.stringify(value === undefined ? null : value)).length;

  class PropertyNotLoadedError extends Error {
    constructor(prop) {
      super("PropertyNotLoaded: The property '" + prop + "' is not available. Call load() and sync() first.");
      this.code = "PropertyNotLoaded";
    }
  }

  /** An object whose listed properties must be loaded (and synced) before they are read. */
  function loadable(context, props) {
    const obj = { __loaded: new Set(), __values: new Map(), __errors: new Map() };
    obj.load = function (names) {
      const list = Array.isArray(names) ? names : String(names || props.join(",")).split(",");
      const wanted = list.map((n) => n.trim().split("/")[0]).filter(Boolean);
      context.__loads.push({ obj, names: wanted });
      return obj;
    };
    for (const name of props) {
      Object.defineProperty(obj, name, {
        enumerable: true,
        get() {
          if (!obj.__loaded.has(name)) throw new PropertyNotLoadedError(name);
          if (obj.__errors.has(name)) throw obj.__errors.get(name);
          return obj.__values.has(name) ? obj.__values.get(name) : obj["__get_" + name]();
        },
        set(v) {
          const setter = obj["__set_" + name];
          if (!setter) throw new Error("InvalidOperation: " + name + " is read-only");
          context.__queue.push({ run: () => setter(v), bytes: OPERATION_BYTES + bytesOf(v) });
        },
      });
    }
    return obj;
  }

  /**
   * A range proxy. `at` and `isNull` may be functions, resolved when the batch runs (a spill range is known
   * only then, as in Excel).
   */
  function makeRange(context, sheetName, at, isNull) {
    const boxNow = typeof at === "function" ? at : () => at;
    const nullNow = typeof isNull === "function" ? isNull : () => Boolean(isNull);
    const r = loadable(context, [
      "address",
      "formulas",
      "values",
      "valuesAsJson",
      "rowCount",
      "columnCount",
      "isNullObject",
      "rowIndex",
      "columnIndex",
      "numberFormat",
    ]);
    const cells = (box) => {
      const sheet = sheetNamed(sheetName);
      const rows = [];
      for (let row = box.top; row <= box.bottom; row++) {
        const line = [];
        for (let col = box.left; col <= box.right; col++) line.push(getCell(sheet, row, col));
        rows.push(line);
      }
      return rows;
    };
    r.__get_isNullObject = () => nullNow();
    const guard = (fn) => () => {
      if (nullNow()) throw new Error("InvalidOperation: the range is a null object");
      return fn(boxNow());
    };
    r.__get_address = guard((box) => rangeText(sheetName, box));
    r.__get_rowIndex = guard((box) => box.top);
    r.__get_columnIndex = guard((box) => box.left);
    r.__get_rowCount = guard((box) => box.bottom - box.top + 1);
    r.__get_columnCount = guard((box) => box.right - box.left + 1);
    // A spilled cell has no formula of its own: Range.formulas gives its value, as in Excel.
    r.__get_formulas = guard((box) =>
      cells(box).map((line) => line.map((c) => (c ? (c.formula ? c.formula : c.value) : ""))),
    );
    r.__get_values = guard((box) => cells(box).map((line) => line.map((c) => (c ? c.value : ""))));
    // Range.valuesAsJson (ExcelApi 1.16): a data type as the function returned it, a plain value as its JSON.
    const asJson = (c) => {
      if (!c || c.value === "") return { type: "Empty", basicValue: "" };
      if (c.valueAsJson) return c.valueAsJson;
      if (c.error) return { type: "Error", basicValue: c.value };
      const type =
        typeof c.value === "number" ? "Double" : typeof c.value === "boolean" ? "Boolean" : "String";
      return { type, basicValue: c.value };
    };
    r.__get_valuesAsJson = guard((box) => cells(box).map((line) => line.map(asJson)));
    const write = (matrix) => {
      const sheet = sheetNamed(sheetName);
      const box = boxNow();
      matrix.forEach((line, i) => line.forEach((v, j) => writeCell(sheet, box.top + i, box.left + j, v)));
      state.log.push({ op: "write", address: rangeText(sheetName, box), matrix });
    };
    r.__set_formulas = write;
    // As in Excel, a value typed with a leading apostrophe is that text (the apostrophe is not kept).
    r.__set_values = (matrix) =>
      write(
        matrix.map((line) => line.map((v) => (typeof v === "string" && v.startsWith("'") ? v.slice(1) : v))),
      );
    // Number formats are kept by cell (state.numberFormats, "Sheet!A1"), for the tests to read; nothing shows them.
    r.__get_numberFormat = guard((box) =>
      cells(box).map((line, i) =>
        line.map(
          (_, j) =>
            state.numberFormats.get(sheetName + "!" + D.a1.cellName(box.top + i, box.left + j)) || "General",
        ),
      ),
    );
    r.__set_numberFormat = (matrix) => {
      const box = boxNow();
      matrix.forEach((line, i) =>
        line.forEach((f, j) =>
          state.numberFormats.set(sheetName + "!" + D.a1.cellName(box.top + i, box.left + j), f),
        ),
      );
    };
    // Range.format: bold and column width are accepted and logged; the double draws nothing.
    r.format = {
      font: {
        set bold(v) {
          context.__queue.push({
            run: () => state.log.push({ op: "bold", address: rangeText(sheetName, boxNow()), value: v }),
            bytes: OPERATION_BYTES,
          });
        },
      },
      set columnWidth(v) {
        context.__queue.push({
          run: () => state.log.push({ op: "columnWidth", address: rangeText(sheetName, boxNow()), value: v }),
          bytes: OPERATION_BYTES,
        });
      },
    };
    // Range.clear(applyTo): the double keeps no formats, so every kind clears the contents.
    r.clear = () => {
      context.__queue.push({
        run: () => {
          const sheet = sheetNamed(sheetName);
          const box = boxNow();
          for (let row = box.top; row <= box.bottom; row++)
            for (let col = box.left; col <= box.right; col++) writeCell(sheet, row, col, "");
          state.log.push({ op: "clear", address: rangeText(sheetName, box) });
        },
        bytes: OPERATION_BYTES,
      });
    };
    r.select = () => {
      context.__queue.push({
        run: () => {
          state.activeSheet = sheetName;
          D.setSelection(sheetName, boxNow());
        },
        bytes: OPERATION_BYTES,
      });
    };
    Object.defineProperty(r, "worksheet", { get: () => makeWorksheet(context, sheetName) });
    r.getCell = (row, col) =>
      makeRange(context, sheetName, () => cellBox(boxNow().top + row, boxNow().left + col));
    r.getSpillingToRangeOrNullObject = () => {
      const spillOf = () => {
        const anchor = getCell(sheetNamed(sheetName), boxNow().top, boxNow().left);
        return (anchor && anchor.spill) || null;
      };
      return makeRange(
        context,
        sheetName,
        () => spillOf() || boxNow(),
        () => !spillOf(),
      );
    };
    return r;
  }

  function usedBox(sheet) {
    let box = null;
    for (const key of sheet.cells.keys()) {
      const { row, col } = D.a1.parseCell(key);
      if (!box) box = cellBox(row, col);
      else {
        box.top = Math.min(box.top, row);
        box.left = Math.min(box.left, col);
        box.bottom = Math.max(box.bottom, row);
        box.right = Math.max(box.right, col);
      }
    }
    return box;
  }

  function makeWorksheet(context, name, missing) {
    const ws = loadable(context, ["name", "isNullObject"]);
    ws.__get_isNullObject = () => Boolean(missing);
    ws.__get_name = () => {
      if (missing) throw new Error("InvalidOperation: the worksheet is a null object");
      return name;
    };
    ws.getRange = (address) => {
      const box = parseAddress(address);
      return makeRange(context, box.sheet || name, box);
    };
    ws.getRangeByIndexes = (row, col, rows, cols) =>
      makeRange(context, name, { top: row, left: col, bottom: row + rows - 1, right: col + cols - 1 });
    // valuesOnly (true) leaves out cells with formatting only; the double has no formatting, so both agree.
    ws.getUsedRangeOrNullObject = () => {
      const box = usedBox(sheetNamed(name));
      return box ? makeRange(context, name, box) : makeRange(context, name, cellBox(0, 0), true);
    };
    ws.getUsedRange = () => {
      const box = usedBox(sheetNamed(name));
      if (!box) return makeRange(context, name, cellBox(0, 0));
      return makeRange(context, name, box);
    };
    // Worksheet.protection (ExcelApi 1.2): whether the sheet is protected; the tests protect a sheet by name.
    ws.protection = loadable(context, ["protected"]);
    ws.protection.__get_protected = () => state.protectedSheets.has(name);
    ws.activate = () =>
      context.__queue.push({ run: () => (state.activeSheet = name), bytes: OPERATION_BYTES });
    return ws;
  }

  /** Items of a loaded collection come with their scalar properties loaded, as in Excel. */
  function makeLoadedWorksheet(context, name) {
    const ws = makeWorksheet(context, name);
    ws.__loaded.add("name");
    ws.__values.set("name", name);
    return ws;
  }

  function payloadError(kind, bytes) {
    const code = kind === "request" ? "RequestPayloadSizeLimitExceeded" : "ResponsePayloadSizeLimitExceeded";
    const err = new Error(
      "RichApi.Error: The " +
        kind +
        " payload size (" +
        bytes +
        " bytes) has exceeded the limit of " +
        PAYLOAD_LIMIT_BYTES +
        " bytes.",
    );
    err.name = "RichApi.Error";
    err.code = code;
    return err;
  }

  function makeContext() {
    const context = { __queue: [], __loads: [] };
    const worksheets = loadable(context, ["items"]);
    worksheets.__get_items = () => state.sheets.map((s) => makeLoadedWorksheet(context, s.name));
    worksheets.getItem = (name) => {
      sheetNamed(name);
      return makeWorksheet(context, name);
    };
    worksheets.getActiveWorksheet = () => makeWorksheet(context, state.activeSheet);
    // Worksheets.add(name): a new sheet at the end; Excel refuses a name a sheet has (without regard to case).
    worksheets.add = (name) => {
      context.__queue.push({
        run: () => {
          if (state.sheets.some((s) => s.name.toLowerCase() === String(name).toLowerCase()))
            throw new Error("ItemAlreadyExists: a sheet named " + name + " exists");
          D.grid.addSheet(name);
        },
        bytes: OPERATION_BYTES,
      });
      return makeWorksheet(context, name);
    };
    // Excel finds a sheet by its name without regard to case.
    worksheets.getItemOrNullObject = (name) => {
      const sheet = state.sheets.find((s) => s.name.toLowerCase() === String(name).toLowerCase());
      return sheet ? makeWorksheet(context, sheet.name) : makeWorksheet(context, name, true);
    };
    context.workbook = {
      worksheets,
      getSelectedRange: () => makeRange(context, state.selection.sheet, state.selection),
      application: {
        calculate: (type) => context.__queue.push({ run: () => recalculate(type), bytes: OPERATION_BYTES }),
      },
      customXmlParts: D.customXml.makeCollection(context, loadable, OPERATION_BYTES, bytesOf),
    };
    context.sync = () =>
      Promise.resolve().then(() => {
        const queue = context.__queue.splice(0);
        const loads = context.__loads.splice(0);
        const request = queue.reduce((n, op) => n + op.bytes, 0) + loads.length * OPERATION_BYTES;
        const enforce = state.platform === "web";
        const record = { request, response: 0, failed: null };
        state.syncs.push(record);
        if (enforce && request > PAYLOAD_LIMIT_BYTES) {
          record.failed = "request";
          throw payloadError("request", request);
        }
        for (const op of queue) op.run();
        // Loaded values are those of this moment, as Excel answers them.
        for (const { obj, names } of loads) {
          for (const name of names) {
            try {
              const value = obj["__get_" + name]();
              obj.__values.set(name, value);
              obj.__errors.delete(name);
              record.response +=
                name === "items"
                  ? bytesOf(value.map((item) => item.__values.get("name")))
                  : bytesOf(value) + name.length;
            } catch (err) {
              obj.__errors.set(name, err);
            }
          }
        }
        if (enforce && record.response > PAYLOAD_LIMIT_BYTES) {
          record.failed = "response";
          throw payloadError("response", record.response);
        }
        for (const { obj, names } of loads) for (const name of names) obj.__loaded.add(name);
      });
    return context;
  }

  state.syncs = [];
  D.excel = { makeContext, PAYLOAD_LIMIT_BYTES };
})();

/* global window */
// Office test double, part 3 of 5: the workbook as Excel's calculation engine sees it. Formulas run the
// functions the page registered with CustomFunctions.associate, shaped by functions.json as Excel shapes
// them: a range given to a scalar parameter is array-lifted, a matrix parameter gets the range itself, an
// empty referenced cell arrives as 0 on the desktop and as null on the web (office-js#4702). Matrix results
// spill into the grid or show #SPILL! when the range is occupied. A change recalculates its dependents
// (automatic calculation); Application.calculate("Recalculate") re-runs only volatile formulas, "Full" and
// "FullRebuild" every formula, as Excel does for custom functions (office-js#1462).
// Every call gets Excel's invocation object as its last argument, after every declared parameter (an omitted
// one is null). Formula value preview (CustomFunctionsRuntime 1.5): previewing a formula being edited calls its
// functions with `invocation.isInValuePreview` true and shows the result beside the formula; no cell is
// written and no dependent recalculated. Other calls pass it false.
// Data types: a function's Entity or Double is kept as the cell's valueAsJson, its basicValue (an entity's is
// #VALUE!) as the cell's value; one Excel would refuse (formulas.js dataTypeProblems) shows #VALUE!. A reference to
// such a cell passes the data type on: to a parameter typed `any` as its JSON where functions.json allows custom
// data (allowCustomDataForDataTypeAny), otherwise, and to arithmetic, as its basicValue; dot notation
// (A2.Sector) reads a property.
(function () {
  "use strict";
  const D = window.__officeDoubleParts;
  const { cellName, parseCell, parseBox, inBox, cellBox } = D.a1;
  const {
    ERROR_VALUES,
    isErrorText,
    excelError,
    parseExpression,
    referencesOf,
    callsOf,
    isDataType,
    dataTypeProblems,
    basicOf,
    propertyOf,
  } = D.formulas;

  const state = {
    sheets: [],
    /** Number formats set through Range.numberFormat, by "Sheet!A1". */
    numberFormats: new Map(),
    /** Names of the sheets protected (Worksheet.protection.protected). */
    protectedSheets: new Set(),
    activeSheet: "Sheet1",
    selection: { sheet: "Sheet1", top: 0, left: 0, bottom: 0, right: 0 },
    /** "web" or "desktop": how an empty cell reaches a function, and whether the 5 MB cap applies. */
    platform: "web",
    calculations: [],
    functions: new Map(),
    /** functions.json by id: { params: [{ matrix, type }], volatile }. */
    metadata: new Map(),
    /** functions.json's allowCustomDataForDataTypeAny: `any` parameters receive data types as their JSON. */
    allowCustomData: false,
    /** Every formula cell: "sheet\u0000A1" -> { sheet, key }. */
    formulaCells: new Map(),
    pending: new Set(),
    log: [],
  };

  /** A reference to an empty cell, until it reaches a function (or arithmetic, where it is 0). */
  const EMPTY = Object.freeze({ empty: true });
  /** Circular references stop here instead of recalculating forever. */
  const MAX_CHAIN = 50;

  function sheetNamed(name) {
    const sheet = state.sheets.find((s) => s.name === name);
    if (!sheet) throw new Error("ItemNotFound: no worksheet named " + name);
    return sheet;
  }
  function addSheet(name) {
    if (!state.sheets.some((s) => s.name === name)) state.sheets.push({ name, cells: new Map() });
    return sheetNamed(name);
  }
  const getCell = (sheet, row, col) => sheet.cells.get(cellName(row, col));
  const formulaId = (sheet, key) => sheet.name + "\u0000" + key;

  /** Puts a cell in place (a formula is registered for dependencies and recalculation). */
  function placeCell(sheet, key, cell) {
    const old = sheet.cells.get(key);
    if (old && old.spill) clearSpill(sheet, key, old);
    sheet.cells.set(key, cell);
    if (cell.formula) state.formulaCells.set(formulaId(sheet, key), { sheet, key });
    else state.formulaCells.delete(formulaId(sheet, key));
  }

  /** Writes what a user (or Range.values/formulas) types: a formula starting with "=", a constant or "". */
  function writeCell(sheet, row, col, input) {
    const key = cellName(row, col);
    if (input === "" || input === null || input === undefined) {
      const old = sheet.cells.get(key);
      if (old && old.spill) clearSpill(sheet, key, old);
      sheet.cells.delete(key);
      state.formulaCells.delete(formulaId(sheet, key));
    } else if (typeof input === "string" && input.startsWith("=")) {
      // No value yet: whatever it computes is a change its dependents see when it settles.
      placeCell(sheet, key, { formula: input, value: null, error: null });
    } else {
      placeCell(sheet, key, { formula: null, value: input, error: null });
    }
    respillAround(sheet, row, col, key);
    const cell = sheet.cells.get(key);
    if (cell && cell.formula) evaluate(sheet, key, cell, 0);
    else changed(sheet, cellBox(row, col), 0);
  }

  // ---- spills ----------------------------------------------------------------------------------
  function clearSpill(sheet, key, cell) {
    const box = cell.spill;
    cell.spill = null;
    if (!box) return;
    for (let r = box.top; r <= box.bottom; r++) {
      for (let c = box.left; c <= box.right; c++) {
        const k = cellName(r, c);
        const ghost = sheet.cells.get(k);
        if (ghost && ghost.spillParent === key) sheet.cells.delete(k);
      }
    }
  }

  /** An element of a result as a cell: a value, or an error value with its message. */
  function asCell(v) {
    if (v && v.excelError)
      return { value: v.excelError, error: { code: v.code, message: v.message }, valueAsJson: null };
    if (isDataType(v)) {
      const problems = dataTypeProblems(v);
      if (problems.length > 0)
        return asCell(excelError("#VALUE!", "Excel refused the data type: " + problems.join("; ")));
      const basic = basicOf(v);
      return { value: basic && basic.excelError ? basic.excelError : basic, error: null, valueAsJson: v };
    }
    return { value: v === null || v === undefined || v === EMPTY ? 0 : v, error: null, valueAsJson: null };
  }

  /** Spills a matrix result from its anchor, or shows #SPILL! when a cell of the range is not blank. */
  function spill(sheet, key, cell, rows) {
    clearSpill(sheet, key, cell);
    const { row, col } = parseCell(key);
    const width = Math.max(...rows.map((r) => r.length));
    const box = { top: row, left: col, bottom: row + rows.length - 1, right: col + width - 1 };
    cell.result = rows;
    cell.wanted = box;
    let blocked = false;
    for (let r = box.top; r <= box.bottom && !blocked; r++) {
      for (let c = box.left; c <= box.right && !blocked; c++) {
        if ((r !== row || c !== col) && sheet.cells.has(cellName(r, c))) blocked = true;
      }
    }
    if (blocked) {
      Object.assign(cell, {
        value: "#SPILL!",
        error: { code: "#SPILL!", message: "The spill range isn't blank." },
      });
      return;
    }
    rows.forEach((line, i) =>
      line.forEach((v, j) => {
        if (i === 0 && j === 0) return;
        sheet.cells.set(
          cellName(row + i, col + j),
          Object.assign(asCell(v), { formula: null, spillParent: key }),
        );
      }),
    );
    Object.assign(cell, asCell(rows[0][0]));
    if (rows.length > 1 || width > 1) cell.spill = box;
  }

  /** A write inside another formula's spill range blocks it, and clearing a blocker lets it spill again. */
  function respillAround(sheet, row, col, writtenKey) {
    for (const { sheet: s, key } of state.formulaCells.values()) {
      const anchor = s.cells.get(key);
      if (s !== sheet || key === writtenKey || !anchor || !anchor.wanted || !anchor.result) continue;
      if (!inBox(anchor.wanted, row, col)) continue;
      const before = anchor.value;
      spill(sheet, key, anchor, anchor.result);
      if (before !== anchor.value || anchor.spill) changed(sheet, anchor.wanted, 0);
    }
  }

  // ---- evaluation ------------------------------------------------------------------------------
  function refBox(node, target) {
    if (!node.spill) return parseBox(node.ref);
    const { row, col } = parseCell(node.ref);
    const anchor = getCell(target, row, col);
    if (!anchor || !anchor.formula) return null;
    return anchor.spill || cellBox(row, col);
  }

  function readRef(node, sheet) {
    const target = state.sheets.find((s) => s.name === (node.sheet || sheet.name));
    const box = target && refBox(node, target);
    if (!box) return Promise.reject(excelError("#REF!"));
    const read = (r, c) => {
      const cell = getCell(target, r, c);
      if (!cell || cell.value === "") return EMPTY;
      if (cell.valueAsJson) return cell.valueAsJson;
      return isErrorText(cell.value)
        ? excelError(cell.value, cell.error ? cell.error.message : "")
        : cell.value;
    };
    if (box.top === box.bottom && box.left === box.right) {
      const v = read(box.top, box.left);
      return v && v.excelError ? Promise.reject(v) : Promise.resolve(v);
    }
    const rows = [];
    for (let r = box.top; r <= box.bottom; r++) {
      const line = [];
      for (let c = box.left; c <= box.right; c++) line.push(read(r, c));
      rows.push(line);
    }
    return Promise.resolve({ range: rows });
  }

  /** What a function receives for one cell's value, by the parameter's declared type. */
  function argumentValue(v, type) {
    if (isDataType(v)) return type === "any" && state.allowCustomData ? v : basicOf(v);
    if (v === EMPTY) {
      if (state.platform === "web") return null;
      return type === "string" ? "" : type === "boolean" ? false : 0;
    }
    if (type === "string" && (typeof v === "number" || typeof v === "boolean"))
      return typeof v === "boolean" ? (v ? "TRUE" : "FALSE") : String(v);
    return v;
  }

  function fromCustomError(err) {
    const code = err && err.code ? err.code : "invalidValue";
    return excelError(ERROR_VALUES[code] || "#VALUE!", err && err.message ? err.message : "");
  }

  /** One call of a function: a scalar, a { range } for a matrix, or a rejection with an excelError. */
  function invoke(fn, args, call) {
    const padded = args.slice();
    while (padded.length < call.declared) padded.push(null);
    padded.push({ functionName: call.name, isInValuePreview: call.preview });
    // An entity given where its JSON is not passed is its basicValue, #VALUE!: the call is not made.
    const error = args.find((v) => v && v.excelError);
    if (error) return Promise.reject(error);
    return Promise.resolve()
      .then(() => fn.apply(null, padded))
      .then(
        (result) =>
          Array.isArray(result)
            ? { range: result.map((line) => line.map((v) => (v instanceof Error ? fromCustomError(v) : v))) }
            : result,
        (err) => Promise.reject(fromCustomError(err)),
      );
  }

  function evaluateCall(node, sheet, preview) {
    const fn = state.functions.get(node.name);
    if (!fn) return Promise.reject(excelError("#NAME?"));
    const meta = state.metadata.get(node.name) || { params: [] };
    const call = { name: node.name, declared: meta.params.length, preview: Boolean(preview) };
    return Promise.all(node.args.map((a) => evaluateNode(a, sheet, preview))).then((values) => {
      const params = values.map((v, i) => meta.params[i] || { matrix: false, type: "any" });
      const firstError = (rows) => rows.flat().find((v) => v && v.excelError);
      // A matrix parameter takes the range as it is (a single value as a 1x1 matrix).
      const shaped = values.map((v, i) => {
        if (!params[i].matrix) return v;
        if (v === null && node.args[i].type === "literal") return null;
        const rows = v && v.range ? v.range : [[v]];
        const error = firstError(rows);
        if (error) throw error;
        return rows.map((line) => line.map((x) => argumentValue(x, params[i].type)));
      });
      const lifted = shaped.map((v, i) => !params[i].matrix && v && v.range);
      if (!lifted.some(Boolean)) {
        return invoke(
          fn,
          shaped.map((v, i) => (params[i].matrix ? v : argumentValue(v, params[i].type))),
          call,
        );
      }
      // Array lifting: one call per cell of the ranges, paired cell by cell; a one-row or one-column range
      // repeats along the other direction; a cell outside a smaller range gets #N/A (Excel's broadcasting).
      const ranges = shaped.filter((v, i) => lifted[i]).map((v) => v.range);
      const height = Math.max(...ranges.map((r) => r.length));
      const width = Math.max(...ranges.map((r) => Math.max(...r.map((line) => line.length))));
      const element = (rows, r, c) => {
        const line = rows.length === 1 ? rows[0] : rows[r];
        const v = line && (line.length === 1 ? line[0] : line[c]);
        return v === undefined ? excelError("#N/A") : v;
      };
      const cells = [];
      for (let r = 0; r < height; r++) {
        const line = [];
        for (let c = 0; c < width; c++) {
          const args = shaped.map((v, i) => (lifted[i] ? element(v.range, r, c) : v));
          const error = args.find((v) => v && v.excelError);
          line.push(
            error
              ? Promise.resolve(error)
              : invoke(
                  fn,
                  args.map((v, i) => (params[i].matrix ? v : argumentValue(v, params[i].type))),
                  call,
                ).then(
                  // A lifted call that answers a matrix would nest arrays, which Excel refuses with #CALC!.
                  (v) =>
                    v && v.range
                      ? v.range.length === 1 && v.range[0].length === 1
                        ? v.range[0][0]
                        : excelError("#CALC!")
                      : v,
                  (err) => err,
                ),
          );
        }
        cells.push(Promise.all(line));
      }
      return Promise.all(cells).then((rows) => ({ range: rows }));
    });
  }

  /** A node's value (a scalar, EMPTY or a { range }); rejects with an excelError for an error value. */
  function evaluateNode(node, sheet, preview) {
    if (node.type === "literal") return Promise.resolve(node.value);
    if (node.type === "ref") return readRef(node, sheet);
    if (node.type === "iferror")
      return evaluateNode(node.value, sheet, preview).catch(() =>
        evaluateNode(node.fallback, sheet, preview),
      );
    if (node.type === "prop") {
      return evaluateNode(node.target, sheet, preview).then((value) => {
        const property = value && value.range ? excelError("#VALUE!") : propertyOf(value, node.name);
        return property && property.excelError ? Promise.reject(property) : property;
      });
    }
    if (node.type === "op") {
      return Promise.all([
        evaluateNode(node.left, sheet, preview),
        evaluateNode(node.right, sheet, preview),
      ]).then(([a, b]) => {
        [a, b] = [a, b].map((v) => (v === EMPTY ? 0 : basicOf(v)));
        const error = [a, b].find((v) => v && v.excelError);
        if (error) throw error;
        if (typeof a !== "number" || typeof b !== "number") throw excelError("#VALUE!");
        if (node.op === "/" && b === 0) throw excelError("#DIV/0!");
        return node.op === "/" ? a / b : a * b;
      });
    }
    return evaluateCall(node, sheet, preview);
  }

  /**
   * The formula value preview of `formula` (the part of a formula being edited that the user selected) on
   * `sheet`: { value, error } as a cell would show it, or { rows } for a matrix. Nothing is written.
   */
  function preview(sheetName, formula) {
    const tree = parseExpression(formula);
    if (!tree) return Promise.resolve({ value: "#NAME?", error: { code: "#NAME?", message: "" } });
    const shown = (v) => {
      const c = asCell(v);
      return { value: c.value, error: c.error };
    };
    return evaluateNode(tree, sheetNamed(sheetName), true).then(
      (value) => (value && value.range ? { rows: value.range.map((line) => line.map(shown)) } : shown(value)),
      (err) => shown(err && err.excelError ? err : excelError("#VALUE!", String(err))),
    );
  }

  function evaluate(sheet, key, cell, chain) {
    if (!cell.tree) cell.tree = parseExpression(cell.formula) || null;
    // A spill's other cells change with its result, so the result is part of what changed.
    const before = { value: cell.value, error: cell.error, spill: cell.spill, result: cell.result };
    const run = (cell.runs = (cell.runs || 0) + 1);
    const current = () => sheet.cells.get(key) === cell && cell.runs === run;
    const finish = (apply) => {
      if (!current()) return;
      apply();
      const after = { value: cell.value, error: cell.error, spill: cell.spill, result: cell.result };
      if (JSON.stringify(before) === JSON.stringify(after)) return;
      // Dependents of the anchor, of the old spill range and of the new one.
      const { row, col } = parseCell(key);
      changed(sheet, hull([cellBox(row, col), before.spill, cell.spill, cell.wanted]), chain + 1);
    };
    if (!cell.tree) {
      finish(() => Object.assign(cell, { value: "#NAME?", error: { code: "#NAME?", message: "" } }));
      return Promise.resolve();
    }
    cell.value = "#BUSY!";
    const work = evaluateNode(cell.tree, sheet)
      .then(
        (value) =>
          finish(() => {
            if (value && value.range) return spill(sheet, key, cell, value.range);
            clearSpill(sheet, key, cell);
            cell.wanted = null;
            cell.result = null;
            Object.assign(cell, asCell(value));
          }),
        (err) =>
          finish(() => {
            clearSpill(sheet, key, cell);
            cell.wanted = null;
            cell.result = null;
            Object.assign(cell, asCell(err.excelError ? err : excelError("#VALUE!", String(err))));
          }),
      )
      .finally(() => state.pending.delete(work));
    state.pending.add(work);
    return work;
  }

  // ---- dependencies and recalculation ---------------------------------------------------------------
  /** The smallest box around the given ones (null ones left out). */
  function hull(boxes) {
    const some = boxes.filter(Boolean);
    return {
      top: Math.min(...some.map((b) => b.top)),
      left: Math.min(...some.map((b) => b.left)),
      bottom: Math.max(...some.map((b) => b.bottom)),
      right: Math.max(...some.map((b) => b.right)),
    };
  }
  const overlaps = (a, b) => a.top <= b.bottom && b.top <= a.bottom && a.left <= b.right && b.left <= a.right;

  /** Recalculates the formulas that read any cell of `box` on `sheet`: automatic calculation. */
  function changed(sheet, box, chain) {
    if (chain > MAX_CHAIN) return;
    for (const { sheet: s, key } of [...state.formulaCells.values()]) {
      const cell = s.cells.get(key);
      if (!cell || !cell.formula) continue;
      if (!cell.tree) cell.tree = parseExpression(cell.formula) || null;
      const reads = referencesOf(cell.tree).some((node) => {
        if ((node.sheet || s.name) !== sheet.name) return false;
        const target = refBox(node, sheet) || cellBox(parseCell(node.ref).row, parseCell(node.ref).col);
        return overlaps(target, box);
      });
      if (reads) evaluate(s, key, cell, chain);
    }
  }

  /** Excel.CalculationType: "Recalculate" re-runs volatile formulas only (nothing is dirty under automatic
   * calculation, and F9 does not re-run non-volatile custom functions: office-js#1462); "Full" and
   * "FullRebuild" re-run every formula (the only way to refresh them, office-js-docs). */
  function recalculate(type) {
    state.calculations.push(type);
    for (const { sheet, key } of [...state.formulaCells.values()]) {
      const cell = sheet.cells.get(key);
      if (!cell) continue;
      if (!cell.tree) cell.tree = parseExpression(cell.formula) || null;
      const volatile = callsOf(cell.tree).some((name) => (state.metadata.get(name) || {}).volatile);
      if (type !== "Recalculate" || volatile) evaluate(sheet, key, cell, 0);
    }
  }

  D.grid = { state, EMPTY, addSheet, sheetNamed, getCell, writeCell, placeCell, recalculate, preview };
})();

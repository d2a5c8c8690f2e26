/* global window */
// Office test double, part 2 of 5: Excel error values and the formula grammar the double evaluates.
// Enough of Excel's grammar for the tests: text, number and TRUE/FALSE literals, omitted arguments,
// references to a cell or a range (A1, $A$1:B3, Sheet2!A1, 'My Sheet'!A1:A4) or to a spill (A1#), FDQ
// calls, IFERROR(x, y) and x/n, x*n, and a data type's property by dot notation (A2.Sector, A2.[Last trade date],
// A2.ROIC.Period). Anything else parses to nothing and shows #NAME?.
// Data types (ExcelApi 1.16, custom functions from CustomFunctionsRuntime 1.4) as Microsoft documents them: a
// function may return an Entity (text, properties, layouts.card) or a Double (basicValue, numberFormat,
// properties); dataTypeProblems says what Excel would refuse in one (then the cell shows #VALUE!).
(function () {
  "use strict";
  const D = window.__officeDoubleParts;

  const ERROR_VALUES = {
    invalidValue: "#VALUE!",
    notAvailable: "#N/A",
    invalidNumber: "#NUM!",
    divisionByZero: "#DIV/0!",
    nullReference: "#NULL!",
  };
  const ERROR_CODES = Object.fromEntries(Object.entries(ERROR_VALUES).map(([code, value]) => [value, code]));
  const OTHER_ERRORS = ["#NAME?", "#REF!", "#SPILL!", "#CALC!", "#BUSY!", "#FIELD!"];
  const isErrorText = (v) => Object.values(ERROR_VALUES).includes(v) || OTHER_ERRORS.includes(v);

  /** An error value on its way through a formula, as Excel passes it on. */
  function excelError(value, message) {
    return { excelError: value, code: ERROR_CODES[value] || value, message: message || "" };
  }

  const CELL = /^\$?[A-Za-z]{1,3}\$?\d+/;

  // ---- data types ---------------------------------------------------------------------------------
  /** Excel's bounds on a data type's parts: a property name's length, a text's length (a cell's 32,767). */
  const MAX_PROPERTY_NAME = 255;
  const MAX_TEXT = 32767;
  const BASIC_TYPES = { String: "string", Double: "number", Boolean: "boolean" };

  const isObject = (v) => typeof v === "object" && v !== null && !Array.isArray(v);
  /** A data type's JSON (not an error on its way, not a range). */
  const isDataType = (v) => isObject(v) && typeof v.type === "string" && !v.excelError && !v.range;

  /** What Excel refuses in a data type a function returned; [] when it keeps Microsoft's documented shape. */
  function dataTypeProblems(v, where) {
    where = where || "value";
    if (!isDataType(v)) return [where + ": not a data type"];
    const problems = [];
    const basic = BASIC_TYPES[v.type];
    if (basic && typeof v.basicValue !== basic)
      problems.push(where + ": a " + v.type + "'s basicValue must be a " + basic);
    if (v.type === "Double" && !Number.isFinite(v.basicValue))
      problems.push(where + ": a Double must be finite");
    if (v.type === "String" && typeof v.basicValue === "string" && v.basicValue.length > MAX_TEXT)
      problems.push(where + ": text longer than " + MAX_TEXT + " characters");
    if (v.type === "Entity" && (typeof v.text !== "string" || v.text.length > MAX_TEXT))
      problems.push(where + ": an Entity needs its text (at most " + MAX_TEXT + " characters)");
    if (!basic && v.type !== "Entity" && v.type !== "Error" && v.type !== "FormattedNumber")
      problems.push(where + ": unknown type " + v.type);
    const props = v.properties === undefined ? {} : v.properties;
    if (!isObject(props)) return problems.concat([where + ": properties must be an object"]);
    const seen = new Set();
    for (const [name, value] of Object.entries(props)) {
      const lower = name.toLowerCase();
      if (name.trim() === "") problems.push(where + ": a property name is empty");
      if (name.length > MAX_PROPERTY_NAME) problems.push(where + ": a property name is over 255 characters");
      if (seen.has(lower))
        problems.push(where + ": two properties are named " + name + " (names ignore case)");
      seen.add(lower);
      if (isDataType(value)) problems.push(...dataTypeProblems(value, where + "." + name));
    }
    const card = v.layouts && v.layouts.card;
    if (card) {
      const named = (n) => Object.prototype.hasOwnProperty.call(props, n);
      if (card.title && card.title.property !== undefined && !named(card.title.property))
        problems.push(where + ": the card's title names no property");
      for (const section of card.sections || []) {
        for (const n of section.properties || [])
          if (!named(n)) problems.push(where + ": a section names no property (" + n + ")");
      }
    }
    return problems;
  }

  /** What a formula computes with: a Double's number, a String's text; an Entity is #VALUE! (Excel's basicValue). */
  function basicOf(v) {
    if (!isDataType(v)) return v;
    if (v.type === "Entity") return excelError("#VALUE!", "");
    if (v.type === "Error") return excelError(v.basicValue || "#VALUE!", "");
    return v.basicValue;
  }

  /** A property of a data type by name, ignoring case, as dot notation reads it; #FIELD! when it has none. */
  function propertyOf(v, name) {
    const props = isDataType(v) && isObject(v.properties) ? v.properties : {};
    const key = Object.keys(props).find((k) => k.toLowerCase() === name.toLowerCase());
    if (key === undefined) return excelError("#FIELD!", "");
    const value = props[key];
    // A nested Double with properties or an entity stays a data type; a plain String or Double is its value.
    if (
      isDataType(value) &&
      (value.type === "Entity" || (value.properties && Object.keys(value.properties).length))
    )
      return value;
    return basicOf(value);
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
    /** The rest of a reference after its first cell: ":B3" for a range, "#" for a spill. */
    function reference(sheet, first) {
      if (text[i] === "#") {
        i++;
        return { type: "ref", sheet, ref: first, spill: true };
      }
      if (text[i] === ":") {
        const second = CELL.exec(text.slice(i + 1));
        if (!second) fail();
        i += 1 + second[0].length;
        return { type: "ref", sheet, ref: first + ":" + second[0], spill: false };
      }
      return { type: "ref", sheet, ref: first, spill: false };
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
        const cell = CELL.exec(text.slice(i));
        if (!cell) fail();
        i += cell[0].length;
        return reference(sheet, cell[0]);
      }
      const word = /^[A-Za-z_$][A-Za-z0-9_.$!]*/.exec(text.slice(i));
      if (!word) fail();
      i += word[0].length;
      const upper = word[0].toUpperCase();
      if (text[i] === "(" || (/\s/.test(text[i] || "") && text.slice(i).trimStart()[0] === "(")) {
        space();
        i++;
        const args = list();
        if (upper === "IFERROR" && args.length === 2)
          return { type: "iferror", value: args[0], fallback: args[1] };
        if (upper.startsWith("FDQ.")) return { type: "call", name: upper.slice(4), args };
        fail();
      }
      if (upper === "TRUE" || upper === "FALSE") return { type: "literal", value: upper === "TRUE" };
      // A2.Sector: the reference ends at the dot, which starts a property (postfix reads it).
      let name = word[0];
      const dotted = /^([A-Za-z_$][A-Za-z0-9_$]*!)?\$?[A-Za-z]{1,3}\$?\d+(?=\.)/.exec(name);
      if (dotted) {
        i -= name.length - dotted[0].length;
        name = dotted[0];
      }
      const bang = name.lastIndexOf("!");
      const cell = name.slice(bang + 1);
      if (!/^\$?[A-Za-z]{1,3}\$?\d+$/.test(cell)) fail();
      return reference(bang < 0 ? undefined : name.slice(0, bang), cell);
    }
    /** A property name after a dot: a word, or any text in brackets. */
    function propertyName() {
      if (text[i] === "[") {
        const j = text.indexOf("]", i);
        if (j < 0) fail();
        const name = text.slice(i + 1, j);
        i = j + 1;
        return name;
      }
      const word = /^[A-Za-z_][A-Za-z0-9_]*/.exec(text.slice(i));
      if (!word) fail();
      i += word[0].length;
      return word[0];
    }
    /** A reference followed by .Property (and .Property again). */
    function postfix() {
      let node = primary();
      while (node.type === "ref" || node.type === "prop") {
        if (text[i] !== ".") break;
        i++;
        node = { type: "prop", target: node, name: propertyName() };
      }
      return node;
    }
    function expression() {
      let left = postfix();
      space();
      while (text[i] === "/" || text[i] === "*") {
        const op = text[i++];
        left = { type: "op", op, left, right: postfix() };
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

  const childrenOf = (node) =>
    !node
      ? []
      : node.type === "call"
        ? node.args
        : node.type === "iferror"
          ? [node.value, node.fallback]
          : node.type === "op"
            ? [node.left, node.right]
            : node.type === "prop"
              ? [node.target]
              : [];

  /** The references of a parsed formula, for the dependency graph. */
  function referencesOf(node, out = []) {
    if (node && node.type === "ref") out.push(node);
    for (const child of childrenOf(node)) referencesOf(child, out);
    return out;
  }

  /** The FDQ functions a parsed formula calls. */
  function callsOf(node, out = []) {
    if (node && node.type === "call") out.push(node.name);
    for (const child of childrenOf(node)) callsOf(child, out);
    return out;
  }

  D.formulas = {
    ERROR_VALUES,
    ERROR_CODES,
    isErrorText,
    excelError,
    parseExpression,
    referencesOf,
    callsOf,
    isDataType,
    dataTypeProblems,
    basicOf,
    propertyOf,
  };
})();

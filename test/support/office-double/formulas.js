/* global window */
// Office test double, part 2 of 5: Excel error values and the formula grammar the double evaluates.
// Enough of Excel's grammar for the tests: text, number and TRUE/FALSE literals, omitted arguments,
// references to a cell or a range (A1, $A$1:B3, Sheet2!A1, 'My Sheet'!A1:A4) or to a spill (A1#), FDQ
// calls, IFERROR(x, y) and x/n, x*n. Anything else parses to nothing and shows #NAME?.
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
  const OTHER_ERRORS = ["#NAME?", "#REF!", "#SPILL!", "#CALC!", "#BUSY!"];
  const isErrorText = (v) => Object.values(ERROR_VALUES).includes(v) || OTHER_ERRORS.includes(v);

  /** An error value on its way through a formula, as Excel passes it on. */
  function excelError(value, message) {
    return { excelError: value, code: ERROR_CODES[value] || value, message: message || "" };
  }

  const CELL = /^\$?[A-Za-z]{1,3}\$?\d+/;

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
      const bang = word[0].lastIndexOf("!");
      const cell = word[0].slice(bang + 1);
      if (!/^\$?[A-Za-z]{1,3}\$?\d+$/.test(cell)) fail();
      return reference(bang < 0 ? undefined : word[0].slice(0, bang), cell);
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

  const childrenOf = (node) =>
    !node
      ? []
      : node.type === "call"
        ? node.args
        : node.type === "iferror"
          ? [node.value, node.fallback]
          : node.type === "op"
            ? [node.left, node.right]
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

  D.formulas = { ERROR_VALUES, ERROR_CODES, isErrorText, excelError, parseExpression, referencesOf, callsOf };
})();

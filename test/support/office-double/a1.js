/* global window */
// Office test double, part 1 of 5: A1 addresses. See office-double.js for what the double is and its API.
(function () {
  "use strict";
  const D = (window.__officeDoubleParts = window.__officeDoubleParts || {});

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
  /** "A1:B2" (no sheet) -> { top, left, bottom, right } */
  function parseBox(ref) {
    const [a, b] = ref.split(":");
    const start = parseCell(a);
    const end = b ? parseCell(b) : start;
    return {
      top: Math.min(start.row, end.row),
      left: Math.min(start.col, end.col),
      bottom: Math.max(start.row, end.row),
      right: Math.max(start.col, end.col),
    };
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
    return Object.assign({ sheet }, parseBox(ref));
  }
  function rangeText(sheet, box) {
    const first = cellName(box.top, box.left);
    const last = cellName(box.bottom, box.right);
    return quoteSheet(sheet) + "!" + (first === last ? first : first + ":" + last);
  }
  const inBox = (box, row, col) => row >= box.top && row <= box.bottom && col >= box.left && col <= box.right;
  const cellBox = (row, col) => ({ top: row, left: col, bottom: row, right: col });

  D.a1 = {
    columnName,
    columnIndex,
    cellName,
    parseCell,
    parseBox,
    parseAddress,
    rangeText,
    quoteSheet,
    inBox,
    cellBox,
  };
})();

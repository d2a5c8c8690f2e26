// Where the frozen formulas live in the package: fdq's own custom XML parts (src/workbook/own-parts.ts) in the
// namespace of src/workbook/freeze/frozen-formulas.ts.
import {
  FROZEN_NAMESPACE,
  parseFrozenParts,
  parseKeptChain,
  serializeFrozenParts,
  withKeptChain,
  type FrozenCell,
  type KeptCalcChain,
} from "./frozen-formulas";
import { addPart, ownParts, removePart, type OwnPart, type OwnPartFile } from "../own-parts";
import type { PackageEditor } from "../xlsx/structure";

const FROZEN: OwnPart = { root: "frozenFormulas", namespace: FROZEN_NAMESPACE };

/** Our frozen-formulas parts in the package, in the order workbook.xml.rels lists them. */
export function frozenParts(editor: PackageEditor): OwnPartFile[] {
  return ownParts(editor, FROZEN);
}

/** The frozen cells the package holds. */
export function readFrozenCells(editor: PackageEditor): FrozenCell[] {
  return parseFrozenParts(frozenParts(editor).map((p) => editor.text(p.item)));
}

/** The calculation chain freeze kept, if any. */
export function readKeptChain(editor: PackageEditor): KeptCalcChain | undefined {
  return parseKeptChain(frozenParts(editor).map((p) => editor.text(p.item)));
}

/**
 * Replaces our parts with ones holding `cells` and the kept calculation chain (none when there are no cells:
 * the chain is only kept while cells are frozen).
 */
export function writeFrozenCells(
  editor: PackageEditor,
  cells: readonly FrozenCell[],
  chain?: KeptCalcChain,
): void {
  for (const part of frozenParts(editor)) removePart(editor, part);
  serializeFrozenParts(cells).forEach((xml, i) =>
    addPart(editor, i === 0 && chain ? withKeptChain(xml, chain) : xml, FROZEN_NAMESPACE),
  );
}

// The workbook's file for "Share as values": Office gives the whole package (getFileAsync, compressed: the
// .xlsx bytes, read in slices), and Excel opens the shared copy as a new workbook from its bytes
// (Excel.createWorkbook, ExcelApi 1.8), which the user saves where they like. The open workbook is never
// changed: a copy built from the bytes cannot freeze the original by mistake, unlike freezing in place after
// asking the user to save a copy first.

/** Office's slice size for getFileAsync: its maximum, 4 MB. */
const SLICE_BYTES = 4 * 1024 * 1024;

const failed = (result: Office.AsyncResult<unknown>, what: string): Error =>
  new Error(`Office could not ${what}: ${result.error?.message ?? "no reason given"}.`);

function slice(file: Office.File, index: number): Promise<Uint8Array> {
  return new Promise((resolve, reject) =>
    file.getSliceAsync(index, (result) =>
      result.status === Office.AsyncResultStatus.Succeeded
        ? resolve(Uint8Array.from(result.value.data as ArrayLike<number>))
        : reject(failed(result, "read the workbook's file")),
    ),
  );
}

/** The workbook's file as it is now (unsaved changes included), as bytes. */
export function workbookFileBytes(): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    Office.context.document.getFileAsync(Office.FileType.Compressed, { sliceSize: SLICE_BYTES }, (result) => {
      if (result.status !== Office.AsyncResultStatus.Succeeded) {
        reject(failed(result, "give the workbook's file"));
        return;
      }
      const file = result.value;
      const read = async (): Promise<Uint8Array> => {
        const parts: Uint8Array[] = [];
        for (let i = 0; i < file.sliceCount; i++) parts.push(await slice(file, i));
        const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
        let at = 0;
        for (const p of parts) {
          out.set(p, at);
          at += p.length;
        }
        return out;
      };
      // Office allows two open files per document: the file is always closed.
      read().then(
        (bytes) => file.closeAsync(() => resolve(bytes)),
        (err: unknown) => file.closeAsync(() => reject(err as Error)),
      );
    });
  });
}

function base64Of(bytes: Uint8Array): string {
  let binary = "";
  const STEP = 0x8000;
  for (let i = 0; i < bytes.length; i += STEP) binary += String.fromCharCode(...bytes.subarray(i, i + STEP));
  return btoa(binary);
}

/** Opens `bytes` (an .xlsx package) as a new workbook in Excel. */
export async function openWorkbookCopy(bytes: Uint8Array): Promise<void> {
  await Excel.createWorkbook(base64Of(bytes));
}

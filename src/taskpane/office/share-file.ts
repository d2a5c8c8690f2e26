// The workbook's file for "Share as values": Office gives the whole package (getFileAsync, compressed: the
// .xlsx bytes, read in slices). The copy reaches the user as a download in Excel on the web (a Blob link: the
// browser saves "<name> (values).xlsx" where it saves downloads); in Excel on Windows and Mac, whose add-in
// web views do not save downloads, Excel opens it as a new workbook from its bytes (Excel.createWorkbook,
// ExcelApi 1.8), which the user saves where they like. The open workbook is never
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

/** How the copy reached the user. */
export type CopyHandOff = "downloaded" | "opened";

const PACKAGE_TYPES: Readonly<Record<string, string>> = {
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  xlsm: "application/vnd.ms-excel.sheet.macroEnabled.12",
};

/** Saves `bytes` as the download `fileName` (a Blob link, clicked). */
function download(bytes: Uint8Array, fileName: string): void {
  const ext = /\.(\w+)$/.exec(fileName)?.[1]?.toLowerCase() ?? "xlsx";
  const blob = new Blob([new Uint8Array(bytes)], { type: PACKAGE_TYPES[ext] ?? PACKAGE_TYPES.xlsx });
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  link.style.display = "none";
  document.body.append(link);
  link.click();
  link.remove();
  // The browser has the file once the click is handled; the URL is let go a little later.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/**
 * Hands `bytes` (an .xlsx package) to the user: a download named `fileName` in Excel on the web, a new
 * workbook elsewhere.
 */
export async function handOverCopy(bytes: Uint8Array, fileName: string): Promise<CopyHandOff> {
  if (Office.context.platform === Office.PlatformType.OfficeOnline) {
    download(bytes, fileName);
    return "downloaded";
  }
  await Excel.createWorkbook(base64Of(bytes));
  return "opened";
}

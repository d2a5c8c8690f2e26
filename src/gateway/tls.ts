// `--cert FILE --key FILE`: the gateway serves https itself (node:https), with a certificate from the
// organisation's CA or one a TLS proxy would otherwise hold. Both files are read and tried together at
// start-up, so a missing, unreadable or mismatched file stops the start with a message that names it.
import { readFileSync } from "node:fs";
import { createSecureContext } from "node:tls";
import { GatewaySetupError } from "./errors";

export interface TlsFiles {
  cert: Buffer;
  key: Buffer;
}

function read(flag: string, file: string): Buffer {
  try {
    return readFileSync(file);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? (e as Error).message;
    throw new GatewaySetupError(`${flag}: ${file} cannot be read (${code}).`);
  }
}

/** The PEM certificate (chain) and private key, or undefined for plain http (neither given). */
export function readTlsFiles(
  certFile: string | undefined,
  keyFile: string | undefined,
): TlsFiles | undefined {
  if (certFile === undefined && keyFile === undefined) return undefined;
  if (certFile === undefined || keyFile === undefined) {
    throw new GatewaySetupError(
      "--cert and --key go together: give the certificate and its private key (PEM).",
    );
  }
  const files = { cert: read("--cert", certFile), key: read("--key", keyFile) };
  try {
    createSecureContext(files);
  } catch (e) {
    throw new GatewaySetupError(
      `--cert ${certFile} and --key ${keyFile} are not a PEM certificate and its private key (${(e as Error).message}).`,
    );
  }
  return files;
}

// The Windows executable's signature. Node.js's node.exe is signed (Authenticode) by the Node.js
// project; injecting the plugin's bundle changes the file, so the signature no longer matches it,
// and Windows reports a signature that is invalid rather than none. The release removes it before
// the injection, as Node.js's documentation has `signtool remove /s` do: the executable ships
// unsigned (nothing here holds a code-signing certificate).

import { readFileSync, writeFileSync } from "node:fs";

/** Where the PE header of `bytes` keeps the certificate table's file offset and size. */
function certificateEntry(bytes: Buffer): number {
  const pe = bytes.readUInt32LE(0x3c);
  if (bytes.toString("latin1", pe, pe + 4) !== "PE\0\0") throw new Error("not a PE (Windows) executable");
  const optionalHeader = pe + 24;
  // The data directories follow the optional header's fixed part: 96 bytes in PE32, 112 in PE32+;
  // the certificate table is the fifth.
  const directories = optionalHeader + (bytes.readUInt16LE(optionalHeader) === 0x20b ? 112 : 96);
  return directories + 4 * 8;
}

/** The certificate table of the executable's bytes: its file offset and size (0 and 0 when unsigned). */
export function certificateTable(bytes: Buffer): { offset: number; size: number } {
  const entry = certificateEntry(bytes);
  return { offset: bytes.readUInt32LE(entry), size: bytes.readUInt32LE(entry + 4) };
}

/**
 * Removes the executable's Authenticode signature: its certificate table, at the file's end, cut
 * off, and the header's entry for it zeroed. Returns whether there was one.
 */
export function stripAuthenticode(file: string): boolean {
  const bytes = readFileSync(file);
  const { offset, size } = certificateTable(bytes);
  if (size === 0) return false;
  if (offset + size < bytes.length && bytes.subarray(offset + size).some((byte) => byte !== 0)) throw new Error(`${file}: data after the certificate table`);
  const entry = certificateEntry(bytes);
  bytes.writeUInt32LE(0, entry);
  bytes.writeUInt32LE(0, entry + 4);
  writeFileSync(file, bytes.subarray(0, offset));
  return true;
}

// A .tar.gz whose bytes depend on its files' names, contents and modes alone, so that two
// releases of one commit give the same archives (checked by test/package/release.test.ts): entries in
// name order, each with one fixed mtime (the commit's time), owner and group 0 with no names, mode
// 0755 or 0644; gzip with no file name and no time. Written here rather than by `tar`: GNU and
// BSD tar (the macOS runner's) take different flags for the same result.

import { execFileSync } from "node:child_process";
import { readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { constants, gzipSync } from "node:zlib";

const block = 512;

/**
 * The time every entry of a release carries, in seconds: SOURCE_DATE_EPOCH where the build
 * sets it (reproducible-builds.org's convention), else the time of the commit checked out.
 */
export function releaseEpoch(repo: string): number {
  if (process.env.SOURCE_DATE_EPOCH) return Number(process.env.SOURCE_DATE_EPOCH);
  return Number(execFileSync("git", ["log", "-1", "--format=%ct"], { cwd: repo, encoding: "utf8" }).trim());
}

/** A number as the NUL-terminated octal a ustar header field of `width` bytes holds. */
const octal = (value: number, width: number) => `${value.toString(8).padStart(width - 1, "0")}\0`;

/** The ustar header of a regular file. */
function header(name: string, mode: number, size: number, mtime: number): Buffer {
  if (Buffer.byteLength(name) > 100) throw new Error(`${name}: longer than a ustar name (100 bytes)`);
  const bytes = Buffer.alloc(block);
  const put = (offset: number, text: string) => bytes.write(text, offset, "ascii");
  bytes.write(name, 0, "utf8");
  put(100, octal(mode, 8));
  put(108, octal(0, 8)); // uid
  put(116, octal(0, 8)); // gid
  put(124, octal(size, 12));
  put(136, octal(mtime, 12));
  put(156, "0"); // a regular file
  put(257, "ustar\u000000");
  // The checksum is computed with its own field as spaces.
  put(148, "        ");
  let sum = 0;
  for (const byte of bytes) sum += byte;
  put(148, `${octal(sum, 7)} `);
  return bytes;
}

/** Writes `archive`: the `files` of `folder` (names relative to it), at its root, in name order. */
export function writeReproducibleTarGz(archive: string, folder: string, files: string[], mtime: number): void {
  const parts: Buffer[] = [];
  for (const name of [...files].sort()) {
    const path = join(folder, name);
    const content = readFileSync(path);
    const mode = statSync(path).mode & 0o111 ? 0o755 : 0o644;
    parts.push(header(name, mode, content.length, mtime), content, Buffer.alloc((block - (content.length % block)) % block));
  }
  parts.push(Buffer.alloc(2 * block)); // the end of the archive
  const gzip = gzipSync(Buffer.concat(parts), { level: constants.Z_BEST_COMPRESSION });
  // zlib writes no name and a zero time; its OS byte is the build platform's (3 on Linux, 19 on
  // macOS): always 3, Unix, as `gzip -n` on Linux writes it.
  gzip[9] = 3;
  writeFileSync(archive, gzip);
}

// A generated Python SDK as a user's pip installs it: a wheel built from sdk/python/<package>
// on the cached venv (scripts/toolchain.ts ensurePythonVenv: `pulumi` from PyPI), installed
// into a folder of its own. Installed, not put on PYTHONPATH as source: the SDK reads its own
// version from the package's metadata, which only an installed package has.
import { execFileSync } from "node:child_process";
import { cpSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { ensurePythonVenv } from "../../scripts/toolchain";
import { repoRoot } from "../../scripts/harness/packed-program";

export interface InstalledPythonSdk {
  /** The venv's python, with `pulumi`. */
  python: string;
  /** The wheel's file name. */
  wheel: string;
  /** What goes on PYTHONPATH. */
  site: string;
}

/** Builds and installs the Python SDK of package `name` under `work`/python/<name>. */
export function installPythonSdk(name: string, work: string): InstalledPythonSdk {
  const python = ensurePythonVenv();
  const source = join(work, "python", name, "source");
  const wheels = join(work, "python", name, "wheels");
  const site = join(work, "python", name, "site");
  // Built from a copy: setuptools writes build/ and *.egg-info beside pyproject.toml.
  cpSync(join(repoRoot, "sdk", "python", name), source, { recursive: true });
  execFileSync(python, ["-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation", "--wheel-dir", wheels, source], { encoding: "utf8" });
  const [wheel] = readdirSync(wheels);
  execFileSync(python, ["-m", "pip", "install", "--quiet", "--no-deps", "--target", site, join(wheels, wheel)], { encoding: "utf8" });
  return { python, wheel, site };
}

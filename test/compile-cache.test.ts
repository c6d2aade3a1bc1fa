// The code cache the test run's processes share (test/support/compile-cache.js): a module loads
// the same from the cache as compiled afresh, and the cache is reused, not refused and rewritten.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { repoRoot } from "./support/packed-program";

describe("the test run's code cache", function () {
  const dir = join(repoRoot, ".work", "compile-cache-test");
  const cacheDir = join(dir, "cache");
  const packages = join(dir, "node_modules");

  before(() => {
    rmSync(dir, { recursive: true, force: true });
    const write = (file: string, text: string) => {
      mkdirSync(join(packages, file, ".."), { recursive: true });
      writeFileSync(join(packages, file), text);
    };
    write("plain/index.js", "#!/usr/bin/env node\nexports.answer = () => require('./two').two * 21; exports.main = require.main === undefined;\n");
    write("plain/two.js", "exports.two = 2;\n");
    // Loading it changes V8's flags, as the Pulumi SDK does, before `plain` loads.
    write("flags/index.js", "require('v8').setFlagsFromString('--allow-natives-syntax'); module.exports = require('plain');\n");
    write("dynamic/index.js", "module.exports = () => import('./value.mjs');\n");
    // As the Pulumi SDK's program runner imports: through text it evaluates.
    write("evaluated/index.js", "const load = (0, eval)('u => import(u)');\nmodule.exports = () => load(require.resolve('dynamic/value.mjs'));\n");
    // As TypeScript does: import() only named in a comment, a message and a template.
    write("named/index.js", "// import('x') is not called\nconst message = \"write import() calls with parentheses\";\nmodule.exports = (m) => `import(${m})` + message.length;\n");
    write("dynamic/value.mjs", "export const value = 'imported';\n");
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  /** What the modules give, loaded with the code cache or, for comparison, by Node alone. */
  function load(cache = true): string {
    const script =
      "Promise.all([require('flags').answer(), require('flags').main, require('dynamic')().then((m) => m.value), require('evaluated')().then((m) => m.value), require('named')('x')]).then((r) => console.log(JSON.stringify(r)))";
    const preload = cache ? ["--require", join(__dirname, "support", "compile-cache.js")] : [];
    const run = spawnSync(process.execPath, [...preload, "-e", script], {
      cwd: dir,
      env: { PATH: process.env.PATH, PULUMI_CRM_COMPILE_CACHE: cacheDir },
      encoding: "utf8",
    });
    // Nothing on stderr: no failure, and no warning (such as one of a module loading itself).
    assert.deepEqual([run.status, run.stderr], [0, ""]);
    return run.stdout;
  }
  const cacheFiles = () => readdirSync(cacheDir).map((name) => `${name} ${statSync(join(cacheDir, name)).mtimeMs}`);

  it("runs modules as Node does: shebang, require, require.main, import() in code and in evaluated text", () => {
    assert.deepEqual(JSON.parse(load()), [42, true, "imported", "imported", "import(x)37"]);
    assert.equal(load(), load(false));
  });

  it("caches each module loaded after the flags changed, and the next process uses the cache as it is", () => {
    const written = cacheFiles();
    // `plain`, `two` and `named` (loaded after the flags changed); not `flags`, which changed them
    // while it ran, nor `dynamic` and `evaluated`, which call import(). Beside them, the verdicts
    // on the modules whose text holds "import(".
    assert.equal(written.filter((file) => !file.includes(".calls-import")).length, 3);
    assert.equal(load(), load(false));
    assert.deepEqual(cacheFiles(), written);
  });
});

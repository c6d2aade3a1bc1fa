// A V8 code cache for the CommonJS modules the test run's node processes load from its own
// installs (Node 22's NODE_COMPILE_CACHE does this; this Node 20 has no such option). Each of
// the some three hundred Pulumi programs and provider hosts of a run loads @pulumi/pulumi, and
// compiling it was a large part of their start-up. The global setup preloads this file in every
// process of the run through NODE_OPTIONS; the code that runs is the same, only its compilation
// is reused.
"use strict";
const { createHash } = require("node:crypto");
const { mkdirSync, readFileSync, renameSync, writeFileSync } = require("node:fs");
const Module = require("node:module");
const { dirname, join, resolve } = require("node:path");
const v8 = require("node:v8");
const vm = require("node:vm");

const cacheDir = process.env.PULUMI_CRM_COMPILE_CACHE;
/** Text that may be a call of import(), in code or in a string the module evaluates. */
const importCallText = /\bimport\s*\(/;
/** Only the repository's installs (its own and the test run's), never npm's or Node's. */
const cachedRoot = resolve(__dirname, "..", "..") + "/";

if (cacheDir) {
    // V8 refuses a cache made under other flags, and the Pulumi SDK sets --allow-natives-syntax
    // while it loads: the key names the flags set so far.
    let flagsSet = "";
    const setFlagsFromString = v8.setFlagsFromString;
    v8.setFlagsFromString = (flags) => {
        flagsSet += `${flags}\0`;
        return setFlagsFromString(flags);
    };
    const compile = Module.prototype._compile;
    Module.prototype._compile = function (content, filename, format) {
        // Node's own path for acorn while it loads, ES modules, the main module (whose load Node
        // gives a stat cache) and files outside the repository's installs; for modules that may
        // call import(), see callsImport below.
        if (
            loadingTokenizer ||
            (format && format !== "commonjs") ||
            this.id === "." ||
            !filename.startsWith(cachedRoot) ||
            !filename.includes("/node_modules/")
        ) {
            return compile.call(this, content, filename, format);
        }
        const flagsAtCompile = flagsSet;
        const cacheFile = join(cacheDir, createHash("sha1").update(`${process.version}\0${flagsAtCompile}\0${filename}\0`).update(content).digest("hex"));
        let cachedData;
        try {
            cachedData = readFileSync(cacheFile);
        } catch {
            cachedData = undefined;
        }
        // A cache file is only written for a module judged not to call import().
        if (cachedData === undefined && importCallText.test(content) && callsImport(content, cacheFile)) {
            return compile.call(this, content, filename, format);
        }
        let script;
        try {
            // A shebang is only valid at the very start of a script; "//" keeps the columns.
            const source = content.startsWith("#!") ? `//${content.slice(2)}` : content;
            script = new vm.Script(Module.wrap(source), { filename, cachedData });
        } catch {
            // Node reports a module that does not compile (or is an ES module) its own way.
            return compile.call(this, content, filename, format);
        }
        const moduleWrapper = script.runInThisContext({ displayErrors: true });
        const result = moduleWrapper.call(this.exports, this.exports, requireFor(this), this, filename, dirname(filename));
        // After the module has run, so the cache holds the functions its loading compiled (not at
        // exit: the engine ends provider hosts with SIGKILL), unless it changed the flags itself.
        if ((cachedData === undefined || script.cachedDataRejected) && flagsSet === flagsAtCompile) save(cacheFile, script.createCachedData());
        return result;
    };
}

/**
 * A script made from Node 20's code cache loses its import() callback, so a module that may call
 * import() compiles Node's way: one with an import keyword before "(", or one that evaluates text
 * (eval, Function) and holds "import(" in a string, as the Pulumi SDK's program runner does.
 * TypeScript only names import() in its messages and comments, and is cached. The verdict is kept
 * beside the cache (`.calls-import`), since tokenizing TypeScript takes a third of a second.
 */
function callsImport(content, cacheFile) {
    const verdictFile = `${cacheFile}.calls-import`;
    try {
        return readFileSync(verdictFile, "utf8") === "yes";
    } catch {
        // Not judged yet in this run.
    }
    let calls = false;
    try {
        let evaluatesText = false;
        let importInText = false;
        let previous;
        for (const token of acornTokenizer()(content, { ecmaVersion: "latest", allowHashBang: true, allowReturnOutsideFunction: true })) {
            const label = token.type.label;
            const previousName = previous?.type.label === "name" ? previous.value : undefined;
            if (label === "(" && previous?.type.label === "import") calls = true;
            if (label === "name" && token.value === "eval") evaluatesText = true;
            // Function("...") and new Function(...), not Function.prototype.
            if ((label === "(" && previousName === "Function") || (label === "name" && token.value === "Function" && previous?.type.label === "new")) evaluatesText = true;
            if ((label === "string" || label === "template") && importCallText.test(token.value)) importInText = true;
            previous = token;
        }
        calls ||= evaluatesText && importInText;
    } catch {
        calls = true; // What acorn cannot read, Node compiles.
    }
    save(verdictFile, calls ? "yes" : "no");
    return calls;
}

/** acorn's tokenizer, loaded on first need Node's way: acorn's own text holds "import(". */
let loadingTokenizer = false;
let tokenizer;
function acornTokenizer() {
    if (!tokenizer) {
        loadingTokenizer = true;
        try {
            tokenizer = require("acorn").tokenizer;
        } finally {
            loadingTokenizer = false;
        }
    }
    return tokenizer;
}

/** The `require` a module's code receives, as Node's makeRequireFunction makes it. */
function requireFor(module) {
    const require = (id) => module.require(id);
    require.resolve = (request, options) => Module._resolveFilename(request, module, false, options);
    require.resolve.paths = (request) => Module._resolveLookupPaths(request, module);
    require.main = process.mainModule;
    require.extensions = Module._extensions;
    require.cache = Module._cache;
    return require;
}

/** Written whole, then renamed: processes that load the same module at once never read half a file. */
function save(cacheFile, data) {
    try {
        mkdirSync(dirname(cacheFile), { recursive: true });
        writeFileSync(`${cacheFile}.${process.pid}`, data);
        renameSync(`${cacheFile}.${process.pid}`, cacheFile);
    } catch {
        // A cache that cannot be written only costs the next process a compile.
    }
}

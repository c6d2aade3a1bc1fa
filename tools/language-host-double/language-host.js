// TEST DOUBLE of Pulumi's Node.js language host, `pulumi-language-nodejs` (pulumi/pulumi,
// sdk/nodejs/cmd/pulumi-language-nodejs/main.go). The real host's Go module is never tagged and
// the Go module proxy these machines reach does not serve its pseudo-versions, so the CLI built
// in tools/pulumi-cli comes without it. This double does what the real host's Run does, the rest
// is the real CLI and the program's real SDK:
//   - `node <program's @pulumi/pulumi>/cmd/run --monitor ... --engine ... <entry point>`, the
//     SDK's own program runner (ts-node registration, stack outputs, error printing), with the
//     stack configuration in PULUMI_CONFIG and PULUMI_CONFIG_SECRET_KEYS, and
//     PULUMI_NODEJS_TYPESCRIPT / PULUMI_NODEJS_TSCONFIG_PATH / `nodeargs` from Pulumi.yaml's
//     runtime options;
//   - exit code 32 ("the program already reported its error") answered as a bail, any other
//     non-zero exit as "Program exited with non-zero exit code: N".
// What it does not do: proxy the resource monitor and serve the synchronous-invoke pipes (the
// program talks to the CLI's monitor directly), report the plugins of node_modules (so the CLI
// never installs one; PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION forbids that anyway),
// install dependencies, `pulumi about`, debugging, and the out-of-memory hint.
"use strict";
const { spawn } = require("node:child_process");
const path = require("node:path");

const engineAddress = process.argv[process.argv.length - 1];
// The CLI starts a language host in the program's root directory.
const sdkFrom = (directory) => (name) => require(require.resolve(name, { paths: [path.dirname(require.resolve("@pulumi/pulumi/package.json", { paths: [directory] }))] }));
const load = sdkFrom(process.cwd());
const grpc = load("@grpc/grpc-js");
const languageService = load("@pulumi/pulumi/proto/language_grpc_pb");
const language = load("@pulumi/pulumi/proto/language_pb");
const plugin = load("@pulumi/pulumi/proto/plugin_pb");

/** The real host's reading of `runtime.options` (parseOptions): typescript defaults to true. */
function runtimeOptions(info) {
  const options = info && info.getOptions() ? info.getOptions().toJavaScript() : {};
  return {
    typescript: options.typescript === undefined ? true : options.typescript === true || options.typescript === "true",
    tsconfig: typeof options.tsconfig === "string" ? options.tsconfig : "",
    nodeargs: typeof options.nodeargs === "string" ? options.nodeargs.split(/\s+/).filter(Boolean) : [],
  };
}

/** `ns:key` keys become `ns:config:key`, as the real host hands them to older SDKs too. */
function configJson(request) {
  const config = {};
  for (const [key, value] of request.getConfigMap().entries()) {
    const colon = key.indexOf(":");
    config[colon === -1 ? key : `${key.slice(0, colon)}:config:${key.slice(colon + 1)}`] = value;
  }
  return JSON.stringify(config);
}

function run(call, callback) {
  const request = call.request;
  const info = request.getInfo();
  const programDirectory = (info && info.getProgramDirectory()) || request.getPwd();
  const options = runtimeOptions(info);
  const response = new language.RunResponse();
  let runPath;
  try {
    runPath = require.resolve("@pulumi/pulumi/cmd/run", { paths: [programDirectory] });
  } catch (error) {
    response.setError(`could not find @pulumi/pulumi in ${programDirectory}: run npm install there (${error.message})`);
    return callback(null, response);
  }
  const argument = (name, value) => (value ? [`--${name}`, String(value)] : []);
  const args = [
    ...options.nodeargs,
    runPath,
    ...argument("monitor", request.getMonitorAddress()),
    ...argument("engine", engineAddress),
    ...argument("organization", request.getOrganization()),
    ...argument("project", request.getProject()),
    ...argument("root-directory", info && info.getRootDirectory()),
    ...argument("stack", request.getStack()),
    ...argument("pwd", programDirectory),
    ...(request.getDryrun() ? ["--dry-run"] : []),
    ...argument("parallel", request.getParallel()),
    (info && info.getEntryPoint()) || request.getProgram() || ".",
    ...request.getArgsList(),
  ];
  const env = {
    ...process.env,
    PULUMI_CONFIG: configJson(request),
    PULUMI_CONFIG_SECRET_KEYS: JSON.stringify(request.getConfigsecretkeysList()),
    ...(options.typescript ? { PULUMI_NODEJS_TYPESCRIPT: "true" } : {}),
    ...(options.tsconfig ? { PULUMI_NODEJS_TSCONFIG_PATH: options.tsconfig } : {}),
  };
  const child = spawn("node", args, { cwd: programDirectory, env, stdio: ["ignore", "inherit", "inherit"] });
  child.on("error", (error) => {
    response.setError(`Problem executing program (could not run language executor): ${error.message}`);
    callback(null, response);
  });
  child.on("close", (code, signal) => {
    if (code === 32) response.setBail(true);
    else if (code !== 0) response.setError(`Program exited with non-zero exit code: ${code === null ? signal : code}`);
    callback(null, response);
  });
}

const server = new grpc.Server({ "grpc.max_receive_message_length": 400 * 1024 * 1024 });
server.addService(languageService.LanguageRuntimeService, {
  handshake: (call, callback) => callback(null, new language.LanguageHandshakeResponse()),
  getRequiredPlugins: (call, callback) => callback(null, new language.GetRequiredPluginsResponse()),
  getRequiredPackages: (call, callback) => callback(null, new language.GetRequiredPackagesResponse()),
  getPluginInfo: (call, callback) => {
    const info = new plugin.PluginInfo();
    info.setVersion("0.0.0-test-double");
    callback(null, info);
  },
  run,
});
server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (error, port) => {
  if (error) {
    process.stderr.write(`pulumi-language-nodejs (test double): ${error.message}\n`);
    process.exit(1);
  }
  process.stdout.write(`${port}\n`);
});

// The engine's Log service on loopback, as a plugin started by the engine reaches it: the
// lines a plugin sends, each with the URN it is attached to.

import { emptyProto, engineProto, engineServices, grpc } from "../../provider/plugin/sdk-modules";

export interface LoggedLine {
  severity: "debug" | "info" | "warning" | "error";
  message: string;
  urn: string;
}

export async function startFakeEngine(): Promise<{ address: string; lines: LoggedLine[]; stop(): Promise<void> }> {
  const lines: LoggedLine[] = [];
  const severities = {
    [engineProto.LogSeverity.DEBUG]: "debug",
    [engineProto.LogSeverity.INFO]: "info",
    [engineProto.LogSeverity.WARNING]: "warning",
    [engineProto.LogSeverity.ERROR]: "error",
  } as const;
  const server = new grpc.Server();
  server.addService(engineServices.EngineService, {
    log: (call: { request: InstanceType<typeof engineProto.LogRequest> }, callback: (error: null, response: unknown) => void) => {
      lines.push({ severity: severities[call.request.getSeverity()], message: call.request.getMessage(), urn: call.request.getUrn() });
      callback(null, new emptyProto.Empty());
    },
  });
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (error, bound) => (error ? reject(error) : resolve(bound))),
  );
  return { address: `127.0.0.1:${port}`, lines, stop: () => new Promise((resolve) => server.tryShutdown(() => resolve())) };
}

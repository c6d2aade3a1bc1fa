export { startEmulator, type EmulatorOptions, type RunningEmulator } from "./src/core/emulator";
export type { EmulatedService, ServiceRequest, ServiceResponse } from "./src/service";

// Property values as the engine sends and takes them: protobuf Structs, in which a
// secret travels as an object marked with Pulumi's signature and the serialized
// provider of a stack moved from the dynamic classes (`__provider`) may still sit.

import type { Struct } from "google-protobuf/google/protobuf/struct_pb";
import { providerKey } from "../kit/inputs";
import { structProto } from "./sdk-modules";

const signatureKey = "4dabf18193072939515e22adb298388d";
const secretSignature = "1b47061264138c4ac30d75fd1eb44270";

export type Properties = Record<string, unknown>;

const isSecret = (value: unknown): value is { value: unknown } =>
  typeof value === "object" && value !== null && (value as Properties)[signatureKey] === secretSignature;

/** The value with every secret it holds unwrapped: the engine wraps them even for a provider that does not accept secrets (Configure's args). */
export function unwrapSecrets(value: unknown): unknown {
  if (isSecret(value)) return unwrapSecrets(value.value);
  if (Array.isArray(value)) return value.map(unwrapSecrets);
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([key, member]) => [key, unwrapSecrets(member)]));
}

/** A Struct's properties, secrets unwrapped and `__provider` left out. */
export function propertiesOf(struct: Struct | undefined): Properties {
  const { [providerKey]: _dynamicProvider, ...properties } = (unwrapSecrets(struct?.toJavaScript() ?? {}) as Properties) ?? {};
  return properties;
}

/** The value without undefined members at any depth, which a Struct refuses. */
function defined(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(defined);
  if (typeof value !== "object" || value === null || isSecret(value)) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, member]) => member !== undefined)
      .map(([key, member]) => [key, defined(member)]),
  );
}

/** Properties as a Struct, `__provider` left out and the named ones marked secret. */
export function structOf(properties: Properties | undefined, secret: readonly string[] = []): Struct {
  const { [providerKey]: _dynamicProvider, ...rest } = properties ?? {};
  for (const name of secret) {
    if (rest[name] !== undefined && rest[name] !== null) rest[name] = { [signatureKey]: secretSignature, value: rest[name] };
  }
  return structProto.Struct.fromJavaScript(defined(rest) as Record<string, never>);
}

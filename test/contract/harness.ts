// Runs contract cases against the emulator: for each operation, a request the emulator
// accepts, and three checks against the reference document:
//   1. the request body validates against the reference's request schema;
//   2. the response status is one the reference declares for the operation;
//   3. the response carries every member of the reference's success examples with the
//      same JSON type (shape.ts), or, where the reference has no example, validates
//      against its response schema.

import assert from "node:assert/strict";
import Ajv from "ajv";
import addFormats from "ajv-formats";
import { startEmulator, type RunningEmulator } from "../../emulator";
import type { JsonSchema, ReferenceDocument } from "./reference";
import { differences, shapeOfExamples } from "./shape";

interface Reply {
  status: number;
  body: unknown;
}

interface ServiceClient {
  send(method: string, path: string, body?: unknown): Promise<Reply>;
  /** Sends and insists on a 2xx, for the records a case needs before its own request. */
  create(path: string, body: unknown): Promise<any>;
}

export interface Clients {
  crm: ServiceClient;
  chat: ServiceClient;
}

interface RequestParts {
  /** Values of the path template's {parameters}. */
  params?: Record<string, string | number>;
  /** Query string without "?". */
  query?: string;
  body?: unknown;
}

export interface ContractCase {
  /** Method and path as the reference writes them, e.g. "PUT /accounts/{id}". */
  operation: string;
  /** Creates the records the request refers to, through the emulator, and returns the request. */
  request(clients: Clients): RequestParts | Promise<RequestParts>;
  /** Members of the reference's examples not to require ("$.account.fields"), each with why. */
  excused?: Record<string, string>;
  /** Why the body is not held to the reference's request schema, where that schema is wrong (its description and examples say otherwise). */
  requestSchemaDefect?: string;
  /** A success status the seed (or recorded traffic) gives where the reference declares another; checked against the reference's examples for that other. */
  seedStatus?: { status: number; referenceStatus: number; why: string };
}

/** Members not to require wherever they appear, each with why. */
const EXCUSED_EVERYWHERE: Record<string, string> = {
  "$.meta.queryLog": "diagnostic: the seed says responses *may* include it",
};

const ajv = new Ajv({ strict: false, allErrors: true });
addFormats(ajv);
const INT32 = 2 ** 31;
ajv.addFormat("int32", { type: "number", validate: (value: number) => Number.isInteger(value) && value >= -INT32 && value < INT32 });

export function schemaErrors(schema: JsonSchema, value: unknown): string | undefined {
  const validate = ajv.compile(schema);
  return validate(value) ? undefined : ajv.errorsText(validate.errors, { dataVar: "body" });
}

function client(baseUrl: string, headers: Record<string, string>): ServiceClient {
  const send = async (method: string, path: string, body?: unknown): Promise<Reply> => {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: body === undefined ? headers : { ...headers, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: text === "" ? undefined : JSON.parse(text) };
  };
  return {
    send,
    async create(path, body) {
      const reply = await send("POST", path, body);
      assert.ok(reply.status >= 200 && reply.status < 300, `setup POST ${path} answered ${reply.status}: ${JSON.stringify(reply.body)}`);
      return reply.body;
    },
  };
}

function connect(emulator: RunningEmulator): Clients {
  return {
    crm: client(`${emulator.crmUrl}/api/3`, { "Api-Token": emulator.apiToken }),
    // The reference declares a header named Token; the real one is Authorization: Token <key> (README).
    chat: client(emulator.chatUrl, { Authorization: `Token ${emulator.apiToken}` }),
  };
}

/** One mocha test per case, all against one emulator with the rate limit off. */
export function describeContract(title: string, reference: ReferenceDocument, service: keyof Clients, cases: ContractCase[]): void {
  describe(title, () => {
    let emulator: RunningEmulator;
    let clients: Clients;
    before(async () => {
      emulator = await startEmulator({ rateLimit: 0 });
      clients = connect(emulator);
    });
    after(() => emulator.close());

    for (const contractCase of cases) {
      it(contractCase.operation, async () => {
        const [method, template] = contractCase.operation.split(" ");
        const operation = reference.operation(method, template);
        const parts = await contractCase.request(clients);

        const requestSchema = operation.requestSchema();
        if (parts.body !== undefined && requestSchema && !contractCase.requestSchemaDefect) {
          const errors = schemaErrors(requestSchema, parts.body);
          assert.equal(errors, undefined, `the request body does not validate against the reference: ${errors}`);
        }

        const path = template.replace(/\{(\w+)\}/g, (_, name: string) => {
          const value = parts.params?.[name];
          assert.ok(value !== undefined, `no value for the path parameter ${name}`);
          return encodeURIComponent(String(value));
        });
        const reply = await clients[service].send(method, parts.query ? `${path}?${parts.query}` : path, parts.body);

        const declared = operation.declaredStatuses();
        const { seedStatus } = contractCase;
        const status = seedStatus && reply.status === seedStatus.status ? seedStatus.referenceStatus : reply.status;
        assert.ok(declared.includes(status), `answered ${reply.status} where the reference declares ${declared.join(", ")}: ${JSON.stringify(reply.body)}`);
        const examples = operation.responseExamples(status);
        if (examples.length > 0) {
          const excused = new Set(Object.keys({ ...EXCUSED_EVERYWHERE, ...contractCase.excused }));
          const found = differences(reply.body, shapeOfExamples(examples), excused);
          assert.deepEqual(found, [], "the response differs from the reference's examples");
          return;
        }
        const responseSchema = operation.responseSchema(status);
        assert.ok(responseSchema, `the reference has neither an example nor a schema for ${status}`);
        const errors = schemaErrors(responseSchema, reply.body);
        assert.equal(errors, undefined, `the response does not validate against the reference: ${errors}`);
      });
    }
  });
}

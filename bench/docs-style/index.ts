// An account resource as a user writes it from Pulumi's dynamic provider guide: the
// provider object inline, one fetch per call, the API address and token passed as
// inputs, and a naive retry on 429. The baseline `npm run bench` measures pulumi-crm
// against; not part of the package.
import * as pulumi from "@pulumi/pulumi";

interface AccountInputs {
  apiUrl: string;
  apiToken: string;
  name: string;
}

async function call(inputs: AccountInputs, method: string, path: string, body?: unknown): Promise<Response> {
  for (let attempt = 1; ; attempt++) {
    const response = await fetch(`${inputs.apiUrl}/api/3${path}`, {
      method,
      headers: { "Api-Token": inputs.apiToken, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (response.status !== 429 || attempt === 10) return response;
    await new Promise((resolve) => setTimeout(resolve, Number(response.headers.get("retry-after") ?? "1") * 1000));
  }
}

async function ok(response: Response): Promise<any> {
  if (!response.ok) throw new Error(`the service answered ${response.status}: ${await response.text()}`);
  return response.json();
}

const accountProvider: pulumi.dynamic.ResourceProvider = {
  async create(inputs: AccountInputs) {
    const body = await ok(await call(inputs, "POST", "/accounts", { account: { name: inputs.name } }));
    return { id: String(body.account.id), outs: { ...inputs, name: body.account.name } };
  },
  async read(id: string, props: AccountInputs) {
    const response = await call(props, "GET", `/accounts/${id}`);
    if (response.status === 404) return {};
    const body = await ok(response);
    return { id, props: { ...props, name: body.account.name } };
  },
  async diff(_id: string, olds: AccountInputs, news: AccountInputs) {
    return { changes: olds.name !== news.name };
  },
  async update(id: string, _olds: AccountInputs, news: AccountInputs) {
    const body = await ok(await call(news, "PUT", `/accounts/${id}`, { account: { name: news.name } }));
    return { outs: { ...news, name: body.account.name } };
  },
  async delete(id: string, props: AccountInputs) {
    const response = await call(props, "DELETE", `/accounts/${id}`);
    if (response.status !== 404) await ok(response);
  },
};

class Account extends pulumi.dynamic.Resource {
  constructor(
    name: string,
    args: { apiUrl: pulumi.Input<string>; apiToken: pulumi.Input<string>; name: pulumi.Input<string> },
    opts?: pulumi.CustomResourceOptions,
  ) {
    super(accountProvider, name, args, opts);
  }
}

const config = new pulumi.Config();
const crmConfig = new pulumi.Config("crm");
const count = config.requireNumber("count");
for (let n = 1; n <= count; n++) {
  new Account(`account-${n}`, { apiUrl: crmConfig.require("apiUrl"), apiToken: crmConfig.requireSecret("apiToken"), name: `Docs account ${n}` });
}

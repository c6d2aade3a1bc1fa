// Runs the welcome flow for the VIP contacts on every release, and waits for the run
// to end: a run that fails fails the deployment, with the service's reason.
// Settings: chat:apiUrl, chat:apiToken (secret), chat:channel; and this program's `release`.
import * as pulumi from "@pulumi/pulumi";
import { chat } from "pulumi-crm";

const config = new pulumi.Config();

const welcome = new chat.FlowRun("welcome-vips", {
  flowId: config.get("flowId") ?? "2f1c6a8e-3b7d-4c1e-9a2f-5d8e7c6b4a31",
  contacts: [
    { firstName: "Ada", lastName: "Lovelace", email: "ada@example.com", tags: ["vip"] },
    { phone: "+15550100", firstName: "Grace" },
  ],
  triggers: [config.require("release")],
  waitForCompletion: true,
  timeoutSeconds: 300,
});

export const executionId = welcome.executionId;
export const runStatus = welcome.status;

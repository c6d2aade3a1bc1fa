// The chat flow service against chat.openapi.json, on its real channel segment (whatsapp).
// Only the run operation: the seed specifies nothing else. The emulator's GET of one
// execution answers the same record as the run, not the reference's
// FlowExecutionReadDetail (which adds created_by, flow, flow_version and last_run_on).

import { describeContract } from "./harness";
import { ReferenceDocument } from "./reference";

const FLOW = "a3ff7ee5-0c11-49e2-a0d6-7e316626f7b1";

const flowExecution = {
  execute_for: "LIST",
  has_priority: true,
  contact_list: [
    {
      phone: "+15550100",
      first_name: "Ada",
      last_name: null,
      email: "ada@example.com",
      meta: { plan: "gold" },
      external_url: "https://crm.example.com/contacts/1",
      created_on: "2024-04-30T08:00:00Z",
      tags: [{ name: "vip" }],
      default_assignees: [3],
      default_channel: null,
      overwrite_tags: true,
    },
  ],
};

describeContract("contract: chat flow service", new ReferenceDocument("chat.openapi.json"), "chat", [
  {
    operation: "POST /channel/whatsapp/flow/{id}/run",
    request: () => ({ params: { id: FLOW }, body: flowExecution }),
  },
]);

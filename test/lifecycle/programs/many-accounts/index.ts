// `count` accounts (stack config), as a user declares them: see
// test/lifecycle/coalesced-requests.test.ts and bench/stack.ts.
import * as pulumi from "@pulumi/pulumi";
import { crm } from "pulumi-crm";

const count = new pulumi.Config().requireNumber("count");
for (let n = 1; n <= count; n++) new crm.Account(`account-${n}`, { name: `Bench account ${n}` });

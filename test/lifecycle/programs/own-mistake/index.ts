// A mistake in the program's own code after a lookup, one form per stack configuration
// (`mistake`): "after-await", thrown in the program's async main after an awaited lookup;
// "in-apply", thrown inside an apply on a lookup's Output. The Pulumi program runner prints
// either with util.inspect, which some Node.js versions loop in (nodejs/node#64011): see
// test/lifecycle/lookups.test.ts.
import * as pulumi from "@pulumi/pulumi";
import { crm } from "pulumi-crm";

export = async () => {
  const config = new pulumi.Config();
  const accountName = config.require("accountName");
  switch (config.require("mistake")) {
    case "after-await": {
      await crm.getAccount({ name: accountName });
      throw new Error("my own mistake");
    }
    case "in-apply":
      return {
        accountUrl: crm.getAccountOutput({ name: accountName }).apply((): string => {
          throw new Error("my own mistake");
        }),
      };
    default:
      throw new Error(`unknown mistake ${config.require("mistake")}`);
  }
};

// A user group and a user whose password is a plain string the program reads from a file
// (not a secret, and not stack config, which the engine stores as the dynamic provider's
// inputs): the provider must keep it secret anyway.
import { readFileSync } from "node:fs";
import { crm } from "pulumi-crm";

const reps = new crm.UserGroup("reps", { title: "Sales reps", permissions: { deal: true } });
new crm.User("ada", {
  username: "ada",
  email: "ada@acme.example",
  firstName: "Ada",
  lastName: "Lovelace",
  groupId: reps.id,
  password: readFileSync("password.txt", "utf8").trim(),
});

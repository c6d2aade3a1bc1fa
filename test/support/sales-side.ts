// Issue 47's done-when program, as both doors declare it (test/plugin/programs/sales-side in
// Pulumi YAML, test/lifecycle/programs/sales-side in TypeScript): every kind of the sales, team
// and tracking side (issue 54's last kinds with them: connections, deal roles, task outcomes, a
// list's group permission, a field's place in a field group), each object under one name in both, and what the tests do to each. A kind
// is added by declaring it in both programs and giving it a row here.

import assert from "node:assert/strict";
import { emulatorCallWhenAdmitted, emulatorRead, requestCount, type RunningEmulator } from "../../scripts/harness/emulator";
import { assertNoOpUp } from "../../scripts/harness/plugin-program";
import { CHANGES_NOT_EXPECTED, type CliStack, nameOf, type StateResource } from "../../scripts/harness/pulumi-cli";

/** A change made in the account behind the program's back, and what the drift check's diff says of it. */
interface Drift {
  change(emulator: RunningEmulator, id: string): Promise<unknown>;
  shows: RegExp;
}

export interface DeclaredObject {
  /** The resource's name in both programs. */
  name: string;
  /** Its class in `crm` (the plugin's type token is `crm:index:<class>`). */
  className: string;
  /** Where the service keeps it: what destroy leaves as it was found. */
  path: string;
  drift?: Drift;
}

const put =
  (path: string, member: string, attributes: Record<string, unknown>): Drift["change"] =>
  (emulator, id) =>
    emulatorCallWhenAdmitted(emulator, "PUT", `/api/3${path.replace("{id}", id)}`, { [member]: attributes });
const switchedOn = (name: string): Drift => ({ change: put(`/${name}`, name, { enabled: true }), shows: /enabled\s*:\s*false => true/ });
/** An object known by its name (its id) deleted: gone from its list, made again by the repair. */
const removed = (path: string, shows: RegExp): Drift => ({
  change: (emulator, id) => emulatorCallWhenAdmitted(emulator, "DELETE", `/api/3${path}/${encodeURIComponent(id)}`),
  shows,
});

/** Every object the program declares, in the order an import takes them (what an object refers to first). */
export const salesSide: DeclaredObject[] = [
  {
    name: "reps",
    className: "UserGroup",
    path: "/groups",
    drift: { change: put("/groups/{id}", "group", { descript: "Renamed team" }), shows: /description\s*:\s*"The sales team" => "Renamed team"/ },
  },
  {
    name: "ada",
    className: "User",
    path: "/users",
    drift: { change: put("/users/{id}", "user", { lastName: "Byron" }), shows: /lastName\s*:\s*"Lovelace" => "Byron"/ },
  },
  {
    name: "sales",
    className: "Pipeline",
    path: "/dealGroups",
    drift: { change: put("/dealGroups/{id}", "dealGroup", { title: "Sales 2027" }), shows: /title\s*:\s*"Sales" => "Sales 2027"/ },
  },
  { name: "qualified", className: "PipelineStage", path: "/dealStages" },
  {
    name: "proposal",
    className: "PipelineStage",
    path: "/dealStages",
    drift: { change: put("/dealStages/{id}", "dealStage", { title: "Offer" }), shows: /title\s*:\s*"Proposal" => "Offer"/ },
  },
  { name: "won", className: "PipelineStage", path: "/dealStages" },
  {
    name: "leadSource",
    className: "DealCustomField",
    path: "/dealCustomFieldMeta",
    drift: { change: put("/dealCustomFieldMeta/{id}", "dealCustomFieldMetum", { fieldDefault: "Referral" }), shows: /fieldDefault\s*:\s*"Web" => "Referral"/ },
  },
  {
    name: "demo",
    className: "TaskType",
    path: "/dealTasktypes",
    drift: { change: put("/dealTasktypes/{id}", "dealTasktype", { status: "1" }), shows: /disabled\s*:\s*false => true/ },
  },
  {
    name: "finance",
    className: "DealRole",
    path: "/dealRoles",
    drift: removed("/dealRoles", /DealRole: \(delete\)\s+\[id=\d+\]/),
  },
  {
    name: "booked",
    className: "TaskOutcome",
    path: "/taskOutcomes",
    drift: { change: put("/taskOutcomes/{id}", "taskOutcome", { sentiment: "negative" }), shows: /sentiment\s*:\s*"Positive" => "Negative"/ },
  },
  {
    name: "shop",
    className: "Connection",
    path: "/connections",
    drift: { change: put("/connections/{id}", "connection", { name: "Old shop" }), shows: /name\s*:\s*"Acme shop" => "Old shop"/ },
  },
  // The list the reps may use, and that permission (which goes with the list: the service cannot delete one).
  { name: "news", className: "List", path: "/lists" },
  { name: "repsUseNews", className: "ListGroupPermission", path: "/lists" },
  // A contact field in the field group every account comes with (1), moved in the group behind the program's back.
  { name: "interest", className: "ContactCustomField", path: "/fields" },
  {
    name: "interestInGroup",
    className: "CustomFieldGroupMember",
    path: "/fields",
    drift: { change: put("/groupMembers/{id}", "groupMember", { ordernum: 5 }), shows: /order\s*:\s*1 => 5/ },
  },
  { name: "siteTracking", className: "SiteTracking", path: "/siteTracking", drift: switchedOn("siteTracking") },
  { name: "eventTracking", className: "EventTracking", path: "/eventTracking", drift: switchedOn("eventTracking") },
  { name: "shopDomain", className: "SiteTrackingDomain", path: "/siteTrackingDomains" },
  {
    name: "blogDomain",
    className: "SiteTrackingDomain",
    path: "/siteTrackingDomains",
    drift: removed("/siteTrackingDomains", /SiteTrackingDomain: \(delete\)\s+\[id=blog\.acme\.example\]/),
  },
  {
    name: "signedUp",
    className: "TrackedEvent",
    path: "/eventTrackingEvents",
    drift: removed("/eventTrackingEvents", /TrackedEvent: \(delete\)\s+\[id=Signed up\]/),
  },
  { name: "watchedDemo", className: "TrackedEvent", path: "/eventTrackingEvents" },
  {
    name: "reviews",
    className: "CustomObjectSchema",
    path: "/customObjects/schemas",
    drift: {
      change: put("/customObjects/schemas/{id}", "schema", { fields: [{ id: "score", labels: { singular: "Rating", plural: "Ratings" }, type: "number" }] }),
      shows: /singular\s*:\s*"Score" => "Rating"/,
    },
  },
];

/** The password the programs give the user: never printed. */
const userPassword = "correct horse battery";

/** What the account holds where the program's objects go (a kind's collection, a switch). */
export async function accountAt(emulator: RunningEmulator): Promise<Record<string, unknown>> {
  const paths = [...new Set(salesSide.map((object) => object.path))];
  return Object.fromEntries(await Promise.all(paths.map(async (path) => [path, await emulatorRead(emulator, path)])));
}

/** The program's resources in a stack's state, by name. */
export function declaredIn(stack: CliStack): Map<string, StateResource> {
  const names = new Set(salesSide.map((object) => object.name));
  return new Map(
    stack
      .resources()
      .filter((resource) => resource.custom && names.has(nameOf(resource.urn)) && !resource.type.startsWith("pulumi:providers:"))
      .map((resource) => [nameOf(resource.urn), resource]),
  );
}

/**
 * The steps every door takes, in sequence on one stack: deploy every object, a second `up`
 * sending no request, drift of each kind caught and repaired. `typeOf` names a class as the
 * door's state does.
 */
export function itDeploysAndRepairs(context: () => { stack: CliStack; emulator: RunningEmulator }, typeOf: (className: string) => string): void {
  it("up makes every object the program declares", async () => {
    const { stack } = context();
    const up = await stack.up("--skip-preview");
    assert.equal(up.exitCode, 0, up.lines.join("\n"));
    const made = declaredIn(stack);
    for (const object of salesSide) assert.equal(made.get(object.name)?.type, typeOf(object.className), object.name);
  });

  it("a second up, its preview included, changes nothing and sends no request", () => assertNoOpUp(context().stack, context().emulator));

  it("a change of each kind behind the program's back is drift, named by field (exit 7); up --refresh repairs them, with no further request left", async () => {
    const { stack, emulator } = context();
    const made = declaredIn(stack);
    const drifting = salesSide.filter((object) => object.drift);
    for (const object of drifting) await object.drift!.change(emulator, made.get(object.name)!.id!);
    const check = await stack.driftCheck("--diff");
    assert.equal(check.exitCode, CHANGES_NOT_EXPECTED, check.lines.join("\n"));
    for (const object of drifting) assert.match(check.stdout, object.drift!.shows, `${object.name}:\n${check.stdout}`);
    assert.doesNotMatch(check.stdout + check.stderr, new RegExp(userPassword));

    const repair = await stack.up("--refresh", "--skip-preview");
    assert.equal(repair.exitCode, 0, repair.lines.join("\n"));
    // Each changed object updated, each removed one made again.
    assert.equal(repair.steps.update + repair.steps.create, drifting.length, repair.lines.join("\n"));
    const clean = await stack.driftCheck();
    assert.equal(clean.exitCode, 0, clean.lines.join("\n"));
    const before = await requestCount(emulator);
    assert.equal((await stack.up("--skip-preview")).changes, false);
    assert.equal(await requestCount(emulator), before);
  });
}

/** Destroy, the last step: the account as it was before the first up, the switches as they were. */
export async function assertDestroyLeavesAsFound(stack: CliStack, emulator: RunningEmulator, found: Record<string, unknown>): Promise<void> {
  const destroy = await stack.destroy("--skip-preview");
  assert.equal(destroy.exitCode, 0, destroy.lines.join("\n"));
  assert.deepEqual(await accountAt(emulator), found);
}

// crm.Branding: the account's branding, which the service has from the start and which
// cannot be created or deleted (GET and PUT only). Creating the resource takes the
// branding over and remembers, in the state, the value of every field it manages
// before the first change; deleting it puts those values back, so that destroy leaves
// the branding as the stack found it. Fields the inputs leave unset are not managed:
// neither touched nor remembered.

import { z } from "zod";
import { defineKind } from "../../definition";
import type { ExportDeclaration } from "../crud/export-declaration";
import { declareResource, input } from "../../kit/declaration";
import { adoptIdInput, containsUnknown, isWebAddress, withoutProvider, withoutUndefined } from "../../kit/inputs";
import { checkInputs, declaredKind, differingFields, type ResourceKind, updatableFields } from "../../kit/check-diff";
import { changedField, originalsOf, originalValuesOutput, pick, rememberedAfter, type OriginalValues } from "../../kit/take-over";
import type { Changes, Created, Found, ReadFrom, ResourceCore, Updated } from "../../kit/core";
import { announceAdoption, claimNaturalKey, notAdoptable, releaseNaturalKey } from "../../kit/adoption";
import { confirmWrite, UnconfirmedWriteError } from "../../kit/write-errors";
import { PulumiCrmError, ServiceError } from "../../transport/errors";
import { CrmClient } from "../service/client";
import { getObject, objectIn, type ServiceObject } from "../service/collection";
import { flagOf, idOf } from "../service/normalize";
import { type Wire, wireForms } from "../../kit/wire";

/** The branding's texts, managed field by field: a null (an unset favicon) reads as "", which is also how it is cleared. */
const brandingText: Wire = { read: (value) => (value === null || value === undefined ? "" : String(value)) };
/** A template: a text the service takes only on plans that include template editing (see templateAdvice). */
const templateText: Wire = { ...brandingText };

const text = (max: number) => z.string({ invalid_type_error: "must be a string" }).max(max, `must be at most ${max} characters`).optional();
const webAddressOrNone = text(1000).refine(
  (value) => value === undefined || value === "" || isWebAddress(value),
  'must be an http or https URL such as https://example.com/logo.png, or "" for none',
);
/** A text field of the branding, with its check and description. */
const brandingInput = (check: z.ZodTypeAny, description: string) => input(check, description, { wire: brandingText });
const templateInput = (description: string) => input(text(65535), `${description} Only on plans that include template editing.`, { wire: templateText });

const declaration = declareResource({
  namespace: "crm",
  name: "Branding",
  inputs: {
    brandingId: input(
      z
        .string({ invalid_type_error: 'must be a string of digits such as "1"' })
        .regex(/^[1-9]\d{0,9}$/, 'must be a branding id such as "1"')
        .optional(),
      "The id of the branding to manage. Default: the first one the service lists (an account has one). Read at creation: a different id replaces the resource (the old branding is put back, the new one taken over); removing it later changes nothing. The resource's id is the managed branding's id.",
      { replaceOnChanges: true },
    ),
    siteName: brandingInput(text(255), "The software's title."),
    siteLogo: brandingInput(webAddressOrNone, 'The logo\'s http(s) URL, or "" for none.'),
    siteLogoSmall: brandingInput(webAddressOrNone, 'The http(s) URL of the small logo in the admin panel\'s header, or "" for none.'),
    headerTextValue: brandingInput(text(65535), "The non-removable header as text."),
    headerHtmlValue: brandingInput(text(65535), "The non-removable header as HTML."),
    footerTextValue: brandingInput(text(65535), "The non-removable footer as text."),
    footerHtmlValue: brandingInput(text(65535), "The non-removable footer as HTML."),
    help: brandingInput(text(1000), "The help setting."),
    favicon: brandingInput(webAddressOrNone, 'The favicon\'s http(s) URL, or "" for none.'),
    adminTemplateHtm: templateInput("The admin HTML template."),
    adminTemplateCss: templateInput("The admin CSS."),
    publicTemplateHtm: templateInput("The public HTML template."),
    publicTemplateCss: templateInput("The public CSS."),
    externalLinks: input(
      z.boolean({ invalid_type_error: "must be true or false" }).default(true),
      "Whether the service's external links (its own branding) show. The API can turn them off; it turns them back on only by a write that leaves its `links` flag out: a service that keeps them off fails the update, naming this field.",
      // Answered as `links`, "1" while they show; sent only to turn them off (see putBranding).
      { wire: { answer: "links", read: flagOf } },
    ),
    adoptId: input(
      adoptIdInput,
      "The id of the branding to take over (`pulumi-crm export` writes none: a create takes the account's branding over): like brandingId, but never a change; a branding that already holds the declared values gets no write. Refused with a different brandingId.",
    ),
  },
  outputs: {
    originalValues: originalValuesOutput(),
  },
});

const forms = wireForms(declaration.fields);
const wired = declaration.fields.filter((field) => field.wire);
/** The texts, managed one by one: only those the inputs set. */
const brandingFields = wired.filter((field) => field.type.kind === "string").map((field) => field.name);
/** What is managed whatever the inputs set: the external links. */
const alwaysManaged = wired.filter((field) => field.type.kind !== "string").map((field) => field.name);
const templateFields = wired.filter((field) => field.wire === templateText).map((field) => field.name);

type FieldValues = Record<string, string | boolean | undefined>;

/** The outputs: the brandingId as given (unset when the resource took the first branding listed), the managed fields as the service holds them, and what to restore. */
type BrandingState = Record<string, unknown>;

const resourceType = declaration.type;

const kind: ResourceKind<typeof declaration.inputSchema> = {
  ...declaredKind(declaration),
  label: (inputs) => (typeof inputs.brandingId === "string" && /^\d+$/.test(inputs.brandingId) ? `${resourceType} ${inputs.brandingId}` : resourceType),
  refine: (inputs, refuse) => {
    if (inputs.adoptId && inputs.brandingId && inputs.adoptId !== inputs.brandingId)
      refuse("adoptId", `names branding ${inputs.adoptId}, brandingId another (${inputs.brandingId}); give one of them`);
    return inputs;
  },
};

const clientFor = (id: string) => new CrmClient(`${resourceType} ${id}`);
const parse = (props: Record<string, unknown>) => declaration.inputSchema.parse(withoutProvider(props));
const managedFields = (values: Record<string, unknown>) => brandingFields.filter((field) => values[field] !== undefined);
/** What a take-over remembers of `values`: the texts it manages, and the external links. */
const originalsFrom = (values: Record<string, unknown>, managed: readonly string[]) => pick(values, [...managed, ...alwaysManaged]) as OriginalValues;

/** Every field as the service holds it (see the fields' wire forms). */
const valuesOf = (branding: ServiceObject) => forms.stateOf(branding) as Record<string, string | boolean>;

function stateOf(branding: ServiceObject, managed: readonly string[], brandingId: unknown, originalValues: OriginalValues): BrandingState {
  // An unset brandingId is left out: the provider host's protobuf Struct refuses undefined members.
  const given = idOf(brandingId);
  return { ...(given === null ? {} : { brandingId: given }), ...pick(valuesOf(branding), [...managed, ...alwaysManaged]), originalValues };
}

/** The inputs read gives back: exactly those the stack manages, as check normalizes them. */
function inputsOf(state: BrandingState): Record<string, unknown> {
  return withoutUndefined({ brandingId: state.brandingId, ...pick(state, [...managedFields(state), ...alwaysManaged]) });
}

/** Templates are a plan feature: a refusal of a write that carried them names them and the limit. */
function templateAdvice(values: FieldValues): Record<string, string> | undefined {
  const sent = templateFields.filter((field) => values[field] !== undefined);
  if (!sent.length) return undefined;
  const advice = `${sent.join(", ")} can be set only on plans that include template editing: remove ${sent.length > 1 ? "them" : "it"} from the resource, or change the account's plan`;
  return { "400": advice, "422": advice, "403": `${advice}; or check that the API token's user may change the branding` };
}

/**
 * PUTs the values, with external links per `externalLinks`: the service turns them off
 * when `links` is sent with any value, and keeps them on only when it is left out.
 * Returns the state the answer shows, confirmed against what was sent; undefined when
 * the branding no longer exists.
 */
async function putBranding(
  client: CrmClient,
  id: string,
  values: FieldValues,
  externalLinks: boolean,
  stateFrom: (answer: ServiceObject) => BrandingState,
): Promise<BrandingState | undefined> {
  const body = externalLinks ? values : { ...values, links: false };
  const response = await client.call({ method: "PUT", path: `/brandings/${id}`, body: { branding: body } }, { advice: templateAdvice(values), accept: [404] });
  if (response.status === 404) return undefined;
  const answer = objectIn(response, "branding");
  const state = stateFrom(answer);
  if (externalLinks && !flagOf(answer.links)) {
    throw new UnconfirmedWriteError(
      `${client.resource}: the service kept external links off: the API turns them off by sending \`links\`, and back on only by a write that leaves it out, which this service did not honour; turn them on in the account's branding settings, then run the command again (or set externalLinks: false).`,
      "externalLinks",
      id,
      state,
    );
  }
  // Fields restored by this write are no longer in the state: confirm against every field.
  confirmWrite(client.resource, id, { ...values, externalLinks }, { ...valuesOf(answer), ...state });
  return state;
}

/**
 * A field set in the inputs changes when its value does; a field no longer set changes
 * when the stack manages it (its remembered value is put back). brandingId replaces the
 * resource only when it names another branding than the one managed.
 */
function changesOf(id: string, olds: Record<string, unknown>, news: Record<string, unknown>): Changes {
  const changed = changedField(olds, news);
  const replaces = news.brandingId !== undefined && (containsUnknown(news.brandingId) || news.brandingId !== id) ? ["brandingId"] : [];
  return {
    fields: [
      ...replaces.map((field) => ({ field, replace: true })),
      ...updatableFields(kind)
        .filter(changed)
        .map((field) => ({ field, replace: false })),
    ],
  };
}

async function takeOver(props: Record<string, unknown>): Promise<Created> {
  const inputs = parse(props);
  const lookup = new CrmClient(kind.label(inputs));
  const wantedId = inputs.adoptId ?? inputs.brandingId;
  const found = wantedId ? await getObject(lookup, `/brandings/${wantedId}`, "branding") : await firstBranding(lookup);
  if (!found && inputs.adoptId) throw notAdoptable(lookup.resource, resourceType, inputs.adoptId);
  if (!found) {
    throw new ServiceError(
      `${lookup.resource}: the account has no branding${inputs.brandingId ? ` with id ${inputs.brandingId}` : ""}; leave brandingId out to take the account's own.`,
      { status: 404, field: "brandingId" },
    );
  }
  const id = String(found.id);
  const client = clientFor(id);
  if (!claimNaturalKey(client, resourceType, id)) {
    throw new ServiceError(`${client.resource}: two Branding resources of this program manage branding ${id}; declare it once.`, {
      code: "duplicate",
      field: "brandingId",
    });
  }
  try {
    const managed = managedFields(inputs);
    const current = valuesOf(found);
    const originalValues = originalsFrom(current, managed);
    const stateFrom = (branding: ServiceObject) => stateOf(branding, managed, inputs.brandingId, originalValues);
    const values = pick(inputs, managed);
    // A branding that holds the declared values already gets no write.
    const matches = !differingFields({ ...values, externalLinks: inputs.externalLinks }, current).length;
    const state = matches ? stateFrom(found) : await putBranding(client, id, values, inputs.externalLinks, stateFrom);
    if (!state) throw new PulumiCrmError(`${client.resource}: the branding was gone right after it was read; run \`pulumi up\` again`);
    announceAdoption(client.resource, id);
    return { id, outs: state };
  } catch (error) {
    releaseNaturalKey(client, resourceType, id);
    throw error;
  }
}

async function readBranding(id: string, from: ReadFrom): Promise<Found | undefined> {
  const branding = await getObject(clientFor(id), `/brandings/${id}`, "branding");
  // Undefined: the branding is gone, and refresh drops it from the state.
  if (!branding) return undefined;
  // An import reads from the id alone: it takes over every field as `pulumi-crm export` declares
  // them, remembering them as found (a destroy puts them back), rather than managing none.
  if ("import" in from) {
    const declared = declaredFields(branding);
    const state = stateOf(branding, declared, undefined, originalsFrom(valuesOf(branding), declared));
    return { id, outputs: state, inputs: inputsOf(state) };
  }
  const remembered = originalsOf(from.refresh);
  const state = stateOf(branding, managedFields(remembered), from.refresh.brandingId, remembered);
  return { id, outputs: state, inputs: inputsOf(state) };
}

/**
 * A field newly set is remembered (one GET first) before its first change; a field no
 * longer set gets its remembered value back and is forgotten. A field changed between
 * ups keeps the value remembered when the stack first managed it.
 */
async function updateBranding(id: string, olds: Record<string, unknown>, news: Record<string, unknown>): Promise<Updated> {
  const inputs = parse(news);
  const given: Record<string, unknown> = inputs;
  const client = clientFor(id);
  const remembered = originalsOf(olds);
  const managed = managedFields(inputs);
  const newlyManaged = managed.filter((field) => !(field in remembered));
  const released = managedFields(remembered).filter((field) => given[field] === undefined);
  let current: FieldValues = {};
  if (newlyManaged.length) {
    const branding = await getObject(client, `/brandings/${id}`, "branding");
    if (!branding) throw new PulumiCrmError(`${client.resource}: the branding no longer exists; run \`pulumi refresh\` to drop it from the state`);
    current = valuesOf(branding);
  }
  const originalValues = rememberedAfter(remembered, released, current, newlyManaged);
  const values = { ...pick(inputs, managed), ...pick(remembered, released) };
  const state = await putBranding(client, id, values, inputs.externalLinks, (answer) => stateOf(answer, managed, inputs.brandingId, originalValues));
  if (!state) throw new PulumiCrmError(`${client.resource}: the branding no longer exists; run \`pulumi refresh\` to drop it from the state`);
  return { outs: state };
}

/** Puts back every remembered value; a branding that no longer exists has nothing to restore. */
async function restoreBranding(id: string, props: Record<string, unknown>): Promise<void> {
  const { externalLinks, ...values } = originalsOf(props);
  // Nothing was taken over (a create that failed before its write): a write would only turn external links on.
  if (externalLinks === undefined) return;
  await putBranding(clientFor(id), id, values, externalLinks as boolean, (answer) => stateOf(answer, [], props.brandingId, {}));
}

const core: ResourceCore = {
  declaration,
  importable: true,
  check: async (_olds, news) => checkInputs(kind, news),
  diff: async (id, olds, news) => changesOf(id, olds, news),
  create: takeOver,
  read: readBranding,
  update: updateBranding,
  delete: restoreBranding,
};

/**
 * The inputs that declare the branding exactly as the service holds it, as read gives
 * them back (for `pulumi-crm export`): every field of declaredFields.
 */
function inputsDeclaring(branding: ServiceObject): Record<string, unknown> {
  return inputsOf(stateOf(branding, declaredFields(branding), undefined, {}));
}

/** Every field, except templates left empty, which a write may send only on plans with template editing. */
function declaredFields(branding: ServiceObject): string[] {
  const values = valuesOf(branding);
  return brandingFields.filter((field) => !(templateFields.includes(field) && values[field] === ""));
}

/** What `pulumi-crm export` reads of the branding (see ../crud/export-declaration.ts). */
const exported: ExportDeclaration = {
  section: "The branding: managed field by field; remove the fields this stack should leave alone",
  part: "setup",
  accountWide: true,
  path: "/brandings",
  collection: "brandings",
  name: (branding) => String(branding.siteName),
  title: () => "branding",
};

/** The first branding the service lists: an account has one. */
async function firstBranding(client: CrmClient): Promise<ServiceObject | undefined> {
  const response = await client.call({ method: "GET", path: "/brandings", query: { limit: 1 } });
  return ((response.body as Record<string, unknown> | undefined)?.brandings as ServiceObject[] | undefined)?.[0];
}

export const branding = defineKind(
  "The account's branding, taken over from the service and put back as it was found on destroy. Only the fields set here are managed.",
  declaration,
  core,
  { inputsDeclaring, exported },
);

// URNs: urn:pulumi:<stack>::<project>::<parent types joined by $>type::<name>.

const STACK_TYPE = "pulumi:pulumi:Stack";
export const PROVIDER_TYPE_PREFIX = "pulumi:providers:";

export function makeUrn(stack: string, project: string, parentUrn: string, type: string, name: string): string {
    const parentType = parentUrn ? qualifiedType(parentUrn) : "";
    const prefix = parentType && parentType !== STACK_TYPE ? `${parentType}$` : "";
    return `urn:pulumi:${stack}::${project}::${prefix}${type}::${name}`;
}

/** "<parent types>$<type>" of a URN; types never contain "::", names may. */
function qualifiedType(urn: string): string {
    return urn.split("::")[2];
}

/** The resource's own type, the last segment of the qualified type. */
export function urnType(urn: string): string {
    const types = qualifiedType(urn).split("$");
    return types[types.length - 1];
}

export function urnName(urn: string): string {
    return urn.split("::").slice(3).join("::");
}

/** The CLI's default provider of a package: "default" for an unversioned one, else "default_<version>". */
export function defaultProviderUrn(stack: string, project: string, pkg: string, name: string = "default"): string {
    return makeUrn(stack, project, "", `${PROVIDER_TYPE_PREFIX}${pkg}`, name);
}

/** As the CLI tells default providers from explicit ones: a provider type and a name starting with "default". */
export function isDefaultProvider(urn: string): boolean {
    return urnType(urn).startsWith(PROVIDER_TYPE_PREFIX) && urnName(urn).startsWith("default");
}

/** A provider reference, "<provider urn>::<provider id>". */
export function providerReference(urn: string, id: string): string {
    return `${urn}::${id}`;
}

/** The provider URN of a provider reference. */
export function referencedProviderUrn(reference: string): string {
    return reference.slice(0, reference.lastIndexOf("::"));
}

/** The package a type token belongs to ("pulumi-nodejs" for "pulumi-nodejs:dynamic:Resource"). */
export function typePackage(type: string): string {
    return type.split(":")[0];
}

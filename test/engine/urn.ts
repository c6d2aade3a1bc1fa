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

/** The provider URN of a provider reference, "<provider urn>::<provider id>". */
export function referencedProviderUrn(reference: string): string {
    return reference.slice(0, reference.lastIndexOf("::"));
}

/** The package a type token belongs to ("pulumi-nodejs" for "pulumi-nodejs:dynamic:Resource"). */
export function typePackage(type: string): string {
    return type.split(":")[0];
}

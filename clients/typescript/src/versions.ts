/**
 * Which API versions this client and a service can talk across.
 *
 * The client was generated from one version of the API document (`API_VERSION`, its
 * `info.version`); every answer of the service names the version it speaks in
 * `X-API-Version`.  They are compatible when their major versions are equal, the major
 * being the first number, or for a 0.x version the first two: semver lets a 0.x API break
 * on any minor release, so `0.1.0` and `0.2.0` differ while `0.1.0` and `0.1.4` do not.  A
 * service that sends no `X-API-Version` (or one that is not semver) is not checked:
 * services older than the header answer as they always did.
 */
import { API_VERSION } from "./apiVersion.js";

export const API_VERSION_HEADER = "x-api-version";
const SEMVER = /^v?(\d+)\.(\d+)(?:\.\d+)?(?:[-+].*)?$/;

/** The part of a version every compatible version shares: `"1"` for `1.4.2`, `"0.2"` for
 * `0.2.5`; undefined when the text is not a semver version. */
export function compatibilityLine(version: string): string | undefined {
  const found = SEMVER.exec(version.trim());
  if (found === null) return undefined;
  const [, major, minor] = found;
  return Number(major) === 0 ? `0.${Number(minor)}` : String(Number(major));
}

/** The service's version when it is of another major version than this client's;
 * undefined when it is compatible, absent or not semver. */
export function incompatibleVersion(headers: Headers): string | undefined {
  const theirs = headers.get(API_VERSION_HEADER);
  if (!theirs) return undefined;
  const line = compatibilityLine(theirs);
  return line === undefined || line === compatibilityLine(API_VERSION) ? undefined : theirs;
}

export function mismatchNote(version: string): string {
  return `the service speaks API ${version}, this client was generated for ${API_VERSION}`;
}

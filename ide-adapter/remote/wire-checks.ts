/**
 * What the client checks of what a background server sends, by hand and without zod: the
 * handshake (before it, the peer could be any build of any protocol) and the `data` of an error
 * response. Results and status notifications are not validated on the client: a server that
 * passed the handshake speaks this protocol version, so they have the wire types by construction
 * (`protocol.ts` is their one source; types only are imported here, so no zod loads). Why: the
 * peer is a process of the same user behind an owner-checked 0700 socket, so validating its
 * results would only catch bugs of our own server, at the price of loading and compiling zod —
 * a third of a warm call's budget. The serving side keeps validating params with zod.
 */
import type { ServerStatus } from '../status.js';
import type { ErrorData, HelloInfo } from './protocol.js';

type Fields = Record<string, unknown>;

function isObject(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

function isOptionalString(value: unknown): boolean {
  return value === undefined || typeof value === 'string';
}

/** The protocol version a handshake announces, if it says one. Checked first: the rest of the shape is that version's. */
export function announcedVersion(raw: unknown): number | undefined {
  return isObject(raw) && typeof raw['protocolVersion'] === 'number' ? raw['protocolVersion'] : undefined;
}

/** Whether a server status has the fields the client reads (the key and the state). */
export function isServerStatus(value: unknown): value is ServerStatus {
  return isObject(value) && typeof value['id'] === 'string' && typeof value['displayName'] === 'string' && typeof value['state'] === 'string' && Array.isArray(value['languages']);
}

/**
 * The handshake of a server of this protocol version, or what is wrong with it. Checks every
 * field the client uses: the build and workspace it compares, trust, pid, languages (for
 * `handles`), and the status snapshot.
 */
export function checkHello(raw: unknown): HelloInfo | string {
  if (!isObject(raw)) return 'not an object';
  const product = raw['product'];
  if (!isObject(product) || typeof product['version'] !== 'string' || typeof product['installPath'] !== 'string') return 'product: expected {version, installPath}';
  if (typeof raw['workspaceRoot'] !== 'string') return 'workspaceRoot: expected a string';
  if (typeof raw['trusted'] !== 'boolean') return 'trusted: expected a boolean';
  if (!Number.isInteger(raw['pid']) || typeof raw['startedAt'] !== 'number') return 'pid, startedAt: expected numbers';
  const languages = raw['languages'];
  const isLanguage = (l: unknown): boolean => isObject(l) && typeof l['languageId'] === 'string' && isStringArray(l['extensions']) && isStringArray(l['relativeQualifiers']);
  if (!Array.isArray(languages) || !languages.every(isLanguage)) return 'languages: expected [{languageId, extensions, relativeQualifiers}]';
  const servers = raw['servers'];
  if (!Array.isArray(servers) || !servers.every(isServerStatus)) return 'servers: expected server statuses';
  return raw as HelloInfo;
}

/** The `DialectError` fields an error response's `data` carries, or undefined when it carries none. */
export function errorData(data: unknown): ErrorData | undefined {
  if (!isObject(data) || typeof data['code'] !== 'string') return undefined;
  const { hint, notes, signature, example } = data;
  if (!isOptionalString(hint) || !isOptionalString(signature) || !isOptionalString(example) || (notes !== undefined && !isStringArray(notes))) return undefined;
  return data as ErrorData;
}

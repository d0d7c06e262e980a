import { X509Certificate, createPrivateKey, webcrypto } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname, networkInterfaces } from 'node:os';
import { join } from 'node:path';
import 'reflect-metadata'; // @peculiar/x509 needs it (its README)
import * as x509 from '@peculiar/x509';

/**
 * HTTPS for `npm start` on the local network: a phone opening the portal by the machine's LAN
 * address needs a secure context for the camera. The portal makes its own certificate
 * authority once (DATA_DIR/tls/ca.crt and ca.key), and issues the server a certificate for
 * localhost, the host name and every LAN address, issued again when those change or it nears
 * its end. A phone trusts the authority once (/trust) and every later certificate with it.
 */
export interface LocalTls {
  key: string;
  cert: string;
  /** The authority's certificate (PEM), served at /trust/portal-ca.crt. */
  caCert: string;
  /** Whether this start issued a new server certificate. */
  issued: boolean;
}

const ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
const DAY = 24 * 60 * 60 * 1000;
/** Apple refuses server certificates valid longer than 825 days, even from an authority a user added. */
const SERVER_DAYS = 397;
const RENEW_DAYS = 30;
const CA_YEARS = 10;

/** What the server certificate must name: localhost, the host name, and every address but link-local ones. */
export function localNames(): { dns: string[]; ips: string[] } {
  const host = hostname();
  const dns = [...new Set(['localhost', host, `${host}.local`])];
  const ips = new Set(['127.0.0.1', '::1']);
  for (const addresses of Object.values(networkInterfaces())) {
    for (const address of addresses ?? []) {
      if (address.family === 'IPv6' && address.address.toLowerCase().startsWith('fe80')) continue;
      ips.add(address.address);
    }
  }
  return { dns, ips: [...ips] };
}

/** The LAN addresses a phone can open (IPv4, not loopback), for the start banner. */
export function lanAddresses(): string[] {
  return Object.values(networkInterfaces())
    .flatMap((addresses) => addresses ?? [])
    .filter((address) => address.family === 'IPv4' && !address.internal)
    .map((address) => address.address);
}

/** The authority and a server certificate for `names`, kept in `dir` (made when missing). */
export async function localTls(dir: string, names = localNames(), now = new Date()): Promise<LocalTls> {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const ca = await authority(dir, now);
  const certPath = join(dir, 'server.crt');
  const keyPath = join(dir, 'server.key');
  if (existsSync(certPath) && existsSync(keyPath)) {
    const current = new X509Certificate(readFileSync(certPath));
    if (stillServes(current, new X509Certificate(ca.pem), names, now)) {
      return { key: readFileSync(keyPath, 'utf8'), cert: current.toString(), caCert: ca.pem, issued: false };
    }
  }
  const keys = await webcrypto.subtle.generateKey(ALGORITHM, true, ['sign', 'verify']);
  const cert = await x509.X509CertificateGenerator.create({
    subject: `CN=${names.dns.find((name) => name !== 'localhost') ?? 'localhost'}`,
    issuer: ca.cert.subject,
    notBefore: new Date(now.getTime() - DAY),
    notAfter: new Date(now.getTime() + SERVER_DAYS * DAY),
    signingKey: ca.key,
    publicKey: keys.publicKey,
    signingAlgorithm: ALGORITHM,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
      new x509.SubjectAlternativeNameExtension([
        ...names.dns.map((value) => ({ type: 'dns' as const, value })),
        ...names.ips.map((value) => ({ type: 'ip' as const, value })),
      ]),
      await x509.AuthorityKeyIdentifierExtension.create(ca.cert.publicKey),
    ],
  });
  const key = await privateKeyPem(keys.privateKey);
  writeSecret(keyPath, key);
  writeFileSync(certPath, cert.toString('pem'));
  return { key, cert: cert.toString('pem'), caCert: ca.pem, issued: true };
}

/** The authority: made once, ten years; its key readable by the owner only. */
async function authority(
  dir: string,
  now: Date,
): Promise<{ cert: x509.X509Certificate; pem: string; key: webcrypto.CryptoKey }> {
  const certPath = join(dir, 'ca.crt');
  const keyPath = join(dir, 'ca.key');
  if (existsSync(certPath) && existsSync(keyPath)) {
    const der = createPrivateKey(readFileSync(keyPath)).export({ format: 'der', type: 'pkcs8' });
    const key = await webcrypto.subtle.importKey('pkcs8', der, ALGORITHM, false, ['sign']);
    const pem = readFileSync(certPath, 'utf8');
    return { cert: new x509.X509Certificate(pem), pem, key };
  }
  const keys = await webcrypto.subtle.generateKey(ALGORITHM, true, ['sign', 'verify']);
  const notAfter = new Date(now);
  notAfter.setFullYear(notAfter.getFullYear() + CA_YEARS);
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    name: `CN=Course Portal local CA (${hostname()})`,
    notBefore: new Date(now.getTime() - DAY),
    notAfter,
    keys,
    signingAlgorithm: ALGORITHM,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  writeSecret(keyPath, await privateKeyPem(keys.privateKey));
  writeFileSync(certPath, cert.toString('pem'));
  return { cert, pem: cert.toString('pem'), key: keys.privateKey };
}

/** Whether the certificate was issued by `ca`, names everything in `names` and has a month left. */
function stillServes(cert: X509Certificate, ca: X509Certificate, names: { dns: string[]; ips: string[] }, now: Date) {
  if (!cert.checkIssued(ca) || !cert.verify(ca.publicKey)) return false;
  if (new Date(cert.validTo).getTime() - now.getTime() < RENEW_DAYS * DAY) return false;
  const named = new Set((cert.subjectAltName ?? '').split(', ').map((entry) => entry.replace(/^[^:]+:/, '')));
  return [...names.dns, ...names.ips].every((name) => named.has(name) || named.has(expandIpv6(name)));
}

/** Node prints IPv6 names in full (0:0:0:0:0:0:0:1); the interfaces give them short (::1). */
function expandIpv6(address: string): string {
  if (!address.includes(':')) return address;
  const [head, tail] = address.split('::') as [string, string | undefined];
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const middle = tail === undefined ? [] : Array(8 - left.length - right.length).fill('0');
  return [...left, ...middle, ...right].map((part) => part.replace(/^0+(?=.)/, '').toUpperCase()).join(':');
}

async function privateKeyPem(key: webcrypto.CryptoKey): Promise<string> {
  return x509.PemConverter.encode(await webcrypto.subtle.exportKey('pkcs8', key), 'PRIVATE KEY');
}

function writeSecret(path: string, text: string) {
  writeFileSync(path, text, { mode: 0o600 });
  chmodSync(path, 0o600);
}

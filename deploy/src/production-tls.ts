import { localTls } from './local-tls.ts';

/**
 * For deploy/scripts/production.sh: the portal's local certificate authority and a server
 * certificate for this machine's names and addresses, in the directory given (ca.crt, server.crt,
 * server.key), made or renewed as `npm start` does. nginx serves the server certificate; a phone
 * trusts ca.crt once.
 */
const dir = process.argv[2];
if (!dir) throw new Error('usage: production-tls.ts <directory>');
const tls = await localTls(dir);
console.log(tls.issued ? `issued a server certificate in ${dir}` : `server certificate in ${dir} still serves`);

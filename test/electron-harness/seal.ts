/**
 * A reversible scrambling standing in for the OS keychain behind `safeStorage` (shared by the unit
 * tests' fake electron and the harness): the clear text never appears in what it returns, and only
 * what it sealed opens again, with Electron's own error text otherwise.
 */
const MARK = Buffer.from('SEALED:');
const scramble = (b: Buffer) => Buffer.from(b.map((x) => x ^ 0x5a));

export function seal(text: string): Buffer {
  return Buffer.concat([MARK, scramble(Buffer.from(text, 'utf8'))]);
}

export function unseal(sealed: Buffer): string {
  if (!sealed.subarray(0, MARK.length).equals(MARK)) throw new Error('Error while decrypting the ciphertext provided to safeStorage.decryptString.');
  return scramble(sealed.subarray(MARK.length)).toString('utf8');
}

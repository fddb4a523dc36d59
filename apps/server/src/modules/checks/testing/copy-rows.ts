/**
 * Binary COPY of `(block int, numbers int2[])`, as ListKeyStore writes it, read back: the signature,
 * the rows, the -1 trailer. Throws on anything else (plain checks: a list has millions of elements).
 */
export function decodeCopyRows(bytes: Uint8Array): [number, number[]][] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const check = (ok: boolean, what: string) => {
    if (!ok) {
      throw new Error(`not the binary COPY of the list's rows: ${what}`);
    }
  };
  check(Buffer.from(bytes.subarray(0, 11)).toString('latin1') === 'PGCOPY\n\xff\r\n\0', 'signature');
  check(view.getInt32(11) === 0 && view.getInt32(15) === 0, 'flags and header extension');
  let at = 19;
  const rows: [number, number[]][] = [];
  for (;;) {
    const fields = view.getInt16(at);
    if (fields === -1) {
      check(at + 2 === bytes.length, 'bytes after the trailer');
      return rows;
    }
    check(fields === 2 && view.getInt32(at + 2) === 4, `row ${rows.length}: two fields, an int first`);
    const block = view.getInt32(at + 6);
    const arrayBytes = view.getInt32(at + 10);
    const count = view.getInt32(at + 26);
    // One dimension, no nulls, int2 elements, lower bound 1.
    check(
      view.getInt32(at + 14) === 1 &&
        view.getInt32(at + 18) === 0 &&
        view.getInt32(at + 22) === 21 &&
        view.getInt32(at + 30) === 1 &&
        arrayBytes === 20 + 6 * count,
      `block ${block}: a one-dimensional int2 array`,
    );
    const numbers: number[] = [];
    for (let i = 0; i < count; i++) {
      check(view.getInt32(at + 34 + i * 6) === 2, `element ${i} of block ${block}`);
      numbers.push(view.getInt16(at + 38 + i * 6));
    }
    rows.push([block, numbers]);
    at += 14 + arrayBytes;
  }
}

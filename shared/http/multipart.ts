// multipart/form-data bodies, parsed with busboy from the bytes API Gateway delivered (base64-decoded):
// the one `file` part, and small text fields beside it. Anything else is refused with a message that
// says what to send.
import type busboy from 'busboy';
import { errors } from './errors.ts';

export interface MultipartBody {
  file: { bytes: Buffer; filename: string | null; contentType: string | null } | undefined;
  fields: Record<string, string>;
}


export type MultipartParser = (body: Buffer, contentType: string, maxFileBytes: number) => Promise<MultipartBody>;

export async function parseMultipart(body: Buffer, contentType: string, maxFileBytes: number): Promise<MultipartBody> {
  // Loaded on the first multipart request: JSON, CSV and presigned uploads to the same function never
  // need the parser, so its init is not on their cold start (it stays in the bundle).
  const { default: createParser } = await import('busboy');
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = createParser({ headers: { 'content-type': contentType }, limits: { files: 2, fileSize: maxFileBytes + 1, fields: 10, fieldSize: 1024, parts: 12 } });
    } catch (error) {
      reject(errors.invalid(`The multipart body cannot be read: ${(error as Error).message}; send multipart/form-data with a boundary and a file part`, [{ path: 'body', message: 'Must be multipart/form-data with a boundary' }]));
      return;
    }
    const result: MultipartBody = { file: undefined, fields: {} };
    let problem: Error | undefined;
    parser.on('file', (name, stream, info) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('limit', () => (problem ??= errors.tooLarge(maxFileBytes)));
      stream.on('close', () => {
        if (name !== 'file') {
          problem ??= errors.invalid(`Unexpected file part "${name}"; send the feed in a part named file`, [{ path: name, message: 'Unknown part; name the file part "file"' }]);
        } else if (result.file) {
          problem ??= errors.invalid('Send one file part only', [{ path: 'file', message: 'Only one file part is allowed' }]);
        } else {
          result.file = { bytes: Buffer.concat(chunks), filename: info.filename ?? null, contentType: info.mimeType ?? null };
        }
      });
    });
    parser.on('field', (name, value) => {
      result.fields[name] = value;
    });
    parser.on('partsLimit', () => (problem ??= errors.invalid('Too many parts; send a file part and at most a format field', [{ path: 'body', message: 'Too many parts' }])));
    parser.on('error', (error: Error) =>
      reject(errors.invalid(`The multipart body is malformed: ${error.message}`, [{ path: 'body', message: 'Must be well-formed multipart/form-data' }])),
    );
    parser.on('close', () => (problem ? reject(problem) : resolve(result)));
    parser.end(body);
  });
}

import { ApiError, NETWORK_ERROR_CODE, NETWORK_ERROR_MESSAGE, UNKNOWN_ERROR_CODE } from './api-client';
import { getSessionToken } from './session-token';

export interface UploadWithProgressInput {
  method: string;
  path: string;
  /** The multipart body; put the fields before the file (servers read them before streaming the file to disk). */
  form: FormData;
  /** 0..1 as the bytes go up (XHR upload progress; fetch has no upload progress). */
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
}

/**
 * A multipart upload through XMLHttpRequest, for its upload progress events, with the session token. Resolves with the
 * parsed JSON body of a 2xx answer; failures throw ApiError like callApi: the server's `{ error, code }` with its
 * status, or a network failure (status 0). A cancelled upload rejects with an AbortError.
 */
export function uploadWithProgress(input: UploadWithProgressInput): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(input.method, input.path);
    xhr.setRequestHeader('accept', 'application/json');
    const token = getSessionToken();
    if (token) xhr.setRequestHeader('authorization', `Token ${token}`);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) input.onProgress?.(event.loaded / event.total);
    };
    xhr.onerror = () => reject(new ApiError(0, NETWORK_ERROR_MESSAGE, NETWORK_ERROR_CODE));
    xhr.onabort = () => reject(new DOMException('The upload was cancelled', 'AbortError'));
    xhr.onload = () => {
      let payload: unknown = null;
      try {
        payload = JSON.parse(xhr.responseText);
      } catch {
        payload = null;
      }
      const body = payload && typeof payload === 'object' ? (payload as Record<string, unknown>) : {};
      if (xhr.status >= 200 && xhr.status < 300) {
        input.onProgress?.(1);
        resolve(body);
        return;
      }
      const message = typeof body.error === 'string' ? body.error : `Request failed (${xhr.status} ${xhr.statusText})`;
      const code = typeof body.code === 'string' ? body.code : UNKNOWN_ERROR_CODE;
      reject(new ApiError(xhr.status, message, code, xhr.statusText));
    };
    input.signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(input.form);
  });
}

/** Sends multipart requests to the local service the way a client would. */
export type Part = string | { bytes: Buffer; filename: string; type?: string };

export async function postForm(
  url: string,
  parts: Record<string, Part>,
  headers: Record<string, string> = {},
): Promise<Response> {
  const form = new FormData();
  for (const [name, part] of Object.entries(parts)) {
    if (typeof part === 'string') form.append(name, part);
    else
      form.append(
        name,
        new Blob([new Uint8Array(part.bytes)], { type: part.type ?? 'application/octet-stream' }),
        part.filename,
      );
  }
  return fetch(url, { method: 'POST', body: form, headers });
}

/** POSTs and parses the JSON body, returning status and body. */
export async function postJson(
  url: string,
  parts: Record<string, Part>,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: any; headers: Headers }> {
  const response = await postForm(url, parts, headers);
  const text = await response.text();
  return { status: response.status, body: JSON.parse(text), headers: response.headers };
}

/** A multipart body with one file, as a browser sends it, for `app.inject`. */
export async function multipartBody(field: string, content: Buffer, filename: string, type: string) {
  const form = new FormData();
  form.append(field, new Blob([content], { type }), filename);
  const request = new Request('http://localhost/', { method: 'POST', body: form });
  return {
    payload: Buffer.from(await request.arrayBuffer()),
    headers: { 'content-type': request.headers.get('content-type')! },
  };
}

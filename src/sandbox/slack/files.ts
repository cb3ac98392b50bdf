// File uploads as Slack takes them (files.uploadV2 in the SDK): files.getUploadURLExternal hands out
// an upload URL, the client POSTs the bytes there, and files.completeUploadExternal shares the file
// in a channel as a message carrying it. The file is then downloadable from its url_private.
import { randomBytes } from "node:crypto";
import type { Json } from "./block-kit.js";
import { ApiError, type StoredFile, type Workspace } from "./web-api.js";

const MAX_BYTES = 1024 * 1024 * 1024;
const str = (v: unknown): string | undefined => (typeof v === "string" && v !== "" ? v : undefined);

/** A file as Slack's API shows it. */
export function fileObject(ws: Workspace, file: StoredFile): Json {
  const url = `${ws.filesUrl}/${file.id}/${encodeURIComponent(file.name)}`;
  return {
    id: file.id,
    created: file.created,
    timestamp: file.created,
    name: file.name,
    title: file.title,
    mimetype: file.mimetype,
    filetype: file.filetype,
    pretty_type: file.filetype.toUpperCase(),
    user: file.user,
    size: file.size,
    mode: "hosted",
    is_external: false,
    is_public: true,
    url_private: url,
    url_private_download: `${url}?download=1`,
  };
}

const TYPES: Record<string, string> = { csv: "text/csv", txt: "text/plain", json: "application/json" };

export const fileMethods: Record<string, (ws: Workspace, args: Json) => Json> = {
  "files.getUploadURLExternal": (ws, args) => {
    const filename = str(args.filename);
    const length = Number(args.length);
    if (!filename) throw new ApiError("invalid_arguments", { response_metadata: { messages: ["filename"] } });
    if (!Number.isInteger(length) || length < 1 || length > MAX_BYTES) throw new ApiError("invalid_length");
    const id = `F${randomBytes(5).toString("hex").toUpperCase()}`;
    const filetype = /\.([a-z0-9]+)$/i.exec(filename)?.[1]?.toLowerCase() ?? "binary";
    ws.files.set(id, {
      id,
      name: filename,
      title: filename,
      filetype,
      mimetype: TYPES[filetype] ?? "application/octet-stream",
      size: length,
      user: ws.id.botUserId,
      created: Math.floor(ws.now() / 1000),
      content: null,
      shared: false,
    });
    return { upload_url: `${ws.uploadUrl}/${id}`, file_id: id };
  },

  "files.completeUploadExternal": (ws, args) => {
    const listed = Array.isArray(args.files) ? (args.files as { id?: string; title?: string }[]) : undefined;
    if (!listed?.length) throw new ApiError("invalid_arguments", { response_metadata: { messages: ["files"] } });
    const files = listed.map((f) => {
      const file = ws.files.get(f.id ?? "");
      // Slack completes only what was uploaded, once.
      if (!file || file.content === null || file.shared) throw new ApiError("file_not_found");
      return file;
    });
    for (const [i, file] of files.entries()) {
      file.shared = true;
      file.title = listed[i]?.title ?? file.title;
    }
    const channel = str(args.channel_id);
    if (channel) {
      const threadTs = ws.threadRoot(channel, str(args.thread_ts));
      ws.add(channel, {
        ...ws.botMessage(ws.nextTs(), { text: str(args.initial_comment) ?? "" }, threadTs),
        files: files.map((f) => fileObject(ws, f)),
        upload: true,
      });
    }
    return { files: files.map((f) => ({ id: f.id, title: f.title })) };
  },
};

/** The bytes POSTed to an upload URL (multipart, as the SDK sends them, or the raw body); false: no such upload. */
export async function receiveUpload(
  ws: Workspace,
  id: string,
  body: Buffer,
  contentType: string | undefined,
): Promise<boolean> {
  const file = ws.files.get(id);
  if (!file || file.shared) return false;
  if (contentType?.startsWith("multipart/form-data")) {
    const form = await new Response(new Uint8Array(body), { headers: { "content-type": contentType } }).formData();
    const part = [...form.values()].find((v) => typeof v !== "string") ?? form.get("body");
    file.content = part === null ? "" : typeof part === "string" ? part : await part.text();
  } else file.content = body.toString("utf8");
  file.size = Buffer.byteLength(file.content);
  return true;
}

/** What a source is to the rest of the service: an identity (for keys and ETags) and its bytes. */
export interface SourceMeta {
  /** The local path or the remote URL. */
  id: string;
  /** Changes whenever the content may have: size and mtime, or the remote ETag. */
  identity: string;
  mtime: Date | undefined;
}

export interface LoadedSource extends SourceMeta {
  data: Buffer;
}

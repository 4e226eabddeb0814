// The site's files as the worker reads them: through a Workers assets binding (env.ASSETS, Cloudflare's
// Workers Static Assets in production; under workerd, a `disk` service over the site root, see
// worker/workerd.capnp). Each file is read with its precompressed variants, given its representations
// (ETag, headers: src/publish/answers.ts, as `hoba serve` does) and kept in the isolate while it is unchanged, so
// that a request costs one HEAD to the assets and the write.
//
// A `disk` service follows symbolic links, out of the site too (worker/workerd.capnp); `hoba serve` and the
// nginx snippet never read through a link below the root. So when the binding lists directories (a `disk`
// service does; Workers Static Assets has no directories, and no links), a file is read only if no part of
// its path is a link, by the listings of its directories.
import { ENCODINGS, type Encoding } from '../http/encodings.ts';
import { NOT_FOUND_FILE, resolveUrl } from '../publish/routes.ts';
import { registryVersionIn, representationsOf, type Representations } from '../publish/answers.ts';

/** A Workers service binding: what env.ASSETS is (a `Fetcher`). */
export interface AssetsBinding {
  fetch(input: string, init?: { method?: string }): Promise<Response>;
}

/** The binding needs absolute URLs; the host is not looked at. */
const ASSETS_ORIGIN = 'https://assets.invalid';
/** Most bytes of files (with their variants) kept in an isolate (Workers have 128 MiB, the atlas and the MCP server need their share). */
const DEFAULT_CACHE_BYTES = 32 * 1024 * 1024;

interface Kept {
  validator: string;
  file: Representations;
  cost: number;
}

export class SiteAssets {
  private readonly kept = new Map<string, Kept>();
  private bytes = 0;
  /** Whether the binding lists directories (a `disk` service), once its root has been asked. */
  private lists?: boolean;

  constructor(
    private readonly binding: AssetsBinding,
    private readonly budget = DEFAULT_CACHE_BYTES,
  ) {}

  /** A site-relative file with its representations; undefined when there is none. */
  async file(file: string): Promise<Representations | undefined> {
    const known = this.kept.get(file);
    if (known) {
      const head = await this.fetch(file, 'HEAD');
      if (isFile(head) && validatorOf(head) === known.validator) return known.file;
    }
    const response = await this.fetch(file, 'GET');
    if (!isFile(response) || (await this.typeOf(file)) === 'link') {
      await response.body?.cancel();
      if (known) this.forget(file, known);
      return undefined;
    }
    const identity = Buffer.from(await response.arrayBuffer());
    const variantBytes: Partial<Record<Encoding, Buffer>> = {};
    for (const { encoding, suffix } of ENCODINGS) {
      const variant = await this.fetch(`${file}${suffix}`, 'GET');
      if (isFile(variant) && (await this.typeOf(`${file}${suffix}`)) !== 'link')
        variantBytes[encoding] = Buffer.from(await variant.arrayBuffer());
      else await variant.body?.cancel();
    }
    const representations = representationsOf(file, identity, variantBytes);
    const validator = validatorOf(response);
    if (known) this.forget(file, known);
    // Kept only when a later HEAD can tell whether it changed, and within the budget.
    const cost = identity.length + Object.values(representations.variants).reduce((n, v) => n + v.body.length, 0);
    if (validator !== undefined && this.bytes + cost <= this.budget) {
      this.kept.set(file, { validator, file: representations, cost });
      this.bytes += cost;
    }
    return representations;
  }

  /**
   * Whether a site-relative path that is not a file is a directory, for the redirect to its path with a
   * slash. A `disk` service answers a directory with its listing; Workers Static Assets has no
   * directories, so there a path is one when the document its slashed URL serves exists (/developers →
   * developers/index.html, /api/v1 → api/v1/index.json).
   */
  async isDirectory(file: string): Promise<boolean> {
    const type = await this.typeOf(file);
    if (type !== undefined) return type === 'directory';
    const slashed = resolveUrl(`/${file}/`);
    return slashed.kind === 'file' && (await this.file(slashed.file)) !== undefined;
  }

  /** The registry version the site's error documents name, for problems made on the spot. */
  async registryVersion(): Promise<string | undefined> {
    const notFound = await this.file(NOT_FOUND_FILE);
    return notFound ? registryVersionIn(notFound.identity.body) : undefined;
  }

  /**
   * What a site-relative path is by the listings of its directories: 'link' when any part of it is a
   * symbolic link, its own type otherwise ('missing' when a listing lacks it); undefined when the binding
   * lists no directories (Workers Static Assets).
   */
  private async typeOf(file: string): Promise<'link' | 'directory' | 'file' | 'missing' | undefined> {
    if (this.lists === false) return undefined;
    const parts = file.split('/').filter(Boolean);
    let dir = '';
    let type: string | undefined;
    for (const part of parts) {
      const listing = await this.listing(dir);
      if (dir === '') this.lists = listing !== undefined;
      if (listing === undefined) return dir === '' ? undefined : 'missing';
      type = listing.get(part);
      if (type === undefined) return 'missing';
      if (type === 'symlink') return 'link';
      dir = dir === '' ? part : `${dir}/${part}`;
    }
    return type === 'directory' ? 'directory' : type === 'file' ? 'file' : 'missing';
  }

  /** A directory's entries by name with their types, from a `disk` service's listing; undefined when the
   * binding gives none. */
  private async listing(dir: string): Promise<Map<string, string> | undefined> {
    const response = await this.binding.fetch(
      `${ASSETS_ORIGIN}/${dir === '' ? '' : `${dir.split('/').map(encodeURIComponent).join('/')}/`}`,
      { method: 'GET' },
    );
    if (!isListing(response)) {
      await response.body?.cancel();
      return undefined;
    }
    const entries = (await response.json()) as Array<{ name: string; type: string }>;
    return new Map(entries.map((e) => [e.name, e.type]));
  }

  private fetch(file: string, method: 'GET' | 'HEAD'): Promise<Response> {
    // Each segment percent-encoded: a site-relative path is a decoded one (src/publish/answers.ts).
    return this.binding.fetch(`${ASSETS_ORIGIN}/${file.split('/').map(encodeURIComponent).join('/')}`, { method });
  }

  private forget(file: string, entry: Kept): void {
    if (this.kept.get(file) === entry) {
      this.kept.delete(file);
      this.bytes -= entry.cost;
    }
  }
}

/**
 * Whether an answer of the binding is a file: a 200 that is not a `disk` service's directory listing
 * (which, unlike its files, comes as application/json with no length).
 */
function isFile(response: Response): boolean {
  return response.status === 200 && !isListing(response);
}

/** Whether an answer of the binding is a `disk` service's directory listing (JSON with no length). */
function isListing(response: Response): boolean {
  return response.status === 200 && response.headers.get('content-type') === 'application/json' && !response.headers.has('content-length');
}

/** What tells one version of a file from another: its ETag (Workers Static Assets), else its time and length (`disk`). */
function validatorOf(response: Response): string | undefined {
  const etag = response.headers.get('etag');
  if (etag) return `etag ${etag}`;
  const modified = response.headers.get('last-modified');
  const length = response.headers.get('content-length');
  return modified && length ? `${modified} ${length}` : undefined;
}

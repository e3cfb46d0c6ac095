// The Chromium that the browser tests and benchmarks drive. Playwright cannot download its browsers
// here (the only network is the npm registry), so, in this order:
//   1. CHROMIUM_PATH, when set;
//   2. /usr/bin/chromium (Debian's package), when it exists;
//   3. the headless shell that @sparticuz/chromium carries inside its npm package (linux x64), so that
//      `npm install && npm test` needs nothing else on the machine. It is unpacked once into a
//      version-keyed folder under node_modules/.cache, together with what the package ships for it:
//      the NSS/NSPR/expat libraries (LD_LIBRARY_PATH) and a font, behind a fontconfig file that also
//      includes the system's configuration when there is one (without any, the browser aborts).
import { spawn } from "node:child_process";
import { createReadStream, createWriteStream, existsSync, readFileSync } from "node:fs";
import { mkdir, mkdtemp, rename, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { createBrotliDecompress } from "node:zlib";

export interface ChromiumInstall {
  executablePath: string;
  /** Extra environment for the browser process (the bundled libraries' folder, its fontconfig file). */
  env: Record<string, string>;
}

const DEBIAN_CHROMIUM = "/usr/bin/chromium";
const ROOT = path.resolve(import.meta.dirname, "../..");
const PACKAGE = "@sparticuz/chromium";
/** Part of the cache folder's name: bump it when what gets unpacked changes, so old folders are not used. */
const LAYOUT = 2;

let found: Promise<ChromiumInstall> | undefined;

/** Finds (and on first use unpacks) the browser; the answer is the same for the whole process. */
export function findChromium(): Promise<ChromiumInstall> {
  found ??= locate();
  return found;
}

async function locate(): Promise<ChromiumInstall> {
  const fromEnv = process.env.CHROMIUM_PATH;
  if (fromEnv) {
    if (!existsSync(fromEnv)) throw new Error(`CHROMIUM_PATH=${fromEnv} does not exist`);
    return { executablePath: fromEnv, env: {} };
  }
  if (existsSync(DEBIAN_CHROMIUM)) return { executablePath: DEBIAN_CHROMIUM, env: {} };
  return unpackBundled();
}

async function unpackBundled(): Promise<ChromiumInstall> {
  if (process.platform !== "linux" || process.arch !== "x64") {
    throw new Error(
      `No Chromium for the browser tests: ${PACKAGE} ships linux-x64 only (this is ${process.platform}-${process.arch}). ` +
        "Set CHROMIUM_PATH to a Chromium or Chrome binary.",
    );
  }
  const require = createRequire(import.meta.url);
  // The package exports only its entry, build/index.js; the compressed browser is in bin/ beside build/.
  const packageDir = path.resolve(path.dirname(require.resolve(PACKAGE)), "..");
  const { version } = JSON.parse(readFileSync(path.join(packageDir, "package.json"), "utf8")) as { version: string };
  const target = path.join(ROOT, "node_modules/.cache", `sparticuz-chromium-${version}-${LAYOUT}`);
  const install = (): ChromiumInstall => ({
    executablePath: path.join(target, "chromium"),
    env: {
      LD_LIBRARY_PATH: [path.join(target, "lib"), process.env.LD_LIBRARY_PATH].filter(Boolean).join(":"),
      FONTCONFIG_FILE: path.join(target, FONTCONFIG),
    },
  });
  // The marker is written last, inside the staging folder: a folder without it was never renamed in.
  if (existsSync(path.join(target, ".complete"))) return install();

  // Not the package's own executablePath()/inflate(): they unpack only into os.tmpdir() (/tmp/chromium,
  // shared by every version and project) and take a half-written file there for a complete one.
  await mkdir(path.dirname(target), { recursive: true });
  const staging = await mkdtemp(`${target}.partial-`);
  try {
    const bin = path.join(packageDir, "bin");
    await pipeline(
      createReadStream(path.join(bin, "chromium.br")),
      createBrotliDecompress(),
      createWriteStream(path.join(staging, "chromium"), { mode: 0o755 }),
    );
    await untarBrotli(path.join(bin, "al2023.tar.br"), staging); // → staging/lib/libnss3.so, …
    await untarBrotli(path.join(bin, "fonts.tar.br"), staging); // → staging/fonts/Open_Sans/*.ttf
    await writeFile(path.join(staging, FONTCONFIG), fontconfig(target));
    await writeFile(path.join(staging, ".complete"), `${PACKAGE}@${version}\n`);
    try {
      await rename(staging, target);
    } catch (error) {
      // Another run unpacked it first: theirs is complete (it has the marker), so use it.
      if (!existsSync(path.join(target, ".complete"))) throw error;
    }
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
  return install();
}

const FONTCONFIG = "fontconfig.conf";

/**
 * The package's own fonts.conf names Lambda's folders (/tmp/fonts), so ours names the unpacked font
 * and includes the system's configuration, if any, so a machine's own fonts and rules still apply.
 */
function fontconfig(dir: string): string {
  const xml = (s: string) => s.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
  return `<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">
<fontconfig>
  <include ignore_missing="yes">/etc/fonts/fonts.conf</include>
  <dir>${xml(path.join(dir, "fonts"))}</dir>
  <cachedir>${xml(path.join(dir, "fontconfig-cache"))}</cachedir>
</fontconfig>
`;
}

/**
 * Brotli-compressed tar → folder, with the system's tar (essential on Debian, present on every Linux).
 * Decompressed to a file first, not piped into tar's stdin: tar may exit once it has read the end-of-
 * archive blocks, before the rest of the padding is written, and the pipe then fails ("Premature
 * close") depending on timing, which failed a CI run.
 */
async function untarBrotli(archive: string, into: string): Promise<void> {
  const tarFile = path.join(into, `${path.basename(archive, ".br")}.partial`);
  await pipeline(createReadStream(archive), createBrotliDecompress(), createWriteStream(tarFile));
  const tar = spawn("tar", ["-x", "-f", tarFile, "-C", into], { stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  tar.stderr.on("data", (b: Buffer) => {
    stderr += b.toString();
  });
  const code = await new Promise<number | null>((resolve, reject) => {
    tar.once("error", reject);
    tar.once("close", resolve);
  });
  await rm(tarFile, { force: true });
  if (code !== 0) throw new Error(`tar -x ${archive} failed (${code}): ${stderr}`);
}

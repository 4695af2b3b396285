// swagger-ui-dist ships no types; this is the one function of it the server uses.
declare module "swagger-ui-dist/absolute-path.js" {
  /** The package's folder on disk. */
  export default function getAbsoluteFSPath(): string;
}

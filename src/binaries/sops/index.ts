// sops, wrapped once: every sops process flotilla starts goes through sopsDecrypt.
export * from "./errors.js";
export { locateGpg, locateSops } from "./locate.js";
export { openSopsKeyring, type SopsKeyring } from "./keyring.js";
export { sopsDecrypt, type SopsDecryptOptions, type SopsFormat, type SopsKeys } from "./run.js";

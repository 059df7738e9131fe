// The flotilla version (also the default controller image tag).
export const VERSION = "0.1.0";
